import CorkboardModel
import CorkboardStore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import CorkboardPostgres

/// The PostgreSQL store against a real server, as several nodes share it: the seq check two
/// nodes rely on, a conflict's catch-up, the wake-ups they hear, migrations. (The `BoardStore`
/// calls themselves are checked by the contract suite, Tests/CorkboardStoreTests.)
@Suite(.threadsOfTheirOwn) struct PostgresStoreTests {
    @Test func twoStoresOnOneDatabaseNeverCommitTheSameSeq() throws {
        let (first, second) = try TestDatabase.twoStoresWithABoard()
        defer {
            first.close()
            second.close()
        }
        // Both race to extend seq 0, many times: exactly one wins each round.
        for round in 0..<20 {
            let a = CommitBatch(board: "b", expectedSeq: round, events: [TestDatabase.event(round + 1, client: "a")])
            let b = CommitBatch(board: "b", expectedSeq: round, events: [TestDatabase.event(round + 1, client: "b")])
            let results = Mutex<[Result<Void, StoreError>]>([])
            let done = DispatchGroup()
            for (store, batch) in [(first, a), (second, b)] {
                done.enter()
                store.append(batch) { result in
                    results.withLock { $0.append(result) }
                    done.leave()
                }
            }
            #expect(done.wait(timeout: .now() + 10) == .success)
            let outcomes = results.withLock { $0 }
            #expect(outcomes.filter { (try? $0.get()) != nil }.count == 1, "round \(round): \(outcomes)")
            #expect(outcomes.contains { $0.failure == .conflict(currentSeq: round + 1) })
        }
        let events = try second.eventsWaiting("b", after: 0).get()
        #expect(events.map(\.seq) == Array(1...20))
    }

