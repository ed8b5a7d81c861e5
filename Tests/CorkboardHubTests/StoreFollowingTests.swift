import Testing

@testable import CorkboardHub

/// The room's catch-up with other nodes (`StoreFollowing`), driven directly: each event, from
/// each state, with what it asks the room to do. No store, no queue, no socket.
@Suite struct StoreFollowingTests {
    typealias Following = StoreFollowing<String>
    typealias Action = Following.Action

    /// A room at `durableSeq`, reading after an announcement of `announced`.
    static func reading(durableSeq: Int = 10, announced: Int = 12) -> Following {
        let following = Following()
        following.loaded(seq: durableSeq)
        let action = following.announced(announced, durableSeq: durableSeq, writing: false)
        #expect(action == .read(after: durableSeq))
        return following
    }

    static func work(of admission: Following.Admission) -> String? {
        if case .runNow(let work) = admission { work } else { nil }
    }

    static func action(of admission: Following.Admission) -> Action? {
        if case .waits(let action) = admission { action } else { nil }
    }

    // MARK: Announcements

    @Test func anAnnouncementAheadOfAnIdleRoomReadsAfterItsDurableSeq() {
        let following = Following()
        following.loaded(seq: 10)
        let action = following.announced(11, durableSeq: 10, writing: false)
        #expect(action == .read(after: 10))
        #expect(following.isReading)
        #expect(following.announcedSeq == 11)
    }

    @Test func anAnnouncementTheRoomHasReachedReadsNothing() {
        let following = Following()
        following.loaded(seq: 10)
        let reached = following.announced(10, durableSeq: 10, writing: false)
        let older = following.announced(3, durableSeq: 10, writing: false)
        #expect(reached == .none && older == .none)
        #expect(!following.isReading)
        #expect(following.announcedSeq == 10, "never goes back")
    }

    @Test func aRoomWritingItsOwnBatchReadsOnlyOnceTheBatchFinished() {
        let following = Following()
        following.loaded(seq: 10)
        let whileWriting = following.announced(15, durableSeq: 10, writing: true)
        #expect(whileWriting == .none)
        #expect(!following.isReading)
        let nextBatchWentOut = following.ownBatchFinished(durableSeq: 11, writing: true)
        #expect(nextBatchWentOut == .none)
        let idle = following.ownBatchFinished(durableSeq: 12, writing: false)
        #expect(idle == .read(after: 12))
    }

    @Test func oneReadAtATime() {
        let following = Self.reading()
        let actions = [
            following.announced(20, durableSeq: 10, writing: false),
            following.storeReconnected(durableSeq: 10, writing: false),
            following.ownBatchFinished(durableSeq: 10, writing: false),
        ]
        #expect(actions == [.none, .none, .none])
        #expect(following.announcedSeq == 20)
    }

    @Test func aReconnectReadsEvenWithNothingAnnounced() {
        let following = Following()
        following.loaded(seq: 10)
        let action = following.storeReconnected(durableSeq: 10, writing: false)
        #expect(action == .read(after: 10))
        // Nothing more in the store: the "maybe" is settled.
        let page = following.pageRead(count: 0, pageSize: 512, durableSeq: 10)
        let waited = following.finishReading()
        let again = following.readAgainIfBehind(durableSeq: 10, writing: false)
        #expect(page == .none && waited.isEmpty && again == .none)
        #expect(following.announcedSeq == 10)
    }

    @Test func aReconnectWhileWritingWaitsForTheBatch() {
        let following = Following()
        following.loaded(seq: 10)
        let whileWriting = following.storeReconnected(durableSeq: 10, writing: true)
        #expect(whileWriting == .none)
        let afterBatch = following.ownBatchFinished(durableSeq: 10, writing: false)
        #expect(afterBatch == .read(after: 10), "11 is announced: one past 10")
    }

    // MARK: Pages

    @Test func aFullPageReadsTheNextOneAfterWhereItGot() {
        let following = Self.reading(durableSeq: 0, announced: 1_000)
        let full = following.pageRead(count: 512, pageSize: 512, durableSeq: 512)
        #expect(full == .read(after: 512))
        #expect(following.isReading)
        let short = following.pageRead(count: 488, pageSize: 512, durableSeq: 1_000)
        let waited = following.finishReading()
        #expect(short == .none && waited.isEmpty)
        #expect(!following.isReading)
    }

    @Test func aShortPageSettlesWhatWasAnnouncedBeforeTheRead() {
        // Announced 12, the store had 11 only (a reconnect's guess, say): the read is the truth.
        let following = Self.reading(durableSeq: 10, announced: 12)
        let page = following.pageRead(count: 1, pageSize: 512, durableSeq: 11)
        #expect(page == .none)
        #expect(following.announcedSeq == 11)
        _ = following.finishReading()
        let again = following.readAgainIfBehind(durableSeq: 11, writing: false)
        #expect(again == .none)
    }

