import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

/// How every store keeps a board's log (`LogRetention`, decided by `LogFolding`): folded into
/// the snapshot by count and by bytes, the board always rebuilt the same, the epoch kept, the
/// opIds of the last `retained` commits still known, and loads cut to their history limit.
/// A store may fold after answering the append (PostgreSQL does): the checks on the log's
/// size wait until it has.
@Suite(.threadsOfTheirOwn) struct LogRetentionContractTests {
    /// The seqs whose opIds a load knows, folded or not, oldest first.
    static func knownSeqs(_ stored: StoredBoard) -> [Int] {
        stored.foldedCommits.map(\.seq) + stored.events.map(\.seq)
    }

    @Test(arguments: StoreFactory.all) func aLongLogIsFoldedByItsCount(_ factory: StoreFactory) throws {
        let retention = LogRetention(retained: 4)
        let opened = try factory.open(retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board(), epoch: "kept")
        for seq in 1...40 {
            try store.appendOneByOne("b", [Contract.event(seq)], rejecting: true)
            // Never fewer than `retained` events (or all there are).
            #expect(try #require(try store.load("b").get()).events.count >= min(seq, retention.retained))
        }
        let loaded = try #require(try store.loadWhenFolded("b") { $0.events.count <= retention.bound })
        #expect(loaded.epoch == "kept" && loaded.seq == 40)
        #expect(loaded.events.count >= retention.retained && loaded.events.count <= retention.bound)
        #expect(loaded.snapshotSeq == 40 - loaded.events.count)
        #expect(try Contract.rebuild(loaded) == Contract.board(after: Contract.events(1...40)))
        // Answers decided before the kept log are forgotten, recent ones kept.
        #expect(loaded.rejections.last?.opId == "bad-40")
        #expect(loaded.rejections.count <= retention.bound)
        // The opIds of the last `retained` commits are known, folded or not.
        #expect(Set(37...40).isSubset(of: Self.knownSeqs(loaded)))
        // Reading before the kept log is refused, not answered with a hole.
        #expect(store.eventsResult("b", after: 0).failure == .pruned(logStartsAfter: loaded.snapshotSeq))
        #expect(try store.eventsResult("b", after: loaded.snapshotSeq).get() == loaded.events)
    }

    /// One batch passing the bound at once is folded down to `retained` too.
    @Test(arguments: StoreFactory.all) func aBigBatchIsFoldedAtOnce(_ factory: StoreFactory) throws {
        let retention = LogRetention(retained: 5)
        let opened = try factory.open(retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: Contract.events(1...50))).get()
        let loaded = try #require(try store.loadWhenFolded("b") { $0.events.count <= retention.bound })
        #expect(loaded.snapshotSeq == 45 && loaded.events == Contract.events(46...50))
        #expect(try Contract.rebuild(loaded) == Contract.board(after: Contract.events(1...50)))
        #expect(store.eventsResult("b", after: 44).failure == .pruned(logStartsAfter: 45))
    }

    /// Events of about 20 KB: the log is folded by its bytes long before its count, and every
    /// commit's opId is still known, the folded ones by their seq alone.
    @Test(arguments: StoreFactory.all) func aLogOfBigEventsIsFoldedByItsBytes(_ factory: StoreFactory) throws {
        let retention = LogRetention(retained: 1_000, byteBudget: 100_000)
        let opened = try factory.open(retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        let events = (1...60).map(Contract.bigEvent)
        try store.appendOneByOne("b", events)
        // About five such events fit the budget; up to a slack more wait for the next measure.
        let fit = (retention.byteBudget + retention.byteSlack) / 20_000 + 2
        let loaded = try #require(try store.loadWhenFolded("b") { $0.events.count <= fit })
        #expect(loaded.seq == 60 && !loaded.events.isEmpty && loaded.events.count <= fit)
        #expect(try Contract.rebuild(loaded) == Contract.board(after: events))
        #expect(Self.knownSeqs(loaded) == Array(1...60))
        #expect(loaded.foldedCommits.first == FoldedCommit(opId: "u-1", seq: 1))
        // As far back as the history limit asks: a shorter one gets fewer.
        let short = try #require(try store.load("b", historyLimit: 10).get())
        #expect(Self.knownSeqs(short) == Array(51...60))
    }

    /// A load cuts the history to its limit by folding the older events into the returned
    /// snapshot, on a copy: their opIds come as folded commits, and the store keeps its log.
    @Test(arguments: StoreFactory.all) func aLoadKeepsAtMostItsHistoryLimit(_ factory: StoreFactory) throws {
        let opened = try factory.open(LogRetention(retained: 100))
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        try store.appendOneByOne("b", Contract.events(1...8))
        let expected = try Contract.board(after: Contract.events(1...8))
        let short = try #require(try store.load("b", historyLimit: 3).get())
        #expect(short.snapshotSeq == 5 && short.events == Contract.events(6...8))
        #expect(short.foldedCommits == Contract.events(1...5).map { FoldedCommit(opId: $0.opId, seq: $0.seq) })
        #expect(try Contract.rebuild(short) == expected)
        let none = try #require(try store.load("b", historyLimit: 0).get())
        #expect(none.snapshotSeq == 8 && none.events.isEmpty && none.snapshot == expected)
        let whole = try #require(try store.load("b").get())
        #expect(whole.snapshotSeq == 0 && whole.events == Contract.events(1...8) && whole.foldedCommits.isEmpty)
        #expect(try store.eventsResult("b", after: 0).get() == Contract.events(1...8))
    }
}
