import CorkboardModel
import CorkboardStore
import Foundation
import TestSupport
import Testing

@testable import CorkboardSQLite

/// `exportBoard` and `importBoard`, and the archive's JSON.
@Suite(.threadsOfTheirOwn) struct ArchiveTests {
    @Test func exportGivesTheBoardAtItsSeqAndRoundTripsAsJSON() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory, retainedEvents: 3)
        try store.create(Fixtures.board(), epoch: "e-export")
        try store.appendEvents("b", after: 0, count: 11) // folded in part: snapshot + log
        let archive = try #require(try store.exportBoard("b"))
        #expect(archive == BoardArchive(board: try Fixtures.expected(after: 11), seq: 11, epoch: "e-export"))
        #expect(archive.format == 1, "without history: the format every corkboard reads")
        let json = try archive.encoded()
        #expect(String(decoding: json, as: UTF8.self).contains("\"epoch\" : \"e-export\""))
        #expect(try BoardArchive.decode(json) == archive)
        #expect(try store.exportBoard("nope") == nil)
    }

    @Test func importCreatesAMissingBoardAtTheArchivesSeqAndEpoch() throws {
        let directory = try TemporaryDirectory()
        let archive = BoardArchive(board: try Fixtures.expected(after: 4, "n"), seq: 4, epoch: "from-elsewhere")
        do {
            let store = try Fixtures.open(directory)
            let imported = try store.importBoard(archive, limits: Fixtures.limits)
            #expect(imported == ImportedBoard(id: "n", seq: 4, epoch: "from-elsewhere", replacedExisting: false))
            store.close()
        }
        let store = try Fixtures.open(directory)
        #expect(try store.load("n") == StoredBoard(snapshot: archive.board, snapshotSeq: 4, epoch: "from-elsewhere", events: []))
        // The log continues from the imported seq.
        try store.appendResult(CommitBatch(board: "n", expectedSeq: 4, events: [Fixtures.event(5)])).get()
        #expect(try store.exportBoard("n") == BoardArchive(board: try Fixtures.expected(after: 5, "n"), seq: 5, epoch: "from-elsewhere"))
    }

    @Test func importWithoutEpochGetsAFreshOne() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        let json = Data(#"{"format": 1, "seq": 0, "board": {"id": "h", "title": "Hand made", "locked": false, "collections": []}}"#.utf8)
        let imported = try store.importBoard(BoardArchive.decode(json), limits: Fixtures.limits)
        #expect(imported.epoch.count == 16 && imported.seq == 0)
        #expect(try store.load("h")?.epoch == imported.epoch)
    }

    /// Over an existing board: history replaced, fresh epoch, seq above both old seqs.
    @Test func importOverAnExistingBoardGivesAFreshEpochAndAHigherSeq() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try Fixtures.open(directory)
            try store.create(Fixtures.board(), epoch: "old")
            try store.appendEvents("b", after: 0, count: 6, rejections: [Rejection(opId: "r", code: .invalid, message: "no")])
            // An archive behind the board (seq 2) and one ahead of it (seq 50).
            let behind = BoardArchive(board: try Fixtures.expected(after: 2), seq: 2, epoch: "old")
            let first = try store.importBoard(behind, limits: Fixtures.limits)
            #expect(first.replacedExisting && first.seq == 7 && first.epoch != "old")
            let ahead = BoardArchive(board: Fixtures.board(), seq: 50, epoch: first.epoch)
            let second = try store.importBoard(ahead, limits: Fixtures.limits)
            #expect(second.seq == 51 && second.epoch != first.epoch && second.epoch != "old")
            store.close()
        }
        let store = try Fixtures.open(directory)
        let loaded = try #require(try store.load("b"))
        #expect(loaded.snapshot == Fixtures.board() && loaded.snapshotSeq == 51 && loaded.events.isEmpty)
        #expect(loaded.rejections.isEmpty)
        #expect(try store.countRows("event", board: "b") == 0)
        // A sequencer that knew the old history cannot append onto the new one.
        #expect(store.appendResult(CommitBatch(board: "b", expectedSeq: 6, events: [Fixtures.event(7)])).failure == .conflict(currentSeq: 51))
    }

    @Test func invalidArchivesAreRefused() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        let future = BoardArchive(board: Fixtures.board(), seq: 0, epoch: nil, format: 99)
        #expect(throws: SQLiteStoreError.self) { try store.importBoard(future, limits: Fixtures.limits) }
        var twice = Fixtures.board()
        twice.collections[1].items = [Item(id: "i1", label: "again")]
        do {
            try store.importBoard(BoardArchive(board: twice, seq: 0, epoch: nil), limits: Fixtures.limits)
            Issue.record("an item twice must be refused")
        } catch {
            #expect("\(error)".contains("i1 appears twice"))
        }
        #expect(try store.list().isEmpty)
    }

    /// Export while a server holds the directory: the read-only opener needs no lock and
    /// sees what the writer committed; it refuses to write.
    @Test func readOnlyOpenerExportsBesideARunningStore() throws {
        let directory = try TemporaryDirectory()
        let running = try Fixtures.open(directory, syncMode: .full)
        try running.create(Fixtures.board(), epoch: "live")
        try running.appendEvents("b", after: 0, count: 3)
        let reader = try SQLiteStore.openReadOnly(directory: running.directory)
        #expect(try reader.exportBoard("b") == BoardArchive(board: try Fixtures.expected(after: 3), seq: 3, epoch: "live"))
        // Committed later by the running store: a new read sees it.
        try running.appendEvents("b", after: 3, count: 1)
        #expect(try reader.exportBoard("b")?.seq == 4)
        #expect(throws: SQLiteStoreError.self) { try reader.importBoard(BoardArchive(board: Fixtures.board("z"), seq: 0, epoch: nil), limits: Fixtures.limits) }
        guard case .unavailable? = reader.appendResult(CommitBatch(board: "b", expectedSeq: 4, events: [Fixtures.event(5)])).failure else {
            Issue.record("a read-only store must refuse appends")
            return
        }
        reader.close()
        running.close()
        // And after the server stopped (its WAL checkpointed and removed), too.
        let later = try SQLiteStore.openReadOnly(directory: running.directory)
        #expect(try later.exportBoard("b")?.seq == 4)
    }

    @Test func readOnlyOpenerNeedsADatabase() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: SQLiteStoreError.missing(path: directory.path + "/corkboard.sqlite")) {
            try SQLiteStore.openReadOnly(directory: directory.path)
        }
    }
}