    @Test func aConflictBringsTheWinningEventsForTheCatchUp() throws {
        let (winner, loser) = try TestDatabase.twoStoresWithABoard()
        defer {
            winner.close()
            loser.close()
        }
        try winner.appendWaiting(CommitBatch(board: "b", expectedSeq: 0, events: [TestDatabase.event(1), TestDatabase.event(2)])).get()
        #expect(
            loser.appendWaiting(CommitBatch(board: "b", expectedSeq: 0, events: [TestDatabase.event(1, client: "x")])).failure
                == .conflict(currentSeq: 2))
        // Kept from the conflict's answer, and handed over by the next read after seq 0 only.
        let kept = loser.writer.queue.sync { loser.caughtUp["b"] }
        #expect(kept?.after == 0 && kept?.events == [TestDatabase.event(1), TestDatabase.event(2)])
        #expect(try loser.eventsWaiting("b", after: 0).get() == [TestDatabase.event(1), TestDatabase.event(2)])
        #expect(loser.writer.queue.sync { loser.caughtUp["b"] } == nil)
        // A read after another seq goes to the database as usual.
        try winner.appendWaiting(CommitBatch(board: "b", expectedSeq: 2, events: [TestDatabase.event(3)])).get()
        #expect(
            loser.appendWaiting(CommitBatch(board: "b", expectedSeq: 2, events: [TestDatabase.event(3, client: "x")])).failure
                == .conflict(currentSeq: 3))
        #expect(try loser.eventsWaiting("b", after: 1).get() == [TestDatabase.event(2), TestDatabase.event(3)])
    }

    /// A conflict's events are kept for the catch-up that follows it, but never served stale:
    /// not once the store has appended after them, nor once it has heard of a later commit.
    @Test func aConflictsStashIsNeverServedStale() throws {
        let (first, second) = try TestDatabase.twoStoresWithABoard()
        defer {
            first.close()
            second.close()
        }
        let heard = try #require(first.observeListening())

        // Its own append after the conflict.
        try second.appendWaiting(CommitBatch(board: "b", expectedSeq: 0, events: [TestDatabase.event(1, client: "b")])).get()
        #expect(first.appendWaiting(CommitBatch(board: "b", expectedSeq: 0, events: [TestDatabase.event(1)])).failure == .conflict(currentSeq: 1))
        try first.appendWaiting(CommitBatch(board: "b", expectedSeq: 1, events: [TestDatabase.event(2)])).get()
        #expect(try first.eventsWaiting("b", after: 0).get().map(\.seq) == [1, 2])

        // Another node's commit after the conflict, heard before the read.
        #expect(first.appendWaiting(CommitBatch(board: "b", expectedSeq: 1, events: [TestDatabase.event(2)])).failure == .conflict(currentSeq: 2))
        try second.appendWaiting(CommitBatch(board: "b", expectedSeq: 2, events: [TestDatabase.event(3, client: "b")])).get()
        #expect(eventually(timeout: 10) { heard.contains(.committed(board: "b", seq: 3)) })
        #expect(try first.eventsWaiting("b", after: 1).get().map(\.seq) == [2, 3])

        // And the stash itself, right after a conflict, holds what won.
        #expect(first.appendWaiting(CommitBatch(board: "b", expectedSeq: 2, events: [TestDatabase.event(3)])).failure == .conflict(currentSeq: 3))
        #expect(try first.eventsWaiting("b", after: 2).get().map(\.client) == ["b"])
    }

    @Test func anotherStoreHearsEachCommitAsAWakeUp() throws {
        let url = try TestDatabase.fresh()
        let writer = try TestDatabase.open(url)
        let reader = try TestDatabase.open(url)
        defer {
            writer.close()
            reader.close()
        }
        let heard = try #require(reader.observeListening())
        try writer.create(TestDatabase.board())
        try writer.appendWaiting(CommitBatch(board: "b", expectedSeq: 0, events: [TestDatabase.event(1)])).get()
        try writer.appendWaiting(CommitBatch(board: "b", expectedSeq: 1, events: [TestDatabase.event(2), TestDatabase.event(3)])).get()
        // A batch of answers only wakes nobody: there is no new seq.
        try writer.appendWaiting(CommitBatch(board: "b", expectedSeq: 3, events: [], noops: [Noop(opId: "n1", seq: 3)])).get()
        #expect(eventually(timeout: 10) { heard.commits.count == 2 })
        #expect(heard.commits == [.committed(board: "b", seq: 1), .committed(board: "b", seq: 3)])
        // Presence goes to every store, the sender's included.
        writer.publish(presence: "hello from one node")
        #expect(eventually(timeout: 10) { heard.contains(.presence("hello from one node")) })
    }

    /// Only the writer's connection is lost (its backend terminated; the listener stays). Once
    /// the writer is back the store says `.resynchronize`: a room whose catch-up failed while
    /// the writer was away retries only then, and the listener has nothing to say.
    @Test func aReconnectedWriterAsksRoomsToCatchUp() throws {
        let url = try TestDatabase.fresh()
        let store = try TestDatabase.open(url)
        defer { store.close() }
        let heard = try #require(store.observeListening())
        let database = String(url[url.index(after: try #require(url.lastIndex(of: "/")))...])
        let terminated = try PostgresCluster.shared().psql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'corkboard'")
        #expect(terminated.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(eventually(timeout: 10) { heard.contains(.resynchronize) })
        // The writer works again.
        try store.create(TestDatabase.board())
        #expect(try store.load("b") != nil)
    }

    @Test func migrationsRunOnceWhenNodesStartTogether() throws {
        let url = try TestDatabase.fresh()
        let stores = Mutex<[PostgresStore]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            do {
                let store = try TestDatabase.open(url)
                stores.withLock { $0.append(store) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        defer { for store in stores.withLock({ $0 }) { store.close() } }
        #expect(failures.withLock { $0 }.isEmpty)
        let store = try #require(stores.withLock { $0.first })
        let rows = try wait { store.run([PostgresStatement("SELECT version, name FROM corkboard_migration ORDER BY version")], $0) }.get()
        #expect(rows[0].count == PostgresSchema.migrations.count)
    }

    @Test func anUnreachableDatabaseIsAClearErrorAtOpen() throws {
        let started = Date()
        #expect {
            try PostgresStore.open(
                PostgresStore.Configuration(
                    url: "postgres://corkboard@127.0.0.1:1/none", connectTimeout: 1, startupTimeout: 2))
        } throws: { error in
            "\(error)".contains("cannot reach PostgreSQL")
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
