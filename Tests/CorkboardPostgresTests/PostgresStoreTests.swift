@testable import CorkboardPostgres
import CorkboardModel
import CorkboardStore
import Foundation
import Synchronization
import Testing
import TestSupport

/// The PostgreSQL store against a real server: what each call writes and reads back, the
/// seq check two nodes rely on, the wake-ups they hear, and the log kept bounded.
@Suite(.threadsOfTheirOwn) struct PostgresStoreTests {
    @Test func createListAndLoadRoundTrip() throws {
        let store = try TestDatabase.open(try TestDatabase.fresh())
        defer { store.close() }
        try store.create(TestDatabase.board("b"), epoch: "e1")
        try store.create(TestDatabase.board("a"), epoch: "e2")
        #expect(wait { store.createBoard(TestDatabase.board("a"), epoch: "e3", $0) }.failure == .alreadyExists)
        let boards = try wait { store.listBoards($0) }.get()
        #expect(boards.map(\.id) == ["a", "b"])
        #expect(boards.map(\.seq) == [0, 0])
        let stored = try #require(try store.load("b"))
        #expect(stored.snapshot == TestDatabase.board("b"))
        #expect(stored.epoch == "e1")
        #expect(stored.seq == 0)
        #expect(try store.load("nope") == nil)
    }

    @Test func appendExtendsOnlyTheSeqItNames() throws {
        let store = try TestDatabase.open(try TestDatabase.fresh())
        defer { store.close() }
        try store.create(TestDatabase.board())
        #expect(throws: Never.self) { try store.appendWaiting(CommitBatch(board: "b", expectedSeq: 0, events: [TestDatabase.event(1), TestDatabase.event(2)])).get() }
        // Another node resolved against seq 1: the board is at 2.
        #expect(store.appendWaiting(CommitBatch(board: "b", expectedSeq: 1, events: [TestDatabase.event(2)])).failure == .conflict(currentSeq: 2))
        #expect(store.appendWaiting(CommitBatch(board: "nope", expectedSeq: 0, events: [TestDatabase.event(1)])).failure == .notFound)
        // Nothing of the refused batches was written.
        let events = try store.eventsWaiting("b", after: 0).get()
        #expect(events == [TestDatabase.event(1), TestDatabase.event(2)])
        #expect(try store.eventsWaiting("b", after: 1, limit: 5).get() == [TestDatabase.event(2)])
        #expect(store.eventsWaiting("nope", after: 0).failure == .notFound)
        let stored = try #require(try store.load("b"))
        #expect(try TestDatabase.rebuild(stored) == (try TestDatabase.expected(after: 2)))
        #expect(stored.events == events)
        #expect(try wait { store.listBoards($0) }.get().first?.seq == 2)
    }

