import CorkboardModel
import CorkboardStore
import Foundation

/// An append waiting for its round: the batch, its `corkboard_append_or_catch_up` call, and
/// who to answer.
struct PendingAppend: Sendable {
    let batch: CommitBatch
    let statement: PostgresStatement
    let completion: @Sendable (Result<Void, StoreError>) -> Void
}

/// Appends, committed across boards in rounds (`AppendRounds`): every board's batch waiting
/// when a round goes is one statement of it, and the round is one transaction, so one WAL
/// flush makes all of them durable. Each statement keeps its board's own seq check: a board
/// whose seq moved gets its conflict (a row, not an error) and the others commit beside it.
extension PostgresStore {
    /// 256 boards per transaction: past a few dozen the flush is shared well enough, and a
    /// round's row locks, which other nodes' appends to its boards wait for, are held for
    /// one statement per board.
    static let appendsPerRound = 256

    public func append(_ batch: CommitBatch, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        if let problem = batch.seqOrderProblem { return completion(.failure(.unavailable(problem))) }
        let statement: PostgresStatement
        do {
            statement = try AppendCall(batch, keepAnswers: folding.retention.bound).statement
        } catch {
            return completion(.failure(.unavailable("the batch does not encode: \(error)")))
        }
        let pending = PendingAppend(batch: batch, statement: statement, completion: completion)
        writer.queue.async { [self] in
            if let round = appendRounds.add(pending) { send(round: round) }
        }
    }

    /// Sends one round as one group (one transaction). On the writer's queue.
    ///
    /// The statements go in board order: a round locks each board's row as it appends, so
    /// two nodes' rounds over the same boards take the locks in one order and never deadlock.
    /// When the server refuses one statement for its data, PostgreSQL skips the rest and rolls
    /// the group back: that append alone is answered with the error, and the others go again
    /// first in the next round, so one board's failure never fails another's. An error that
    /// is not the statement's own (read-only, disk full, cancelled) would refuse every one of
    /// them: it fails the whole round at once rather than one append per round.
    private func send(round: [PendingAppend]) {
        dispatchPrecondition(condition: .onQueue(writer.queue))
        let ordered = round.enumerated().sorted { ($0.element.batch.board, $0.offset) < ($1.element.batch.board, $1.offset) }
            .map(\.element)
        guard !isClosed.load(ordering: .relaxed) else {
            return answered(ordered, with: .failure(.connection("the store is closed")))
        }
        writer.executeGroupOnQueue(ordered.map(\.statement)) { [self] result in answered(ordered, with: result) }
    }

    private func answered(_ round: [PendingAppend], with result: Result<[PostgresRows], PostgresConnection.GroupFailure>) {
        var again: [PendingAppend] = []
        switch result {
        case .success(let groups):
            for (pending, rows) in zip(round, groups) { answer(pending, rows) }
            // One result per statement; an append without one must still be answered.
            for pending in round.dropFirst(groups.count) {
                pending.completion(.failure(.unavailable("PostgreSQL gave no result for the append")))
            }
        case .failure(let failure):
            if let refused = failure.statement, round.indices.contains(refused), Self.isTheStatementsOwn(failure.error) {
                round[refused].completion(.failure(.unavailable("\(failure.error)")))
                again = Array(round[..<refused] + round[(refused + 1)...])
            } else {
                for pending in round { pending.completion(.failure(.unavailable("\(failure.error)"))) }
            }
        }
        if let next = appendRounds.answered(again: again) { send(round: next) }
    }

    /// Errors about a statement's data (SQLSTATE classes 22, data exception, and 23, integrity
    /// constraint violation): another statement of the round would not meet them.
    private static func isTheStatementsOwn(_ error: PostgresError) -> Bool {
        guard case .server(let state, _) = error else { return false }
        return state.hasPrefix("22") || state.hasPrefix("23")
    }

    /// Answers one append of a committed round from its row. On the writer's queue.
    private func answer(_ pending: PendingAppend, _ rows: PostgresRows) {
        let batch = pending.batch
        guard rows.count == 1 else { return pending.completion(.failure(.notFound)) }
        do {
            let seq = try rows.int(0, "current_seq")
            guard try rows.bool(0, "appended") else {
                // The events that won come with the answer: the room's catch-up, which
                // asks for exactly these next, needs no round trip of its own.
                if let missing = rows.text(0, "missing"), let events = try? AppendCall.events(fromJSON: missing), !events.isEmpty {
                    caughtUp[batch.board] = (after: batch.expectedSeq, events: events)
                }
                return pending.completion(.failure(.conflict(currentSeq: seq)))
            }
            // What an earlier conflict stashed is older than this append.
            caughtUp[batch.board] = nil
            // Committed: answered so whatever the rest of the row says (an unreadable
            // snapshot seq only skips the fold check).
            pending.completion(.success(()))
            if let snapshotSeq = try? rows.int(0, "current_snapshot_seq") {
                foldIfDue(batch.board, appended: batch.events, seq: seq, snapshotSeq: snapshotSeq)
            }
        } catch {
            pending.completion(.failure(.unavailable("\(error)")))
        }
    }
}
