import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

/// What a fold makes: every store's folded snapshot is the board its events make applied one
/// by one with `Board.apply` (what the stores folded with before `FoldingBoard`), for logs of
/// every kind of event, folded by count, by bytes, and on a load's copy.
@Suite(.threadsOfTheirOwn) struct FoldResultContractTests {
    /// The board `events` make of `board`, one by one.
    static func oneByOne(_ board: Board, _ events: some Sequence<CommittedEvent>) throws -> Board {
        var board = board
        for event in events { try board.apply(event.op) }
        return board
    }

    /// Folded by count every few events: each fold's snapshot is checked, not only the last.
    @Test(arguments: StoreFactory.all) func aFoldedSnapshotIsTheBoardItsEventsMakeOneByOne(_ factory: StoreFactory) throws {
        let retention = LogRetention(retained: 6)
        let opened = try factory.open(retention)
        defer { opened.close() }
        let store = opened.store
        let (initial, events) = FoldWorkload.make(board: "fold", cards: 150, events: 90, seed: 31)
        try store.create(initial)
        var snapshots = Set<Int>()
        for chunk in stride(from: 0, to: events.count, by: 15) {
            try store.appendOneByOne("fold", Array(events[chunk..<min(chunk + 15, events.count)]))
            let seq = min(chunk + 15, events.count)
            let loaded = try #require(try store.loadWhenFolded("fold") { $0.events.count <= retention.bound })
            #expect(loaded.snapshotSeq > 0 && loaded.snapshotSeq + loaded.events.count == seq)
            #expect(loaded.snapshot == (try Self.oneByOne(initial, events.prefix(loaded.snapshotSeq))), "folded through \(loaded.snapshotSeq)")
            #expect(try Contract.rebuild(loaded) == (try Self.oneByOne(initial, events.prefix(seq))))
            snapshots.insert(loaded.snapshotSeq)
        }
        #expect(snapshots.count >= 4, "folded at \(snapshots.sorted())")
        // A load's copy is folded the same way.
        let short = try #require(try store.load("fold", historyLimit: 2).get())
        #expect(short.snapshotSeq == events.count - 2)
        #expect(short.snapshot == (try Self.oneByOne(initial, events.prefix(events.count - 2))))
    }

    /// A board of 3,000 cards with 100-byte ids whose biggest list is reversed again and again
    /// (each such event names every card of it): folded by bytes, the same board as one by one.
    @Test(arguments: StoreFactory.all) func aBigBoardsLogFoldedByBytesIsTheBoardOneByOne(_ factory: StoreFactory) throws {
        let retention = LogRetention(retained: 1_000, byteBudget: 400_000)
        let opened = try factory.open(retention)
        defer { opened.close() }
        let store = opened.store
        let (initial, events) = FoldWorkload.make(board: "big", cards: 3_000, events: 40, idBytes: 100, seed: 7)
        try store.create(initial)
        try store.appendOneByOne("big", events)
        // A reversal of 1,000 cards is about 100 KB: four fit the budget.
        let loaded = try #require(try store.loadWhenFolded("big") { $0.snapshotSeq > 0 })
        #expect(loaded.snapshotSeq > 0 && loaded.seq == 40)
        #expect(loaded.snapshot == (try Self.oneByOne(initial, events.prefix(loaded.snapshotSeq))))
        #expect(try Contract.rebuild(loaded) == (try Self.oneByOne(initial, events)))
    }
}