    @Test func twoStoresOnOneDatabaseNeverCommitTheSameSeq() throws {
        let (first, second) = try TestDatabase.twoStoresWithABoard()
        defer { first.close(); second.close() }
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
        defer { winner.close(); loser.close() }
        try winner.appendWaiting(CommitBatch(board: "b", expectedSeq: 0, events: [TestDatabase.event(1), TestDatabase.event(2)])).get()
        #expect(loser.appendWaiting(CommitBatch(board: "b", expectedSeq: 0, events: [TestDatabase.event(1, client: "x")])).failure
            == .conflict(currentSeq: 2))
        // Kept from the conflict's answer, and handed over by the next read after seq 0 only.
        let kept = loser.writer.queue.sync { loser.caughtUp["b"] }
        #expect(kept?.after == 0 && kept?.events == [TestDatabase.event(1), TestDatabase.event(2)])
        #expect(try loser.eventsWaiting("b", after: 0).get() == [TestDatabase.event(1), TestDatabase.event(2)])
        #expect(loser.writer.queue.sync { loser.caughtUp["b"] } == nil)
        // A read after another seq goes to the database as usual.
        try winner.appendWaiting(CommitBatch(board: "b", expectedSeq: 2, events: [TestDatabase.event(3)])).get()
        #expect(loser.appendWaiting(CommitBatch(board: "b", expectedSeq: 2, events: [TestDatabase.event(3, client: "x")])).failure
            == .conflict(currentSeq: 3))
        #expect(try loser.eventsWaiting("b", after: 1).get() == [TestDatabase.event(2), TestDatabase.event(3)])
    }

    /// A conflict's events are kept for the catch-up that follows it, but never served stale:
    /// not once the store has appended after them, nor once it has heard of a later commit.
    @Test func aConflictsStashIsNeverServedStale() throws {
        let (first, second) = try TestDatabase.twoStoresWithABoard()
        defer { first.close(); second.close() }
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
        defer { writer.close(); reader.close() }
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

    @Test func rememberedAnswersComeBackWithTheBoard() throws {
        let store = try TestDatabase.open(try TestDatabase.fresh())
        defer { store.close() }
        try store.create(TestDatabase.board())
        let gone = Rejection(opId: "r1", code: .gone, message: "no such item")
        try store.appendWaiting(CommitBatch(
            board: "b", expectedSeq: 0, events: [TestDatabase.event(1)], rejections: [gone], noops: [Noop(opId: "n1", seq: 0)])).get()
        // The same opId answered again later replaces its first row.
        let invalid = Rejection(opId: "r1", code: .invalid, message: "again")
        try store.appendWaiting(CommitBatch(board: "b", expectedSeq: 1, events: [], rejections: [invalid])).get()
        let stored = try #require(try store.load("b"))
        #expect(stored.rejections == [invalid])
        #expect(stored.noops == [Noop(opId: "n1", seq: 0)])
    }

    @Test func theLogIsFoldedIntoTheSnapshotAndStaysBounded() throws {
        let url = try TestDatabase.fresh()
        let store = try TestDatabase.open(url, retainedEvents: 4)
        defer { store.close() }
        try store.create(TestDatabase.board())
        for seq in 1...40 {
            try store.appendWaiting(CommitBatch(board: "b", expectedSeq: seq - 1, events: [TestDatabase.event(seq)])).get()
        }
        // Folding runs after the append that passed the bound: wait for the last one.
        #expect(eventually(timeout: 10) {
            store.foldingIsIdle && ((try? store.load("b"))??.events.count ?? .max) <= 8
        })
        let stored = try #require(try store.load("b", historyLimit: 1_000))
        #expect(stored.seq == 40)
        #expect(stored.events.count <= 8, "the log holds \(stored.events.count) events")
        #expect(stored.events.count >= 4)
        #expect(try TestDatabase.rebuild(stored) == (try TestDatabase.expected(after: 40)))
        #expect(store.eventsWaiting("b", after: 0).failure == .pruned(logStartsAfter: 40 - stored.events.count))
        // A smaller history limit folds more into the returned snapshot, on a copy only.
        let short = try #require(try store.load("b", historyLimit: 2))
        #expect(short.events.map(\.seq) == [39, 40])
        #expect(try TestDatabase.rebuild(short) == (try TestDatabase.expected(after: 40)))
    }

    /// Events of about 20 KB: the log is folded by its bytes long before its count.
    @Test func aLogOfBigEventsIsFoldedByItsBytes() throws {
        let budget = 100_000
        let store = try TestDatabase.open(try TestDatabase.fresh(), retainedEvents: 1_000, historyByteBudget: budget)
        defer { store.close() }
        try store.create(TestDatabase.board())
        let blob: JSONObject = ["blob": .string(String(repeating: "z", count: 20_000))]
        var expected = TestDatabase.board()
        for seq in 1...40 {
            let event = CommittedEvent(
                seq: seq, opId: "u-\(seq)", client: "c1", op: .updateItem(item: "i1", label: "L\(seq)", data: .replace(blob)),
                adjusted: false)
            try store.appendWaiting(CommitBatch(board: "b", expectedSeq: seq - 1, events: [event])).get()
            try expected.apply(event.op)
        }
        // Measured after each eighth of the budget appended, folded in the background: about
        // five events fit the budget, one slack more may wait for the next measure.
        #expect(eventually(timeout: 10) {
            store.foldingIsIdle && ((try? store.load("b"))??.events.count ?? .max) <= 7
        })
        let stored = try #require(try store.load("b", historyLimit: 1_000))
        #expect(stored.seq == 40 && !stored.events.isEmpty)
        #expect(try TestDatabase.rebuild(stored) == expected)
        // Every commit's opId is still known, the folded ones by their seq alone.
        #expect(stored.foldedCommits.map(\.seq) + stored.events.map(\.seq) == Array(1...40))
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
            try PostgresStore.open(PostgresStore.Configuration(
                url: "postgres://corkboard@127.0.0.1:1/none", connectTimeout: 1, startupTimeout: 2))
        } throws: { error in
            "\(error)".contains("cannot reach PostgreSQL")
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
