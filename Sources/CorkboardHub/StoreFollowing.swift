/// How a room keeps up with other nodes' commits to a shared store (docs/architecture.md,
/// "Several nodes"), as a state machine that takes events and returns what to do: no store, no queue,
/// no time, so every path is tested directly (`StoreFollowingTests`). `BoardRoom+Following`
/// does what it says: reads the store, applies the events, runs the work that waited.
///
/// The rules it keeps: the room reads only between its own batches (nothing of its own on its
/// way, `writing` false), so followed events and its own form one gapless sequence; one read
/// at a time, page after page until a short one; a short page settles every announcement made
/// before the read began (the store held nothing more), while one made during the read makes
/// the room read again; a read that failed settles nothing, and the next wake-up, reconnect
/// or conflict reads again (never a retry from here, which would spin while the store is down).
///
/// `Work` is what waits for a read to finish (closures in the room, plain values in tests).
///
/// A class, held by its `BoardRoom` with `let` and, like all of the room's state, used only
/// on the room's queue (or by one test): its state is private, changed only through its methods.
final class StoreFollowing<Work> {
    /// What the room does next.
    enum Action: Equatable {
        /// Nothing now.
        case none
        /// Read one page of the store's events after `seq`, then tell `pageRead` or `readFailed`.
        case read(after: Int)
    }

    /// What to do with work that waits for the room to reach a seq.
    enum Admission {
        /// The room is there already: run it now.
        case runNow(Work)
        /// It runs when the read finishes (`finishReading`); the room does `action` meanwhile.
        case waits(Action)
    }

    /// The highest seq other nodes are known to have made durable (or, after the store
    /// reconnected, may have: one past the room's).
    private(set) var announcedSeq = 0
    /// Whether a read of the store is on its way (operations arriving meanwhile are held).
    private(set) var isReading = false
    /// `announcedSeq` when the page on its way was asked for: the page holds at least that.
    private var announcedAtRead = 0
    /// Work that runs first when the read finishes (operations a conflict undid), then the
    /// work that waited for the room to reach a seq.
    private var first: [Work] = []
    private var waiting: [Work] = []

    // MARK: Events

    /// The board was loaded (or reloaded) from the store at `seq`.
    func loaded(seq: Int) {
        announcedSeq = max(announcedSeq, seq)
    }

    /// Another node made the board durable up to `seq`.
    func announced(_ seq: Int, durableSeq: Int, writing: Bool) -> Action {
        announcedSeq = max(announcedSeq, seq)
        guard announcedSeq > durableSeq, !writing else { return .none }
        return startReading(after: durableSeq)
    }

    /// The store reconnected: wake-ups may have been lost, so the room reads whatever is there.
    func storeReconnected(durableSeq: Int, writing: Bool) -> Action {
        announcedSeq = max(announcedSeq, durableSeq + 1)
        return writing ? .none : startReading(after: durableSeq)
    }

    /// `work` is to run once the room has read the store up to `seq` (a resume from a seq
    /// this node has not seen, a drag of another node, a read through the API).
    func admit(_ work: Work, reaching seq: Int, durableSeq: Int, writing: Bool) -> Admission {
        guard seq > durableSeq else { return .runNow(work) }
        waiting.append(work)
        announcedSeq = max(announcedSeq, seq)
        return .waits(writing ? .none : startReading(after: durableSeq))
    }

    /// A batch of the room's own conflicted: another node had reached `seq`. The room reads
    /// now, and `redo` (what the conflict undid) runs first when the read finishes; nil when a
    /// read is on its way already, and the room must hold `redo` before everything else.
    func conflicted(at seq: Int, durableSeq: Int, redo: [Work]) -> Action? {
        announcedSeq = max(announcedSeq, seq)
        guard !isReading else { return nil }
        first = redo
        return startReading(after: durableSeq)
    }

    /// The room's own batch finished and nothing of its own is on its way: it reads if others
    /// got ahead, or someone waits for a read.
    func ownBatchFinished(durableSeq: Int, writing: Bool) -> Action {
        guard announcedSeq > durableSeq || !waiting.isEmpty, !writing else { return .none }
        return startReading(after: durableSeq)
    }

    /// A page of `count` events (of at most `pageSize`) was applied; the room is at
    /// `durableSeq`. `.read` when the page was full; `.none` when the read is done (the room
    /// then calls `finishReading`).
    func pageRead(count: Int, pageSize: Int, durableSeq: Int) -> Action {
        precondition(isReading, "a page is read only while reading")
        if count >= pageSize {
            announcedAtRead = announcedSeq
            return .read(after: durableSeq)
        }
        // The store holds nothing past what was read: what was announced before is settled.
        if announcedSeq <= announcedAtRead { announcedSeq = durableSeq }
        return .none
    }

    /// The board was loaded afresh (the log no longer reached back to the room): everything
    /// announced so far is in it. The room then calls `finishReading`.
    func reloaded(seq: Int) {
        precondition(isReading, "a reload happens only while reading")
        announcedSeq = seq
    }

    /// The read is over (done, failed, or reloaded): what waited, in the order it runs.
    func finishReading() -> [Work] {
        isReading = false
        defer {
            first = []
            waiting = []
        }
        return first + waiting
    }

    /// After a read that got everything, and what waited ran: another read if others
    /// announced more meanwhile.
    func readAgainIfBehind(durableSeq: Int, writing: Bool) -> Action {
        guard announcedSeq > durableSeq, !writing else { return .none }
        return startReading(after: durableSeq)
    }

    private func startReading(after durableSeq: Int) -> Action {
        guard !isReading else { return .none }
        isReading = true
        announcedAtRead = announcedSeq
        return .read(after: durableSeq)
    }
}
