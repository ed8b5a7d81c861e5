import CorkboardModel
import CorkboardStore
import Dispatch
import Foundation
import Synchronization
import TestSupport

@testable import CorkboardPostgres

/// A fresh database per test, on the shared throwaway cluster.
enum TestDatabase {
    static func fresh() throws -> String {
        try PostgresCluster.shared().createDatabase()
    }

    static func open(_ url: String) throws -> PostgresStore {
        try PostgresStore.open(PostgresStore.Configuration(url: url, retainedEvents: 100, startupTimeout: 10))
    }

    /// Two stores on one fresh database, as two nodes would be, holding `board()`: the caller closes both.
    static func twoStoresWithABoard() throws -> (PostgresStore, PostgresStore) {
        let url = try fresh()
        let stores = (try open(url), try open(url))
        try stores.0.create(board())
        return stores
    }

    static func board(_ id: String = "b") -> Board { StoreLog.board(id) }

    static func event(_ seq: Int, client: String = "c1") -> CommittedEvent { StoreLog.event(seq, client: client) }
}

extension PostgresStore {
    func create(_ board: Board, epoch: String = "e1") throws {
        try wait { createBoard(board, epoch: epoch, $0) }.get()
    }

    func appendWaiting(_ batch: CommitBatch) -> Result<Void, StoreError> {
        wait { append(batch, $0) }
    }

    func load(_ id: String, historyLimit: Int = 1_000) throws -> StoredBoard? {
        try wait { loadBoard(id, historyLimit: historyLimit, $0) }.get()
    }

    func eventsWaiting(_ id: String, after seq: Int, limit: Int = 1_000) -> Result<[CommittedEvent], StoreError> {
        wait { events(board: id, after: seq, limit: limit, $0) }
    }

    /// Observes the store and waits until its listener LISTENs: its own presence notifications
    /// come back to it. (Its first `.resynchronize` may come before anyone observes, so waiting
    /// for that one is a race.) Nil when it does not listen within 10 s.
    func observeListening() -> HeardSignals? {
        let heard = HeardSignals()
        observe { heard.append($0) }
        let probe = StoreSignal.presence("probe-\(node)")
        let listening = eventually(timeout: 10) {
            publish(presence: "probe-\(node)")
            return heard.contains(probe)
        }
        // Probes still on their way come after the clearing; they are presence only.
        heard.removeAll()
        return listening ? heard : nil
    }
}

/// What a store signalled, for a test to look at.
final class HeardSignals: Sendable {
    private let signals = Mutex<[StoreSignal]>([])
    func append(_ signal: StoreSignal) { signals.withLock { $0.append(signal) } }
    func contains(_ signal: StoreSignal) -> Bool { signals.withLock { $0.contains(signal) } }
    func removeAll() { signals.withLock { $0.removeAll() } }
    var commits: [StoreSignal] { signals.withLock { $0 }.filter { if case .committed = $0 { true } else { false } } }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
