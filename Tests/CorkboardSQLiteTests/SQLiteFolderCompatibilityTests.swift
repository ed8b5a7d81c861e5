import CorkboardModel
import CorkboardStore
import Foundation
import GRDB
import TestSupport
import Testing

@testable import CorkboardSQLite

/// A database written before folders existed opens with this version and takes folders: its
/// snapshot and events, written here as that version wrote them (JSON without `folders` or
/// `folder`), read back as a board without folders, and folder operations append after them.
@Suite(.threadsOfTheirOwn) struct SQLiteFolderCompatibilityTests {
    static let oldSnapshot =
        #"{"collections":[{"id":"todo","items":[{"id":"i1","label":"1"},{"id":"i2","label":"2"}],"title":"To do"},{"id":"done","items":[],"title":"Done"}],"id":"b","locked":false,"title":"Board b"}"#
    static let oldMove = #"{"destination":{"before":null,"collection":"done"},"sources":["i1"],"type":"move"}"#

    @Test func aDatabaseFromBeforeFoldersOpensAndTakesThem() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/data", withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: directory.path + "/data/" + DatabaseOpening.fileName)
        try Schema.migrator.migrate(old)
        try old.write { db in
            try db.execute(
                sql: "INSERT INTO board (id, title, locked, seq, epoch, snapshot, snapshotSeq) VALUES ('b', 'Board b', 0, 1, 'e1', ?, 0)",
                arguments: [Data(Self.oldSnapshot.utf8)])
            try db.execute(
                sql: "INSERT INTO event (board, seq, opId, client, op, adjusted) VALUES ('b', 1, 'op-1', 'c1', ?, 0)",
                arguments: [Self.oldMove])
        }
        try old.close()

        let store = try Fixtures.open(directory)
        defer { store.close() }
        let loaded = try #require(try store.load("b"))
        #expect(loaded.snapshot == Fixtures.board())
        #expect(loaded.snapshot.folders.isEmpty)
        let folderOps: [BoardOperation] = [
            .insert(items: [Item(id: "f1", label: "Ideas", folder: Folder())], destination: Destination(collection: "todo")),
            .move(sources: ["i2"], destination: Destination(collection: "f1")),
        ]
        let events = folderOps.enumerated().map { CommittedEvent(seq: $0.offset + 2, opId: "f-\($0.offset)", client: "c1", op: $0.element, adjusted: false) }
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 1, events: events)).get()
        let board = try Fixtures.rebuild(try #require(try store.load("b")))
        #expect(board.folders == ["f1": [Item(id: "i2", label: "2")]])
        #expect(board.collections.map { $0.items.map(\.id) } == [["f1"], ["i1"]])
    }
}
