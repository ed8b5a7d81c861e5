import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation
import Synchronization
import TestSupport
import Testing

/// A memory store whose appends fail while `failing` is set: a full or read-only disk.
final class FlakyStore: BoardStore {
    let inner = MemoryStore()
    let failing = Atomic<Bool>(false)

    func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], StoreError>) -> Void) {
        inner.listBoards(completion)
    }

    func createBoard(_ board: Board, epoch: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        inner.createBoard(board, epoch: epoch, completion)
    }

    func deleteBoard(_ id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        inner.deleteBoard(id, completion)
    }
    func importBoard(
        _ archive: BoardArchive, replacing: Bool, _ completion: @escaping @Sendable (Result<ImportedBoard, StoreError>) -> Void
    ) {
        inner.importBoard(archive, replacing: replacing, completion)
    }

    func loadBoard(_ id: String, historyLimit: Int, _ completion: @escaping @Sendable (Result<StoredBoard?, StoreError>) -> Void) {
        inner.loadBoard(id, historyLimit: historyLimit, completion)
    }

    func close() { inner.close() }

    func append(_ batch: CommitBatch, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        if failing.load(ordering: .relaxed) { return completion(.failure(.unavailable("disk full"))) }
        inner.append(batch, completion)
    }

    func events(board id: String, after seq: Int, limit: Int, _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void) {
        inner.events(board: id, after: seq, limit: limit, completion)
    }
}

/// `unavailable` (docs/protocol.md#durability-and-ordering): the store could not make an
/// operation durable, so nothing changed, nobody heard of it, and the same opId may be sent
/// again.
@Suite(.threadsOfTheirOwn) struct StoreFailureTests {
    @Test func unavailableChangesNothingAndTheOpIdMayBeRetried() throws {
        let store = FlakyStore()
        let server = try TestServer(store: store) { $0.createsDemoBoard = false }
        let api = BoardAPI(port: server.port)
        _ = try api.createBoard(HubFixture.standardBoard)
        let ada = try BoardTestClient(port: server.port, board: "board", name: "Ada")
        let bob = try BoardTestClient(port: server.port, board: "board", name: "Bob")
        _ = try ada.waitFor(type: "peer.joined")

        store.failing.store(true, ordering: .relaxed)
        let move = ada.request(.move(sources: ["i1"], destination: Destination(collection: "done")), baseSeq: 0)
        guard case .rejected(let rejected) = try ada.perform(move) else {
            Issue.record("expected rejected")
            return
        }
        #expect(rejected.code == .unavailable)
        #expect(rejected.opId == move.opId)

        let overHTTP = try api.perform("board", bob.request(.delete(items: ["i2"]), baseSeq: 0))
        #expect(overHTTP.status == 503)
        guard case .rejected(let httpRejected) = try overHTTP.message() else {
            Issue.record("expected rejected")
            return
        }
        #expect(httpRejected.code == .unavailable)

        // Nothing changed: the board is at seq 0, and Bob heard of nothing.
        #expect(try api.document("board").seq == 0)
        #expect(try bob.syncCommitted().isEmpty)

        // Transient: once the store is back, the same opId is resolved anew and commits.
        store.failing.store(false, ordering: .relaxed)
        guard case .committed(let event) = try ada.perform(move) else {
            Issue.record("expected committed")
            return
        }
        #expect(event.seq == 1)
        try bob.waitUntilSeq(1)
        #expect(bob.board == ada.board)
        #expect(try api.document("board").board == ada.board)
    }
}
