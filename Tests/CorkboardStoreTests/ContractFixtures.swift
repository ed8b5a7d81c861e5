import CorkboardModel
import CorkboardStore
import TestSupport

/// Boards, events and blocking calls shared by the contract's tests.
enum Contract {
    static func board(_ id: String = "b") -> Board { StoreLog.board(id) }

    static func event(_ seq: Int) -> CommittedEvent { StoreLog.event(seq) }

    static func events(_ seqs: ClosedRange<Int>) -> [CommittedEvent] { StoreLog.events(seqs) }

    /// An update carrying about 20 KB of data: a log of these passes its byte budget long
    /// before its count.
    static func bigEvent(_ seq: Int) -> CommittedEvent {
        let blob: JSONObject = ["blob": .string(String(repeating: "z", count: 20_000))]
        return CommittedEvent(
            seq: seq, opId: "u-\(seq)", client: "c1", op: .updateItem(item: "i1", label: "L\(seq)", data: .replace(blob)),
            adjusted: false)
    }

    /// `board()` after `events`.
    static func board(after events: [CommittedEvent], _ id: String = "b") throws -> Board {
        var board = board(id)
        for event in events { try board.apply(event.op) }
        return board
    }

    static func rebuild(_ stored: StoredBoard) throws -> Board { try StoreLog.rebuild(stored) }
}

/// The store's calls, waited for (at most 15 s each).
extension BoardStore {
    func create(_ board: Board, epoch: String = "e1") throws {
        try wait { createBoard(board, epoch: epoch, $0) }.get()
    }

    func createResult(_ board: Board, epoch: String = "e1") -> Result<Void, StoreError> {
        wait { createBoard(board, epoch: epoch, $0) }
    }

    func deleteResult(_ id: String) -> Result<Void, StoreError> {
        wait { deleteBoard(id, $0) }
    }

    func list() -> Result<[BoardSummary], StoreError> {
        wait { listBoards($0) }
    }

    func load(_ id: String, historyLimit: Int = 1_000_000) -> Result<StoredBoard?, StoreError> {
        wait { loadBoard(id, historyLimit: historyLimit, $0) }
    }

    func appendResult(_ batch: CommitBatch) -> Result<Void, StoreError> {
        wait { append(batch, $0) }
    }

    func eventsResult(_ id: String, after seq: Int, limit: Int = 1_000) -> Result<[CommittedEvent], StoreError> {
        wait { events(board: id, after: seq, limit: limit, $0) }
    }

    /// Appends `events` one batch each, every one answered.
    func appendOneByOne(_ board: String, _ events: [CommittedEvent], rejecting: Bool = false) throws {
        for event in events {
            let rejections = rejecting ? [Rejection(opId: "bad-\(event.seq)", code: .invalid, message: "no")] : []
            try appendResult(CommitBatch(board: board, expectedSeq: event.seq - 1, events: [event], rejections: rejections)).get()
        }
    }

    /// The board as loaded once the store's folding has settled (a store may fold after it
    /// answered the append, as PostgreSQL does): when `settled` holds, or after 10 s.
    func loadWhenFolded(_ id: String, historyLimit: Int = 1_000_000, _ settled: (StoredBoard) -> Bool) throws -> StoredBoard? {
        var loaded = try load(id, historyLimit: historyLimit).get()
        _ = try eventually(timeout: 10) {
            loaded = try load(id, historyLimit: historyLimit).get()
            return loaded.map(settled) ?? true
        }
        return loaded
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }

    /// True for `.failure(.unavailable)`.
    var isUnavailable: Bool {
        if case .failure(let error) = self, case .unavailable? = error as? StoreError { true } else { false }
    }
}
