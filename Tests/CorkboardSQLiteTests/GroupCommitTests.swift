import CorkboardModel
import CorkboardStore
import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import CorkboardSQLite

/// Appends of different boards that wait together go into one transaction; each batch's
/// own failure stays its own.
@Suite(.threadsOfTheirOwn) struct GroupCommitTests {
    /// Starts appends while the store's queue is held, then waits for all their answers.
    private static func appendTogether(_ store: SQLiteStore, _ batches: [CommitBatch]) -> [Result<Void, StoreError>] {
        let results = Mutex<[Int: Result<Void, StoreError>]>([:])
        let group = DispatchGroup()
        store.withQueueHeld {
            for (index, batch) in batches.enumerated() {
                group.enter()
                store.append(batch) { result in
                    results.withLock { $0[index] = result }
                    group.leave()
                }
            }
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        return results.withLock { results in batches.indices.map { results[$0]! } }
    }

    @Test func waitingAppendsShareOneTransactionAndFailAlone() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try Fixtures.open(directory)
            for id in ["a", "b", "c"] { try store.create(Fixtures.board(id)) }
            try store.appendEvents("b", after: 0, count: 2)
            let commits = store.countCommits()
            let results = Self.appendTogether(
                store,
                [
                    CommitBatch(board: "a", expectedSeq: 0, events: Fixtures.events(1...3)),
                    CommitBatch(board: "b", expectedSeq: 0, events: Fixtures.events(1...1)), // behind: b is at 2
                    CommitBatch(
                        board: "c", expectedSeq: 0, events: Fixtures.events(1...2),
                        rejections: [Rejection(opId: "r", code: .invalid, message: "no")]),
                    CommitBatch(board: "nope", expectedSeq: 0, events: Fixtures.events(1...1)),
                ])
            #expect(results[0].failure == nil)
            #expect(results[1].failure == .conflict(currentSeq: 2))
            #expect(results[2].failure == nil)
            #expect(results[3].failure == .notFound)
            #expect(commits.count == 1)
            store.close()
        }
        // What was answered durable is in the file; the refused batch left b as it was.
        let store = try Fixtures.open(directory)
        #expect(try store.list().map(\.seq) == [3, 2, 2])
        #expect(try store.load("a")?.events == Fixtures.events(1...3))
        #expect(try store.load("b")?.events == Fixtures.events(1...2))
        #expect(try store.load("c")?.rejections.map(\.opId) == ["r"])
    }

    /// Many boards appending at once from many threads: every append is answered once,
    /// in order per board, and there are fewer transactions than appends when they overlap.
    @Test func concurrentBoardsAllCommit() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory, syncMode: .full)
        let boards = (0..<8).map { "board-\($0)" }
        for id in boards { try store.create(Fixtures.board(id)) }
        let rounds = 20
        let commits = store.countCommits()
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: boards.count) { index in
            // Like a room's sequencer: one append at a time per board.
            for round in 0..<rounds {
                let batch = CommitBatch(board: boards[index], expectedSeq: round * 2, events: Fixtures.events(round * 2 + 1...round * 2 + 2))
                if case .failure = wait({ store.append(batch, $0) }) { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try store.list().allSatisfy { $0.seq == rounds * 2 })
        // At most one transaction per append, fewer where appends waited together.
        #expect(commits.count >= 1 && commits.count <= boards.count * rounds)
        for id in boards {
            #expect(try Fixtures.rebuild(#require(try store.load(id))) == Fixtures.expected(after: rounds * 2, id))
        }
    }
}
