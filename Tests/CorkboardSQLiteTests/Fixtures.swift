import CorkboardModel
import CorkboardStore
import Dispatch
import Foundation
import Synchronization
import TestSupport

@testable import CorkboardSQLite

/// Boards, events and waiting helpers shared by this target's tests.
enum Fixtures {
    /// The server's default size limits (`corkboard serve` without options).
    static let limits = BoardSizeLimits(maximumItems: 10_000, maximumCollections: 1_000)

    static func board(_ id: String = "b") -> Board { StoreLog.board(id) }

    static func event(_ seq: Int) -> CommittedEvent { StoreLog.event(seq) }

    static func events(_ seqs: ClosedRange<Int>) -> [CommittedEvent] { StoreLog.events(seqs) }

    /// A batch that inserts `count` items with long labels: enough bytes to need new pages.
    static func bulkyBatch(board: String, expectedSeq: Int, count: Int = 400) -> CommitBatch {
        let items = (0..<count).map { Item(id: "bulk-\(expectedSeq)-\($0)", label: String(repeating: "x", count: 200)) }
        let event = CommittedEvent(
            seq: expectedSeq + 1, opId: "bulk-\(expectedSeq)", client: "c1",
            op: .insert(items: items, destination: Destination(collection: "done")), adjusted: false)
        return CommitBatch(board: board, expectedSeq: expectedSeq, events: [event])
    }

    static func rebuild(_ stored: StoredBoard) throws -> Board { try StoreLog.rebuild(stored) }

    /// `board()` after events 1…seq.
    static func expected(after seq: Int, _ id: String = "b") throws -> Board {
        var board = board(id)
        if seq > 0 { for event in events(1...seq) { try board.apply(event.op) } }
        return board
    }

    /// A store in `directory` with quick commits (tests do not need power-loss safety).
    static func open(_ directory: TemporaryDirectory, retainedEvents: Int = 100, syncMode: SyncMode = .normal) throws -> SQLiteStore {
        try SQLiteStore(directory: directory.path + "/data", syncMode: syncMode, retainedEvents: retainedEvents)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension SQLiteStore {
    func create(_ board: Board, epoch: String = "e1") throws {
        try wait { createBoard(board, epoch: epoch, $0) }.get()
    }

    func load(_ id: String, historyLimit: Int = 1_000_000) throws -> StoredBoard? {
        try wait { loadBoard(id, historyLimit: historyLimit, $0) }.get()
    }

    func appendResult(_ batch: CommitBatch) -> Result<Void, StoreError> {
        wait { append(batch, $0) }
    }

    /// Events expectedSeq+1 … expectedSeq+count of `Fixtures.event`, as one batch.
    func appendEvents(_ board: String, after expectedSeq: Int, count: Int, rejections: [Rejection] = []) throws {
        let batch = CommitBatch(
            board: board, expectedSeq: expectedSeq,
            events: Fixtures.events(expectedSeq + 1...expectedSeq + count), rejections: rejections)
        try appendResult(batch).get()
    }

    func list() throws -> [BoardSummary] {
        try wait { listBoards($0) }.get()
    }
}
