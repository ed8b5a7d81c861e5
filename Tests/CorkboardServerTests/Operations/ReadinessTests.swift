import CorkboardModel
import CorkboardServer
import CorkboardStore
import Foundation
import Synchronization
import TestSupport
import Testing

/// A memory store that can be taken down: its listing fails (a database that refuses) or
/// never answers (a connection lost without a word).
final class OutageStore: BoardStore {
    enum State: UInt8, AtomicRepresentable { case up, failing, silent }
    let inner = MemoryStore()
    let state = Atomic<State>(.up)

    func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], StoreError>) -> Void) {
        switch state.load(ordering: .relaxed) {
        case .up: inner.listBoards(completion)
        case .failing: completion(.failure(.unavailable("connection refused")))
        case .silent: break
        }
    }

    func createBoard(_ board: Board, epoch: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        inner.createBoard(board, epoch: epoch, completion)
    }

    func loadBoard(_ id: String, historyLimit: Int, _ completion: @escaping @Sendable (Result<StoredBoard?, StoreError>) -> Void) {
        inner.loadBoard(id, historyLimit: historyLimit, completion)
    }

    func deleteBoard(_ id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        inner.deleteBoard(id, completion)
    }
    func importBoard(
        _ archive: BoardArchive, replacing: Bool, _ completion: @escaping @Sendable (Result<ImportedBoard, StoreError>) -> Void
    ) {
        inner.importBoard(archive, replacing: replacing, completion)
    }

    func close() { inner.close() }

    func append(_ batch: CommitBatch, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        inner.append(batch, completion)
    }

    func events(board id: String, after seq: Int, limit: Int, _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void) {
        inner.events(board: id, after: seq, limit: limit, completion)
    }
}

/// `/readyz` says whether the store answers; `/healthz` stays a liveness check that does not.
@Suite(.threadsOfTheirOwn) struct ReadinessTests {
    @Test func readyWhileTheStoreAnswers() throws {
        let server = try TestServer(store: OutageStore()) { $0.createsDemoBoard = false }
        let response = try server.get("/readyz")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.text == #"{"status":"ready"}"#)
    }

    @Test func notReadyWhenTheStoreFailsButStillAlive() throws {
        let store = OutageStore()
        let server = try TestServer(store: store) { $0.createsDemoBoard = false }
        store.state.store(.failing, ordering: .relaxed)
        let response = try server.get("/readyz")
        #expect(response.status == 503)
        let body = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: String]
        #expect(body?["status"] == "unavailable")
        #expect(body?["reason"]?.contains("connection refused") == true)
        #expect(try server.get("/healthz").status == 200)
        // Back up: ready again, nothing to restart.
        store.state.store(.up, ordering: .relaxed)
        #expect(try server.get("/readyz").status == 200)
    }

    @Test func notReadyWhenTheStoreDoesNotAnswer() throws {
        let store = OutageStore()
        let server = try TestServer(store: store) { $0.createsDemoBoard = false }
        store.state.store(.silent, ordering: .relaxed)
        let response = try server.get("/readyz")
        #expect(response.status == 503)
        #expect(response.text.contains("did not answer within"))
        // The scrape does not hang on the store either; it keeps the last count.
        #expect(try server.get("/metrics").status == 200)
    }
}

/// `--drain-seconds`: a graceful shutdown first serves on with `/readyz` at 503, so that a
/// load balancer takes the node out before it stops accepting.
@Suite(.threadsOfTheirOwn) struct DrainingTests {
    @Test func notReadyWhileDrainingButServing() throws {
        // Long enough that the checks below always fall inside it; the second shutdown ends it.
        let server = try TestServer { $0.drainDelay = .seconds(120) }
        let keepAlive = try BlockingClient(port: server.port)
        server.server.shutdown {}
        let response = try server.get("/readyz")
        #expect(response.status == 503)
        #expect(response.text.contains(#""reason":"draining: the server is shutting down""#))
        #expect(try server.get("/healthz").status == 200)
        try keepAlive.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try keepAlive.receiveResponse().status == 200)

        let stopped = DispatchSemaphore(value: 0)
        server.server.shutdown { stopped.signal() }
        #expect(stopped.wait(timeout: .now() + 30) == .success)
        #expect(keepAlive.isClosedByPeer())
        #expect(throws: BlockingClient.Failure.self) { try BlockingClient(port: server.port) }
    }

    @Test func drainSecondsIsReadFromItsOptionAndVariable() throws {
        var options = ServeOptions()
        options.drainSeconds = 15
        let fromOption = try ServeSettings(options: options, environment: EnvironmentSettings([:]))
        #expect(fromOption.configuration.drainDelay == .seconds(15))
        let fromVariable = try ServeSettings(options: ServeOptions(), environment: EnvironmentSettings(["CORKBOARD_DRAIN_SECONDS": "7"]))
        #expect(fromVariable.configuration.drainDelay == .seconds(7))
        options.drainSeconds = -1
        #expect(throws: ServeSettingError.belowMinimum(option: "--drain-seconds", minimum: 0)) {
            try ServeSettings(options: options, environment: EnvironmentSettings([:]))
        }
    }
}
