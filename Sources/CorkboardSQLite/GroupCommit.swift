import CorkboardStore
import Synchronization

/// The appends waiting for the next transaction (group commit across boards).
///
/// Each board's sequencer sends at most one append at a time, but many boards share the
/// one connection: while a transaction is being written and fsynced, the appends that
/// arrive gather here, and the next transaction takes all of them, so one fsync makes
/// every one of them durable. Only one drain is scheduled on the store's queue at a time;
/// it takes everything that waits, writes it, answers, and schedules itself again if more
/// arrived meanwhile (behind any reads queued in between, so reads are not starved).
final class GroupCommit: Sendable {
    struct Append: Sendable {
        var batch: CommitBatch
        var completion: @Sendable (Result<Void, StoreError>) -> Void
    }

    private struct State {
        var waiting: [Append] = []
        /// A drain is queued or running; it will see anything added to `waiting`.
        var drainScheduled = false
    }

    private let state = Mutex(State())

    /// Adds an append. Returns true when the caller must schedule a drain.
    func add(_ append: Append) -> Bool {
        state.withLock { state in
            state.waiting.append(append)
            guard !state.drainScheduled else { return false }
            state.drainScheduled = true
            return true
        }
    }

    /// Everything waiting, for the next transaction (the running drain calls this).
    func takeAll() -> [Append] {
        state.withLock { state in
            defer { state.waiting.removeAll(keepingCapacity: true) }
            return state.waiting
        }
    }

    /// Called by a drain when it is done: true if appends arrived meanwhile and the
    /// drain must be scheduled again; otherwise the next `add` schedules one.
    func finishDrain() -> Bool {
        state.withLock { state in
            if state.waiting.isEmpty {
                state.drainScheduled = false
                return false
            }
            return true
        }
    }
}
