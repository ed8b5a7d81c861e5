import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The PostgreSQL backup of docs/storage.md#backups, as written there: `pg_dump` while a node
/// serves, `pg_restore` into a fresh database, a fresh epoch for every board, a node on it.
@Suite(.threadsOfTheirOwn) struct PostgresDumpRestoreTests {
    @Test func aDumpTakenWhileServingRestoresEveryBoardWithItsLogUnderNewEpochs() throws {
        let cluster = try PostgresCluster.shared()
        let source = PostgresCluster.uniqueDatabaseName()
        let web = try ArchiveFolder()
        func serve(_ database: String) throws -> (ServerProcess, BoardAPI) {
            let server = try ServerProcess([
                "serve", "--port", "0", "--web-root", web.webRoot.path, "--store", "postgres", "--database-url",
                cluster.url(database: database), "--no-demo",
            ])
            return (server, BoardAPI(port: try #require(server.waitForListeningPort())))
        }
        try cluster.createDatabase(source)
        let (server, api) = try serve(source)
        try api.createBoard(Board(id: "alpha", title: "Alpha", collections: [BoardCollection(id: "todo", title: "To do")]))
        func insert(_ number: Int) throws {
            let request = OperationRequest(
                opId: "op-\(number)", baseSeq: number,
                .insert(items: [Item(id: "i\(number)", label: "\(number)")], destination: Destination(collection: "todo")))
            #expect(try api.perform("alpha", request).status == 200)
        }
        for number in 0..<10 { try insert(number) }
        let dumped = (document: try api.document("alpha"), log: try api.events("alpha"))

        let dump = web.data.path + "/corkboard.dump"
        let dumping = try cluster.client("pg_dump", ["--format=custom", "--file", dump, source])
        #expect(dumping.succeeded, "\(dumping.standardError)")
        try insert(10) // after the dump: not in it
        web.stop(server)

        let restored = PostgresCluster.uniqueDatabaseName()
        try cluster.createDatabase(restored)
        let restoring = try cluster.client("pg_restore", ["--no-owner", "--dbname", restored, dump])
        #expect(restoring.succeeded, "\(restoring.standardError)")
        try cluster.psql("UPDATE board SET epoch = substr(md5(random()::text || id), 1, 16)", database: restored)

        let (node, restoredAPI) = try serve(restored)
        defer { web.stop(node) }
        let document = try restoredAPI.document("alpha")
        #expect(document.board == dumped.document.board && document.seq == 10)
        #expect(document.epoch != dumped.document.epoch)
        #expect(try restoredAPI.events("alpha") == dumped.log)
        // The restored board takes operations from its seq on.
        #expect(try restoredAPI.perform("alpha", OperationRequest(opId: "after", baseSeq: 10, .delete(items: ["i0"]))).status == 200)
        #expect(try restoredAPI.document("alpha").seq == 11)
    }
}
