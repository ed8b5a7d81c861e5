import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

/// What `BoardStore` promises, checked on every kind of store (`StoreFactory.all`): boards,
/// appends and their checks, reading the log, remembered answers, closing. How the log is
/// kept bounded is in `LogRetentionContractTests`.
@Suite(.threadsOfTheirOwn) struct BoardStoreContractTests {
    static let retention = LogRetention(retained: 100)

    /// A board with folders, and the folder operations in its log, come back as they went in,
    /// also once the log is folded into a new snapshot (docs/model.md "Folders").
    @Test(arguments: StoreFactory.all) func foldersSurviveTheStoreAndItsFolding(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        var board = Contract.board("f")
        board.collections[0].items.append(Item(id: "f1", label: "Ideas", folder: Folder(accepts: false)))
        board.folders = ["f1": [Item(id: "a1", label: "Inside", data: ["n": .number(1)]), Item(id: "f2", label: "Deeper", folder: Folder())], "f2": []]
        try store.create(board)
        let folderOps: [BoardOperation] = [
            .insert(items: [Item(id: "f3", label: "New folder", folder: Folder())], destination: Destination(collection: "done")),
            .move(sources: ["a1"], destination: Destination(collection: "f2")),
            .updateFolder(item: "f1", accepts: true),
            .move(sources: ["f2"], destination: Destination(collection: "f3")),
            .delete(items: ["f1"]),
        ]
        let events = folderOps.enumerated().map { CommittedEvent(seq: $0.offset + 1, opId: "fo-\($0.offset)", client: "c1", op: $0.element, adjusted: false) }
        try store.appendOneByOne("f", events)
        var expected = board
        for event in events { try expected.apply(event.op) }
        let loaded = try #require(try store.load("f").get())
        #expect(loaded.events == events)
        #expect(try Contract.rebuild(loaded) == expected)
        #expect(
            expected.folders == ["f3": [Item(id: "f2", label: "Deeper", folder: Folder())], "f2": [Item(id: "a1", label: "Inside", data: ["n": .number(1)])]])
        // Past the retention the log folds: the snapshot now holds the folders itself.
        let moves = (6...230).map {
            CommittedEvent(
                seq: $0, opId: "m-\($0)", client: "c1", op: .move(sources: ["f3"], destination: Destination(collection: $0 % 2 == 0 ? "todo" : "done")),
                adjusted: false)
        }
        try store.appendOneByOne("f", moves)
        for event in moves { try expected.apply(event.op) }
        let folded = try #require(try store.loadWhenFolded("f") { $0.snapshotSeq > 0 })
        #expect(folded.snapshotSeq > 5)
        #expect(try Contract.rebuild(folded) == expected)
    }

    /// Column moves (`collection.move`) are logged, replayed and folded like every operation:
    /// the board comes back with its columns in the order the log left them.
    @Test(arguments: StoreFactory.all) func columnMovesSurviveTheStoreAndItsFolding(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board("cm"))
        let columnOps: [BoardOperation] = [
            .addCollection(collection: "later", title: "Later", before: nil),
            .moveCollections(collections: ["later", "done"], before: "todo"),
            .move(sources: ["i2"], destination: Destination(collection: "later")),
            .moveCollections(collections: ["todo"], before: "done"),
        ]
        let events = columnOps.enumerated().map { CommittedEvent(seq: $0.offset + 1, opId: "cm-\($0.offset)", client: "c1", op: $0.element, adjusted: false) }
        try store.appendOneByOne("cm", events)
        var expected = Contract.board("cm")
        for event in events { try expected.apply(event.op) }
        #expect(expected.collections.map(\.id) == ["later", "todo", "done"])
        let loaded = try #require(try store.load("cm").get())
        #expect(loaded.events == events)
        #expect(try Contract.rebuild(loaded) == expected)
        // Past the retention the log folds: the snapshot holds the columns in their new order.
        let moves = (5...230).map {
            CommittedEvent(
                seq: $0, opId: "m-\($0)", client: "c1",
                op: .moveCollections(collections: [$0 % 2 == 0 ? "done" : "later"], before: $0 % 3 == 0 ? nil : "todo"), adjusted: false)
        }
        try store.appendOneByOne("cm", moves)
        for event in moves { try expected.apply(event.op) }
        let folded = try #require(try store.loadWhenFolded("cm") { $0.snapshotSeq > 0 })
        #expect(folded.snapshotSeq > 4)
        #expect(try Contract.rebuild(folded) == expected)
    }

    @Test(arguments: StoreFactory.all) func createListAndLoad(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board("b"))
        try store.create(Contract.board("a"), epoch: "e2")
        #expect(store.createResult(Contract.board("b"), epoch: "e3").failure == .alreadyExists)
        #expect(try store.list().get() == [BoardSummary(id: "a", title: "Board a", seq: 0), BoardSummary(id: "b", title: "Board b", seq: 0)])
        #expect(try store.load("b").get() == StoredBoard(snapshot: Contract.board("b"), snapshotSeq: 0, epoch: "e1", events: []))
        // The refused create changed nothing: not the epoch, not the board.
        #expect(try store.load("a").get()?.epoch == "e2")
        #expect(try store.load("nope").get() == nil)
    }

    /// A deleted board leaves nothing behind: not its log, not its remembered answers, not the
    /// opIds folded away; its id may be created anew, and the other boards are untouched.
    @Test(arguments: StoreFactory.all) func deleteRemovesTheBoardAndAllItKept(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        for id in ["a", "b"] { try store.create(Contract.board(id)) }
        // Past the retention, so the log is folded and folded opIds are kept too.
        try store.appendOneByOne("b", Contract.events(1...130), rejecting: true)
        try store.appendOneByOne("a", Contract.events(1...2))
        let a = try store.load("a").get()

        try store.deleteResult("b").get()
        #expect(try store.list().get() == [BoardSummary(id: "a", title: "Board a", seq: 2)])
        #expect(try store.load("b").get() == nil)
        #expect(store.eventsResult("b", after: 0).failure == .notFound)
        #expect(store.appendResult(CommitBatch(board: "b", expectedSeq: 130, events: [Contract.event(131)])).failure == .notFound)
        #expect(store.deleteResult("b").failure == .notFound)
        #expect(store.deleteResult("never").failure == .notFound)
        #expect(try store.load("a").get() == a)

        // A new board of the same id starts empty: no events, answers or folded opIds of the old one.
        try store.create(Contract.board("b"), epoch: "e9")
        #expect(try store.load("b").get() == StoredBoard(snapshot: Contract.board("b"), snapshotSeq: 0, epoch: "e9", events: []))
        try store.appendOneByOne("b", Contract.events(1...1))
        #expect(try store.load("b").get()?.events == Contract.events(1...1))
    }

    /// The listing's title is the board's: a rename (`update` of the board's title) appended
    /// shows in `listBoards` at once, the last of a batch winning, before and after folding.
    @Test(arguments: StoreFactory.all) func theListedTitleFollowsRenames(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        for id in ["a", "b"] { try store.create(Contract.board(id)) }
        func rename(_ seq: Int, _ title: String) -> CommittedEvent {
            CommittedEvent(seq: seq, opId: "rename-\(seq)", client: "c1", op: .renameBoard(title: title), adjusted: false)
        }
        try store.appendOneByOne("b", Contract.events(1...2))
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 2, events: [rename(3, "First")])).get()
        #expect(try store.list().get() == [BoardSummary(id: "a", title: "Board a", seq: 0), BoardSummary(id: "b", title: "First", seq: 3)])
        // Two renames and a move in one batch: the last rename decides.
        let batch = [rename(4, "Second"), rename(5, "Third"), CommittedEvent(seq: 6, opId: "m6", client: "c1", op: .lock(locked: false), adjusted: false)]
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 3, events: batch)).get()
        #expect(try store.list().get().last == BoardSummary(id: "b", title: "Third", seq: 6))
        // Collection renames and item updates leave the board's title alone.
        let others = [
            CommittedEvent(
                seq: 7, opId: "c7", client: "c1", op: .renameCollection(collection: Contract.board().collections[0].id, title: "Col"), adjusted: false)
        ]
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 6, events: others)).get()
        #expect(try store.list().get().last?.title == "Third")
        // Past the retention, and loaded with a short history: the renames are in the
        // snapshot, and the listed title stays.
        try store.appendOneByOne("b", Contract.events(8...130))
        #expect(try store.list().get().last == BoardSummary(id: "b", title: "Third", seq: 130))
        let folded = try #require(try store.load("b", historyLimit: 10).get())
        #expect(folded.snapshotSeq >= 120 && folded.snapshot.title == "Third")
        #expect(try Contract.rebuild(folded).title == "Third")
    }

    @Test(arguments: StoreFactory.all) func appendExtendsOnlyTheSeqItNames(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        let first = CommitBatch(board: "b", expectedSeq: 0, events: Contract.events(1...2))
        try store.appendResult(first).get()
        // Another node resolved against seq 0 (or 1): the board is at 2.
        #expect(store.appendResult(first).failure == .conflict(currentSeq: 2))
        #expect(store.appendResult(CommitBatch(board: "b", expectedSeq: 1, events: [Contract.event(2)])).failure == .conflict(currentSeq: 2))
        #expect(store.appendResult(CommitBatch(board: "nope", expectedSeq: 0, events: Contract.events(1...1))).failure == .notFound)
        #expect(try store.list().get() == [BoardSummary(id: "b", title: "Board b", seq: 2)])
        let loaded = try #require(try store.load("b").get())
        #expect(loaded.seq == 2 && loaded.snapshotSeq == 0 && loaded.epoch == "e1")
        #expect(loaded.events == Contract.events(1...2))
        #expect(try Contract.rebuild(loaded) == Contract.board(after: Contract.events(1...2)))
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 2, events: Contract.events(3...3))).get()
        #expect(try store.load("b").get()?.events == Contract.events(1...3))
    }

    /// A batch names the epoch of the board it extends: once the board was deleted and created
    /// again under its id, a batch of the old one is refused as for a board that is gone,
    /// even at the seq the new one is at, and nothing of it is written.
    @Test(arguments: StoreFactory.all) func aBatchOfADeletedBoardNeverLandsInTheOneCreatedAgain(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board(), epoch: "e1")
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: Contract.events(1...1), epoch: "e1")).get()
        try store.deleteResult("b").get()
        try store.create(Contract.board(), epoch: "e2")
        #expect(store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: Contract.events(1...2), epoch: "e1")).failure == .notFound)
        #expect(try store.load("b").get()?.events == [])
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: Contract.events(1...1), epoch: "e2")).get()
        #expect(try store.load("b").get()?.events == Contract.events(1...1))
    }

    /// Each board has its own seq: appends to one never conflict with another's.
    @Test(arguments: StoreFactory.all) func boardsAreIndependent(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        for id in ["a", "b"] { try store.create(Contract.board(id)) }
        for seq in 1...3 {
            try store.appendResult(CommitBatch(board: "a", expectedSeq: seq - 1, events: [Contract.event(seq)])).get()
            if seq < 3 { try store.appendResult(CommitBatch(board: "b", expectedSeq: seq - 1, events: [Contract.event(seq)])).get() }
        }
        #expect(try store.list().get().map(\.seq) == [3, 2])
        #expect(try store.eventsResult("b", after: 0).get() == Contract.events(1...2))
    }

    /// A refused batch (behind, or its events not numbered on from `expectedSeq`) leaves the
    /// board as it was: no event, no remembered answer.
    @Test(arguments: StoreFactory.all) func aRefusedBatchLeavesTheBoardUntouched(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        try store.appendOneByOne("b", Contract.events(1...3))
        let before = try store.load("b").get()
        let rejection = [Rejection(opId: "bad", code: .invalid, message: "no")]
        let behind = CommitBatch(board: "b", expectedSeq: 1, events: Contract.events(2...4), rejections: rejection)
        #expect(store.appendResult(behind).failure == .conflict(currentSeq: 3))
        for events in [[Contract.event(4), Contract.event(6)], [Contract.event(5)], [Contract.event(4), Contract.event(4)]] {
            let outOfOrder = CommitBatch(board: "b", expectedSeq: 3, events: events, rejections: rejection)
            guard case .unavailable(let reason)? = store.appendResult(outOfOrder).failure else {
                Issue.record("events \(events.map(\.seq)) after seq 3 must be refused")
                continue
            }
            #expect(reason.contains("seq order"))
        }
        #expect(try store.load("b").get() == before)
        #expect(try store.list().get().first?.seq == 3)
    }

    @Test(arguments: StoreFactory.all) func eventsAfterASeqOldestFirstAtMostLimit(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: Contract.events(1...5))).get()
        #expect(try store.eventsResult("b", after: 0).get() == Contract.events(1...5))
        #expect(try store.eventsResult("b", after: 1, limit: 2).get() == Contract.events(2...3))
        #expect(try store.eventsResult("b", after: 4, limit: 10).get() == [Contract.event(5)])
        #expect(try store.eventsResult("b", after: 5).get() == [])
        #expect(try store.eventsResult("b", after: 0, limit: 0).get() == [])
        #expect(store.eventsResult("nope", after: 0).failure == .notFound)
    }

    /// Rejections and noops come back with the board, in the order decided, one per opId
    /// (a later answer for an opId replaces the earlier, whichever kind); a batch of answers
    /// alone does not move the seq.
    @Test(arguments: StoreFactory.all) func rememberedAnswersComeBackWithTheBoard(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        let gone = Rejection(opId: "r1", code: .gone, message: "no such item")
        let invalid = Rejection(opId: "r2", code: .invalid, message: "bad move")
        try store.appendResult(
            CommitBatch(
                board: "b", expectedSeq: 0, events: Contract.events(1...1), rejections: [gone, invalid], noops: [Noop(opId: "n1", seq: 0)])
        ).get()
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 1, events: [], noops: [Noop(opId: "n2", seq: 1)])).get()
        var loaded = try #require(try store.load("b").get())
        #expect(loaded.seq == 1)
        #expect(loaded.rejections == [gone, invalid])
        #expect(loaded.noops == [Noop(opId: "n1", seq: 0), Noop(opId: "n2", seq: 1)])

        // r1 answered again, then as a noop; n1 answered as a rejection.
        let again = Rejection(opId: "r1", code: .invalid, message: "again")
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 1, events: [], rejections: [again])).get()
        loaded = try #require(try store.load("b").get())
        #expect(loaded.rejections == [invalid, again])
        let n1 = Rejection(opId: "n1", code: .invalid, message: "now refused")
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 1, events: [], rejections: [n1], noops: [Noop(opId: "r1", seq: 1)])).get()
        loaded = try #require(try store.load("b").get())
        #expect(loaded.rejections == [invalid, n1])
        #expect(loaded.noops == [Noop(opId: "n2", seq: 1), Noop(opId: "r1", seq: 1)])
        #expect(loaded.seq == 1 && loaded.events == Contract.events(1...1))
    }

    /// Within one batch too, answers keep the order they were decided in (not their opIds').
    @Test(arguments: StoreFactory.all) func answersOfOneBatchKeepTheirOrder(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        let rejections = ["z", "a", "m"].map { Rejection(opId: $0, code: .invalid, message: "no \($0)") }
        let noops = ["y", "b"].map { Noop(opId: $0, seq: 0) }
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: [], rejections: rejections, noops: noops)).get()
        let loaded = try #require(try store.load("b").get())
        #expect(loaded.rejections == rejections)
        #expect(loaded.noops == noops)
    }

    /// Answers piling up while the seq stands still (a client sending invalid operations)
    /// stay within `retention.bound`, the newest kept.
    @Test(arguments: StoreFactory.all) func rememberedAnswersStayBounded(_ factory: StoreFactory) throws {
        let retention = LogRetention(retained: 4)
        let opened = try factory.open(retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        for round in 0..<30 {
            let rejections = (0..<3).map { Rejection(opId: "bad-\(round)-\($0)", code: .invalid, message: "no") }
            try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: [], rejections: rejections)).get()
            let kept = try #require(try store.load("b").get()).rejections
            #expect(kept.count >= min(3 * (round + 1), retention.retained) && kept.count <= retention.bound)
            #expect(kept.last?.opId == "bad-\(round)-2")
        }
    }

    /// After `close`, every call answers `.unavailable` (and nothing is written).
    @Test(arguments: StoreFactory.all) func aClosedStoreAnswersUnavailable(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        store.close()
        #expect(store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: [Contract.event(1)])).isUnavailable)
        #expect(store.createResult(Contract.board("c")).isUnavailable)
        #expect(store.list().isUnavailable)
        #expect(store.load("b").isUnavailable)
        #expect(store.eventsResult("b", after: 0).isUnavailable)
    }
}
