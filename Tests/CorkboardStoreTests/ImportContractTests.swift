import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

/// `importBoard`: an archive with its kept log comes into every store with its seqs, its
/// epoch and its log; over an existing board only when replacing, and then with a fresh epoch.
@Suite struct ImportContractTests {
    static let retention = LogRetention(retained: 100, byteBudget: 64 << 20)

    /// The archive `corkboard export --history` makes of a board of `store`.
    static func archive(_ store: any BoardStore, _ id: String, history: Bool = true) throws -> BoardArchive {
        let stored = try #require(try store.load(id, historyLimit: .max).get())
        return try BoardArchive(stored, history: history)
    }

    @Test(arguments: StoreFactory.all) func anArchiveWithHistoryComesInWithItsSeqsEpochAndLog(_ factory: StoreFactory) throws {
        let source = try factory.open(Self.retention)
        defer { source.close() }
        try source.store.create(Contract.board("b"), epoch: "e-source")
        // Stamped, as the hub commits them: when and by whom travel with the log.
        let events = Contract.events(1...30).map { event in
            var stamped = event
            stamped.at = 1_780_000_000_000 + event.seq
            stamped.by = event.seq % 3 == 0 ? "Ada" : nil
            return stamped
        }
        try source.store.appendOneByOne("b", events)
        let archive = try Self.archive(source.store, "b")
        #expect(archive.format == 2 && archive.seq == 30 && archive.history?.events == events)
        #expect(archive.validationProblems(limits: BoardSizeLimits(maximumItems: nil, maximumCollections: nil)).isEmpty)

        let target = try factory.open(Self.retention)
        defer { target.close() }
        let imported = try wait { target.store.importBoard(archive, replacing: false, $0) }.get()
        #expect(imported == ImportedBoard(id: "b", seq: 30, epoch: "e-source", replacedExisting: false))
        let loaded = try #require(try target.store.load("b").get())
        #expect(try Contract.rebuild(loaded) == archive.board)
        #expect(loaded.events == events && loaded.epoch == "e-source")
        #expect(try target.store.eventsResult("b", after: 10, limit: 5).get() == Array(events[10..<15]))
        #expect(try target.store.list().get() == [BoardSummary(id: "b", title: "Board b", seq: 30)])
        // The log goes on from the archive's seq.
        try target.store.appendResult(CommitBatch(board: "b", expectedSeq: 30, events: [Contract.event(31)], epoch: "e-source")).get()
        #expect(try Self.archive(target.store, "b").history?.events == events + [Contract.event(31)])
    }

    /// Column moves and a column removed with its items travel in an archive's history and
    /// rebuild the same board once imported.
    @Test(arguments: StoreFactory.all) func columnMovesAndRemovalsTravelInAnArchive(_ factory: StoreFactory) throws {
        let source = try factory.open(Self.retention)
        defer { source.close() }
        try source.store.create(Contract.board("c"), epoch: "e-cols")
        let operations: [BoardOperation] = [
            .addCollection(collection: "later", title: "Later", before: nil),
            .moveCollections(collections: ["later", "done"], before: "todo"),
            .move(sources: ["i1"], destination: Destination(collection: "later")),
            .removeCollectionAndItems(collection: "later"),
        ]
        let events = operations.enumerated().map {
            CommittedEvent(seq: $0.offset + 1, opId: "c-\($0.offset)", client: "c1", op: $0.element, adjusted: false)
        }
        try source.store.appendOneByOne("c", events)
        let archive = try Self.archive(source.store, "c")
        #expect(archive.history?.events == events)
        #expect(archive.board.collections.map(\.id) == ["done", "todo"])
        #expect(archive.board.allItemIDs == ["i2"])

        let target = try factory.open(Self.retention)
        defer { target.close() }
        _ = try wait { target.store.importBoard(archive, replacing: false, $0) }.get()
        let loaded = try #require(try target.store.load("c").get())
        #expect(loaded.events == events)
        #expect(try Contract.rebuild(loaded) == archive.board)
    }

    @Test(arguments: StoreFactory.all) func anExistingBoardIsReplacedOnlyWhenAskedAndGetsAFreshEpoch(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board("b"), epoch: "e-old")
        try store.appendOneByOne("b", Contract.events(1...5))
        let withHistory = BoardArchive(
            board: try Contract.board(after: Contract.events(1...3)), seq: 3, epoch: "e-old",
            history: ArchivedHistory(snapshot: Contract.board(), snapshotSeq: 0, events: Contract.events(1...3)))

        #expect(wait { store.importBoard(withHistory, replacing: false, $0) }.failure == .alreadyExists)
        #expect(try store.load("b").get()?.seq == 5, "a refused import changes nothing")

        // With history: its seqs are kept, and the epoch is new, so nobody resumes across it.
        let replaced = try wait { store.importBoard(withHistory, replacing: true, $0) }.get()
        #expect(replaced.seq == 3 && replaced.replacedExisting && replaced.epoch != "e-old")
        let loaded = try #require(try store.load("b").get())
        #expect(loaded.events == Contract.events(1...3) && loaded.epoch == replaced.epoch)
        // A batch of the old board's sequencer never lands in the new one.
        #expect(store.appendResult(CommitBatch(board: "b", expectedSeq: 3, events: [Contract.event(4)], epoch: "e-old")).failure == .notFound)

        // Without history: past every seq the old board gave out, with a fresh epoch again.
        let plain = BoardArchive(board: Contract.board(), seq: 1, epoch: nil)
        let again = try wait { store.importBoard(plain, replacing: true, $0) }.get()
        #expect(again.seq == 4 && again.epoch != replaced.epoch)
        #expect(try store.load("b").get() == StoredBoard(snapshot: Contract.board(), snapshotSeq: 4, epoch: again.epoch, events: []))
    }
}
