import CorkboardModel
import Foundation

/// Boards written as text keep the tables readable: `"todo: a b c; done: x"` is a
/// board with collections `todo` (items a, b, c) and `done` (item x), labels = ids.
func makeBoard(_ layout: String, locked: Bool = false) -> Board {
    let collections = layout.split(separator: ";").map { part in
        let halves = part.split(separator: ":", maxSplits: 1)
        let id = halves[0].trimmingCharacters(in: .whitespaces)
        let items = halves.count > 1 ? halves[1].split(separator: " ").map { Item(id: String($0), label: String($0)) } : []
        return BoardCollection(id: id, title: id.uppercased(), items: items)
    }
    return Board(id: "b", title: "Test", locked: locked, collections: collections)
}

/// The inverse of `makeBoard`: the layout of a board as text.
func layout(_ board: Board) -> String {
    board.collections.map { collection in
        ([collection.id + ":"] + collection.items.map(\.id)).joined(separator: " ")
    }.joined(separator: "; ")
}

func makeEngine(_ layoutText: String, locked: Bool = false, historyCapacity: Int = 1_000) throws -> BoardEngine {
    try BoardEngine(board: makeBoard(layoutText, locked: locked), historyCapacity: historyCapacity)
}

extension BoardEngine {
    var layoutText: String { layout(board) }
}

/// Request shorthands for the tables.
func move(
    _ opId: String, base: Int, _ sources: [String], to collection: String, before: String? = nil
) -> OperationRequest {
    OperationRequest(opId: opId, baseSeq: base, .move(sources: sources, destination: Destination(collection: collection, before: before)))
}

func moveOffsets(
    _ opId: String, base: Int, _ collection: String, from offsets: [Int], to toOffset: Int, in toCollection: String? = nil
) -> OperationRequest {
    OperationRequest(
        opId: opId, baseSeq: base,
        .moveByOffsets(collection: collection, fromOffsets: offsets, toOffset: toOffset, toCollection: toCollection))
}

func delete(_ opId: String, base: Int, _ items: [String]) -> OperationRequest {
    OperationRequest(opId: opId, baseSeq: base, .delete(items: items))
}

func insert(_ opId: String, base: Int, _ ids: [String], to collection: String, before: String? = nil) -> OperationRequest {
    OperationRequest(
        opId: opId, baseSeq: base,
        .insert(items: ids.map { Item(id: $0, label: $0) }, destination: Destination(collection: collection, before: before)))
}

extension Outcome {
    /// The committed event, if this outcome is a new commit.
    var event: CommittedEvent? {
        if case .committed(let commit) = self { return commit.event }
        return nil
    }

    var rejection: Rejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }

    var rejectionCode: RejectionCode? { rejection?.code }

    var isNoop: Bool {
        if case .noop = self { return true }
        return false
    }
}

/// The documented semantics of `MutableCollection.move(fromOffsets:toOffset:)`, which
/// Swift ships only in SwiftUI (not on Linux): remove the elements at the offsets,
/// keeping their order, then insert them at `toOffset` minus the number of removed
/// offsets below it.
func referenceMove<Element>(_ array: [Element], fromOffsets offsets: Set<Int>, toOffset: Int) -> [Element] {
    let moving = offsets.sorted().map { array[$0] }
    var rest = array.indices.filter { !offsets.contains($0) }.map { array[$0] }
    rest.insert(contentsOf: moving, at: toOffset - offsets.filter { $0 < toOffset }.count)
    return rest
}
