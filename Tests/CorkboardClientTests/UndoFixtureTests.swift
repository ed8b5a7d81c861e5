import CorkboardClient
import CorkboardModel
import Foundation
import TestSupport
import Testing

/// The client's undo rules against the cases the browser SDK's undo is tested on too
/// (Tests/Fixtures/undo, read by Tests/sdk/undo.test.mjs), so the two cannot drift.
@Suite struct UndoFixtureTests {
    /// One case of a fixture file (Tests/Fixtures/undo/README.md).
    struct Case: Decodable {
        var name: String
        var before: [Column]
        var ops: [BoardOperation]
        var now: [Column]
        var undo: Expected?
        var redo: Redo?
    }

    struct Redo: Decodable {
        var now: [Column]
        var ops: [BoardOperation]?
        var refused: String?
    }

    struct Expected: Decodable {
        var ops: [BoardOperation]?
        var refused: String?
    }

    /// A fixture's compact column: items are ids (labelled with the id) or whole items. With
    /// `folder: true` it is the contents of the folder of that id.
    struct Column: Decodable {
        var id: String
        var title: String?
        var items: [FixtureItem]
        var folder: Bool?
    }

    struct FixtureItem: Decodable {
        var item: Item
        init(from decoder: any Decoder) throws {
            if let id = try? decoder.singleValueContainer().decode(String.self) {
                item = Item(id: id, label: id)
            } else {
                item = try Item(from: decoder)
            }
        }
    }

    static let folder = PythonTools.packageRoot + "/Tests/Fixtures/undo"

    static func cases() throws -> [Case] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        return try files.flatMap { file in
            try JSONDecoder().decode([Case].self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + file)))
        }
    }

    static func board(_ columns: [Column]) -> Board {
        Board(
            id: "b", title: "B",
            collections: columns.filter { $0.folder != true }.map { BoardCollection(id: $0.id, title: $0.title ?? $0.id, items: $0.items.map(\.item)) },
            folders: Dictionary(uniqueKeysWithValues: columns.filter { $0.folder == true }.map { ($0.id, $0.items.map(\.item)) }))
    }

    @Test func theFixturesAreThere() throws {
        #expect(try Self.cases().count >= 30)
    }

    @Test(arguments: try cases().map(\.name))
    func undoAndRedoFollowTheSharedRules(_ name: String) throws {
        let fixture = try #require(try Self.cases().first { $0.name == name })
        let step = UndoStep.undoing(fixture.ops, on: Self.board(fixture.before))
        guard let expected = fixture.undo else {
            #expect(step == nil)
            return
        }
        let undoStep = try #require(step)
        let undone = undoStep.resolve(on: Self.board(fixture.now))
        switch undone {
        case .success(let operations): #expect(operations == expected.ops, "undo")
        case .failure(let refusal): #expect(refusal.code == expected.refused, "undo refused: \(refusal.message)")
        }
        // A case without a redo ends at the undo; one with a redo needs an undo that was sent.
        guard let redo = fixture.redo else { return }
        let operations = try undone.get()
        let redoStep = try #require(UndoStep.undoing(operations, on: Self.board(fixture.now)))
        switch redoStep.resolve(on: Self.board(redo.now)) {
        case .success(let redone): #expect(redone == redo.ops, "redo")
        case .failure(let refusal): #expect(refusal.code == redo.refused, "redo refused: \(refusal.message)")
        }
    }

    @Test func aNewStepClearsWhatCouldBeRedone() throws {
        let start = Self.board([Column(id: "todo", items: ["a", "b"].map(FixtureItem.init))])
        var history = UndoHistory()
        history.record([.delete(items: ["a"])], on: start)
        let gone = Self.board([Column(id: "todo", items: [FixtureItem("b")])])
        guard case .send = history.undo(on: gone) else {
            Issue.record("expected something to send")
            return
        }
        #expect(history.canRedo)
        history.record([.delete(items: ["b"])], on: start)
        #expect(!history.canRedo)
        #expect(history.redo(on: start) == nil)
    }

    @Test func aStepRefusedForAPassingReasonCanBeTriedAgain() throws {
        let start = Self.board([Column(id: "todo", items: ["a"].map(FixtureItem.init)), Column(id: "done", items: [])])
        let moved = Self.board([Column(id: "todo", items: []), Column(id: "done", items: [FixtureItem("a")])])
        var history = UndoHistory()
        history.record([.move(sources: ["a"], destination: Destination(collection: "done"))], on: start)
        let taken = history.undo(on: moved)
        let attempt = try #require(taken)
        history.failed(attempt)
        #expect(history.canUndo)
        #expect(!history.canRedo)
        #expect(history.undo(on: moved) == attempt)
    }

    @Test func atMostLimitStepsAreKept() {
        let start = Self.board([Column(id: "todo", items: ["a", "b", "c"].map(FixtureItem.init))])
        var history = UndoHistory(limit: 2)
        for id in ["a", "b", "c"] { history.record([.delete(items: [id])], on: start) }
        let empty = Self.board([Column(id: "todo", items: [])])
        var restored: [ItemID] = []
        for _ in 0..<3 {
            if case .send(let operations, _, _, _)? = history.undo(on: empty), case .insert(let items, _)? = operations.first {
                restored += items.map(\.id)
            }
        }
        #expect(restored == ["c", "b"])
    }
}

extension UndoFixtureTests.FixtureItem {
    init(_ id: String) { item = Item(id: id, label: id) }
}

extension UndoFixtureTests.Column {
    init(id: String, items: [UndoFixtureTests.FixtureItem]) {
        self.init(id: id, title: nil, items: items)
    }
}