    @Test func anAnnouncementDuringTheReadReadsAgainAfterIt() {
        let following = Self.reading(durableSeq: 10, announced: 12)
        let during = following.announced(14, durableSeq: 10, writing: false)
        let page = following.pageRead(count: 2, pageSize: 512, durableSeq: 12)
        #expect(during == .none && page == .none)
        #expect(following.announcedSeq == 14, "announced after the read began: not settled by it")
        _ = following.finishReading()
        let whileWriting = following.readAgainIfBehind(durableSeq: 12, writing: true)
        #expect(whileWriting == .none, "not while a batch is written")
        let idle = following.readAgainIfBehind(durableSeq: 12, writing: false)
        #expect(idle == .read(after: 12))
    }

    @Test func anAnnouncementDuringAFullPageIsSettledByTheNextPage() {
        let following = Self.reading(durableSeq: 0, announced: 600)
        let during = following.announced(700, durableSeq: 0, writing: false)
        // The next page is asked for after the announcement of 700: it covers it.
        let full = following.pageRead(count: 512, pageSize: 512, durableSeq: 512)
        let short = following.pageRead(count: 100, pageSize: 512, durableSeq: 612)
        #expect(during == .none && full == .read(after: 512) && short == .none)
        #expect(following.announcedSeq == 612)
    }

    @Test func aFailedReadSettlesNothingAndIsNotRetriedUntilTheNextEvent() {
        let following = Self.reading(durableSeq: 10, announced: 12)
        // The room does not ask readAgainIfBehind after a failure.
        let waited = following.finishReading()
        #expect(waited.isEmpty)
        #expect(following.announcedSeq == 12)
        #expect(!following.isReading)
        let afterBatch = following.ownBatchFinished(durableSeq: 10, writing: false)
        #expect(afterBatch == .read(after: 10), "the next batch's end reads again")
    }

    @Test func aReloadSettlesEverythingAtTheReloadedSeq() {
        let following = Self.reading(durableSeq: 10, announced: 900)
        following.loaded(seq: 950)
        following.reloaded(seq: 950)
        let waited = following.finishReading()
        let again = following.readAgainIfBehind(durableSeq: 950, writing: false)
        #expect(waited.isEmpty && again == .none)
        #expect(following.announcedSeq == 950)
    }

    // MARK: Work that waits

    @Test func workForASeqTheRoomHasRunsNow() throws {
        let following = Following()
        following.loaded(seq: 10)
        let admission = following.admit("resume at 10", reaching: 10, durableSeq: 10, writing: false)
        #expect(try #require(Self.work(of: admission)) == "resume at 10")
        #expect(!following.isReading)
    }

    @Test func workForALaterSeqWaitsForTheReadItStarts() throws {
        let following = Following()
        following.loaded(seq: 10)
        let first = following.admit("resume at 15", reaching: 15, durableSeq: 10, writing: false)
        #expect(try #require(Self.action(of: first)) == .read(after: 10))
        #expect(following.announcedSeq == 15)
        // A second one joins the same read.
        let second = following.admit("drag at 12", reaching: 12, durableSeq: 10, writing: false)
        #expect(try #require(Self.action(of: second)) == .none)
        let page = following.pageRead(count: 5, pageSize: 512, durableSeq: 15)
        let waited = following.finishReading()
        let again = following.finishReading()
        #expect(page == .none)
        #expect(waited == ["resume at 15", "drag at 12"], "in the order they came")
        #expect(again.isEmpty, "each runs once")
    }

    @Test func workAdmittedWhileWritingIsReadForWhenTheBatchFinishes() throws {
        let following = Following()
        following.loaded(seq: 10)
        let admission = following.admit("api read", reaching: 11, durableSeq: 10, writing: true)
        #expect(try #require(Self.action(of: admission)) == .none)
        // Even when the batch itself reached the seq: the waiting work is what asks for the read.
        let afterBatch = following.ownBatchFinished(durableSeq: 11, writing: false)
        #expect(afterBatch == .read(after: 11))
        let page = following.pageRead(count: 0, pageSize: 512, durableSeq: 11)
        let waited = following.finishReading()
        #expect(page == .none && waited == ["api read"])
    }

    // MARK: Conflicts

    @Test func aConflictReadsAndRedoesTheUndoneOperationsBeforeWhatWaited() throws {
        let following = Following()
        following.loaded(seq: 10)
        let admission = following.admit("resume at 13", reaching: 13, durableSeq: 10, writing: true)
        #expect(try #require(Self.action(of: admission)) == .none)
        let conflict = following.conflicted(at: 13, durableSeq: 10, redo: ["op a", "op b"])
        #expect(conflict == .read(after: 10))
        let page = following.pageRead(count: 3, pageSize: 512, durableSeq: 13)
        let waited = following.finishReading()
        #expect(page == .none && waited == ["op a", "op b", "resume at 13"])
    }

    @Test func aConflictDuringAReadLeavesItsOperationsToTheRoom() {
        let following = Self.reading(durableSeq: 10, announced: 12)
        let conflict = following.conflicted(at: 14, durableSeq: 10, redo: ["op a"])
        #expect(conflict == nil)
        #expect(following.announcedSeq == 14)
        let page = following.pageRead(count: 2, pageSize: 512, durableSeq: 12)
        let waited = following.finishReading()
        #expect(page == .none && waited.isEmpty, "the room holds them")
        let again = following.readAgainIfBehind(durableSeq: 12, writing: false)
        #expect(again == .read(after: 12))
    }
}
