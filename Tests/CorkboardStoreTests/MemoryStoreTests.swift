import CorkboardModel
import CorkboardStore
import Testing

@Suite struct MemoryStoreTests {
    static let board = Board(id: "b", title: "B", collections: [
        BoardCollection(id: "todo", title: "To do", items: [Item(id: "i1", label: "1"), Item(id: "i2", label: "2")]),
        BoardCollection(id: "done", title: "Done"),
    ])

    /// Moves i1 and i2 back and forth between the collections: event `seq` of a long log.
    static func event(_ seq: Int) -> CommittedEvent {
        let item = seq % 2 == 1 ? "i1" : "i2"
        let collection = (seq + 1) / 2 % 2 == 1 ? "done" : "todo"
        return CommittedEvent(
            seq: seq, opId: "op-\(seq)", client: "c1",
            op: .move(sources: [item], destination: Destination(collection: collection)), adjusted: false)
    }

    static func wait<T: Sendable>(_ call: (@escaping @Sendable (T) -> Void) -> Void) -> T {
        let box = ResultBox<T>()
        call { box.value = $0 }
        return box.value!
    }

    @Test func createListAndLoad() throws {
        let store = MemoryStore()
        try Self.wait { store.createBoard(Self.board, epoch: "e1", $0) }.get()
        #expect(Self.wait { store.createBoard(Self.board, epoch: "e2", $0) }.failure == .alreadyExists)
        #expect(try Self.wait { store.listBoards($0) }.get() == [BoardSummary(id: "b", title: "B", seq: 0)])
        let loaded = try #require(try Self.wait { store.loadBoard("b", historyLimit: 10, $0) }.get())
        #expect(loaded == StoredBoard(snapshot: Self.board, snapshotSeq: 0, epoch: "e1", events: []))
        #expect(try Self.wait { store.loadBoard("nope", historyLimit: 10, $0) }.get() == nil)
    }

    @Test func appendChecksTheSeqItExtends() throws {
        let store = MemoryStore()
        _ = Self.wait { store.createBoard(Self.board, epoch: "e1", $0) }
        let first = CommitBatch(board: "b", expectedSeq: 0, events: [Self.event(1), Self.event(2)])
        try Self.wait { store.append(first, $0) }.get()
        #expect(Self.wait { store.append(first, $0) }.failure == .conflict(currentSeq: 2))
        #expect(Self.wait { store.append(CommitBatch(board: "x", expectedSeq: 0, events: []), $0) }.failure == .notFound)
        #expect(try Self.wait { store.events(board: "b", after: 1, limit: 10, $0) }.get() == [Self.event(2)])
        #expect(try Self.wait { store.listBoards($0) }.get().first?.seq == 2)
    }

    /// Events of about 20 KB: the log is folded by its bytes long before its count.
    @Test func aLogOfBigEventsIsFoldedByItsBytes() throws {
        let budget = 100_000
        let store = MemoryStore(retainedEvents: 1_000, historyByteBudget: budget)
        _ = Self.wait { store.createBoard(Self.board, epoch: "e1", $0) }
        var expected = Self.board
        let blob: JSONObject = ["blob": .string(String(repeating: "z", count: 20_000))]
        for seq in 1...60 {
            let event = CommittedEvent(
                seq: seq, opId: "u-\(seq)", client: "c1", op: .updateItem(item: "i1", label: "L\(seq)", data: .replace(blob)), adjusted: false)
            try Self.wait { store.append(CommitBatch(board: "b", expectedSeq: seq - 1, events: [event]), $0) }.get()
            try expected.apply(event.op)
            let kept = try #require(try Self.wait { store.loadBoard("b", historyLimit: 1_000, $0) }.get())
            let keptBytes = kept.events.reduce(0) { $0 + $1.footprint }
            #expect(keptBytes <= budget + LogRetention(retained: 1_000, byteBudget: budget).byteSlack + event.footprint)
        }
        let loaded = try #require(try Self.wait { store.loadBoard("b", historyLimit: 1_000, $0) }.get())
        #expect(loaded.seq == 60 && loaded.events.count < 10 && !loaded.events.isEmpty)
        #expect(loaded.foldedCommits.map(\.seq) + loaded.events.map(\.seq) == Array(1...60))
        var board = loaded.snapshot
        for event in loaded.events { try board.apply(event.op) }
        #expect(board == expected)
    }

    /// A long log is folded into the snapshot; a load still rebuilds the same board.
    @Test func trimmedLogStillRebuildsTheBoard() throws {
        let store = MemoryStore(retainedEvents: 3)
        _ = Self.wait { store.createBoard(Self.board, epoch: "e1", $0) }
        var expected = Self.board
        for seq in 1...20 {
            let rejection = Rejection(opId: "bad-\(seq)", code: .invalid, message: "no")
            _ = try Self.wait { store.append(CommitBatch(board: "b", expectedSeq: seq - 1, events: [Self.event(seq)], rejections: [rejection]), $0) }.get()
            try expected.apply(Self.event(seq).op)
        }
        let loaded = try #require(try Self.wait { store.loadBoard("b", historyLimit: 2, $0) }.get())
        #expect(loaded.seq == 20)
        #expect(loaded.events.map(\.seq) == [19, 20])
        var board = loaded.snapshot
        for event in loaded.events { try board.apply(event.op) }
        #expect(board == expected)
        #expect(loaded.rejections.count <= 6 && loaded.rejections.last?.opId == "bad-20")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
