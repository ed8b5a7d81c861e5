import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation
import Synchronization
import TestSupport
import Testing

/// A memory store whose appends wait for `release` once `holding` is set: a commit caught on
/// its way to disk while the board is deleted under it.
final class HeldAppendStore: BoardStore {
    let inner = MemoryStore()
    let holding = Atomic<Bool>(false)
    /// Signalled when an append is being held; `release` lets it through.
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], StoreError>) -> Void) { inner.listBoards(completion) }
    func createBoard(_ board: Board, epoch: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        inner.createBoard(board, epoch: epoch, completion)
    }
    func deleteBoard(_ id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) { inner.deleteBoard(id, completion) }
    func importBoard(
        _ archive: BoardArchive, replacing: Bool, _ completion: @escaping @Sendable (Result<ImportedBoard, StoreError>) -> Void
    ) {
        inner.importBoard(archive, replacing: replacing, completion)
    }
    func loadBoard(_ id: String, historyLimit: Int, _ completion: @escaping @Sendable (Result<StoredBoard?, StoreError>) -> Void) {
        inner.loadBoard(id, historyLimit: historyLimit, completion)
    }
    func close() { inner.close() }
    func events(board id: String, after seq: Int, limit: Int, _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void) {
        inner.events(board: id, after: seq, limit: limit, completion)
    }

    func append(_ batch: CommitBatch, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        guard holding.load(ordering: .relaxed) else { return inner.append(batch, completion) }
        DispatchQueue.global().async {
            self.held.signal()
            _ = self.release.wait(timeout: .now() + 10)
            self.inner.append(batch, completion)
        }
    }
}

/// An operation (over HTTP or the WebSocket) racing a `DELETE` of its board: the caller is
/// told the board is not there (404), never `unavailable` (503, which asks for a retry of
/// something that can never succeed), and members are sent away as from a deleted board.
@Suite(.threadsOfTheirOwn) struct HostileDeleteRaceTests {
    @Test func anOperationCaughtByTheDeleteOfItsBoardIs404() async throws {
        try await offPool {
            let store = HeldAppendStore()
            let server = try TestServer(store: store) { $0.createsDemoBoard = false }
            let api = BoardAPI(port: server.port)
            _ = try api.createBoard(HubFixture.standardBoard)
            let member = try BoardTestClient(port: server.port, board: "board", name: "Ada")

            store.holding.store(true, ordering: .relaxed)
            let request = member.request(.move(sources: ["i1"], destination: Destination(collection: "done")), baseSeq: 0)
            let answer = Background { try api.perform("board", request) }
            #expect(store.held.wait(timeout: .now() + 10) == .success, "the operation reached the store")
            // The member's operation waits behind it, resolved but not yet written.
            let memberMove = try member.send(.move(sources: ["i2"], destination: Destination(collection: "done")), baseSeq: 0)
            #expect(try api.delete("/api/boards/board").status == 204)
            store.release.signal()

            let response = try answer.wait()
            #expect(response.status == 404, "\(response.status) \(response.text)")
            // The member hears that the board is gone and is closed; its operation was never
            // committed, nor answered `unavailable` (which a client retries).
            let gone = try member.waitFor(type: "error").errorMessage
            #expect(gone?.code == .gone)
            let answers = member.log.filter { $0.opId == memberMove }
            #expect(answers.allSatisfy { $0.rejection?.code == .gone }, "\(answers)")
            #expect(try api.get("/api/boards/board").status == 404)
        }
    }
}
