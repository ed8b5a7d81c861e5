import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `corkboard export --all --history` and `corkboard import` of it into an empty store, SQLite
/// and PostgreSQL: the same boards, seqs, epochs and logs, and clients resume across the move.
@Suite(.threadsOfTheirOwn) struct ArchiveHistoryCommandTests {
    /// What the test compares of a store, through the API: every board's document and log.
    struct Served: Equatable {
        var documents: [String: BoardDocument]
        var logs: [String: [CommittedEvent]]

        init(_ api: BoardAPI) throws {
            let ids = try api.get("/api/boards").decode(BoardList.self).boards.map(\.id)
            documents = try Dictionary(uniqueKeysWithValues: ids.map { ($0, try api.document($0)) })
            logs = try Dictionary(uniqueKeysWithValues: ids.map { ($0, try api.events($0)) })
        }
    }

    /// A served SQLite folder with boards that have a log: the demo board and two more.
    static func seededFolder() throws -> (ArchiveFolder, Served) {
        let folder = try ArchiveFolder()
        let (server, api) = try folder.serve()
        for id in ["alpha", "beta"] {
            try api.createBoard(
                Board(id: id, title: id, collections: [BoardCollection(id: "todo", title: "To do"), BoardCollection(id: "done", title: "Done")]))
            for number in 0..<12 {
                let response = try api.perform(
                    id,
                    OperationRequest(
                        opId: "\(id)-\(number)", baseSeq: number,
                        .insert(items: [Item(id: "\(id)-\(number)", label: "\(number)")], destination: Destination(collection: "todo"))))
                #expect(response.status == 200, "\(response)")
            }
        }
        let served = try Served(api)
        folder.stop(server)
        return (folder, served)
    }

    @Test func aWholeStoreArchiveWithHistoryImportsIntoAnEmptySQLiteStore() throws {
        let (folder, served) = try Self.seededFolder()
        let file = folder.data.path + "/all.jsonl"
        let (exported, _, exportLog) = try folder.run(["export", "--data", folder.data.path, "--all", "--history", "--output", file])
        #expect(exported == 0, "\(exportLog)")
        #expect(exportLog == "exported 3 boards to \(file)\n")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3, "one line per board")

        let empty = try ArchiveFolder()
        let (imported, output, importLog) = try empty.run(["import", "--data", empty.data.path, file])
        #expect(imported == 0, "\(importLog)")
        #expect(
            output.split(separator: "\n").map { $0.prefix(while: { $0 != "," }) } == [
                "created board alpha at seq 12", "created board beta at seq 12", "created board demo at seq 0",
            ])
        let (server, api) = try empty.serve()
        defer { empty.stop(server) }
        #expect(try Served(api) == served)

        // A client of the old server resumes on the new one: same epoch, same log.
        let (old, _) = try folder.serve()
        let before = try BoardTestClient(port: try #require(old.waitForListeningPort()), board: "alpha", name: "Ada")
        folder.stop(old)
        let after = try BoardTestClient(port: try #require(server.waitForListeningPort()), board: "alpha", name: "Ada", resumeFrom: before)
        #expect(after.welcome.resumed)
        #expect(after.welcome.seq == 12)
    }

    @Test func aWholeStoreArchiveWithHistoryImportsIntoAnEmptyPostgreSQLStore() throws {
        let (folder, before) = try Self.seededFolder()
        let file = folder.data.path + "/all.jsonl"
        #expect(try folder.run(["export", "--data", folder.data.path, "--all", "--history", "--output", file]).0 == 0)

        let url = try PostgresCluster.shared().createDatabase()
        let (imported, _, importLog) = try folder.run(["import", "--store", "postgres", "--database-url", url, file])
        #expect(imported == 0, "\(importLog)")
        let server = try ServerProcess([
            "serve", "--port", "0", "--web-root", folder.webRoot.path, "--store", "postgres", "--database-url", url, "--no-demo",
        ])
        defer { folder.stop(server) }
        let api = BoardAPI(port: try #require(server.waitForListeningPort()))
        #expect(try Served(api) == before)

        // And back out of PostgreSQL: the same archive, line for line.
        let again = folder.data.path + "/again.jsonl"
        #expect(try folder.run(["export", "--store", "postgres", "--database-url", url, "--all", "--history", "--output", again]).0 == 0)
        #expect(try String(contentsOfFile: again, encoding: .utf8) == String(contentsOfFile: file, encoding: .utf8))
    }

    @Test func importWithURLSendsEveryBoardToARunningServer() throws {
        let (folder, served) = try Self.seededFolder()
        let file = folder.data.path + "/all.jsonl"
        #expect(try folder.run(["export", "--data", folder.data.path, "--all", "--history", "--output", file]).0 == 0)
        let running = try ArchiveFolder()
        let (server, api) = try running.serve()
        defer { running.stop(server) }
        let url = "http://127.0.0.1:\(api.port)"

        // The running server has a demo board of its own: refused without --replace (alpha and
        // beta, before it in the file, went in: each board is a request of its own).
        let (refused, _, refusal) = try running.run(["import", "--url", url, file])
        #expect(refused == 1)
        #expect(refusal.hasPrefix("corkboard: error: board \"demo\": \(url) answered 409: a board with this id already exists"), "\(refusal)")
        let (status, output, log) = try running.run(["import", "--url", url, "--replace", file])
        // Each board replaced, keeping the archive's seqs and log under a new epoch.
        #expect(status == 0, "\(log)")
        #expect(
            output.split(separator: "\n").map { $0.prefix(while: { $0 != "," }) } == [
                "replaced board alpha at seq 12", "replaced board beta at seq 12", "replaced board demo at seq 0",
            ])
        for id in ["alpha", "beta"] {
            #expect(try api.document(id).board == served.documents[id]?.board)
            #expect(try api.events(id) == served.logs[id])
        }
    }

    @Test func oneBoardWithHistoryReplacesABoardKeepingItsSeqsUnderANewEpoch() throws {
        let (folder, before) = try Self.seededFolder()
        let file = folder.data.path + "/alpha.json"
        #expect(try folder.run(["export", "--data", folder.data.path, "--board", "alpha", "--history", "-o", file]).0 == 0)
        let archive = try BoardArchive.decode(Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(archive.format == 2 && archive.history?.events.count == 12)

        // Move on past the export, then put the export back.
        let (server, api) = try folder.serve()
        #expect(try api.perform("alpha", OperationRequest(opId: "later", baseSeq: 12, .delete(items: ["alpha-0"]))).status == 200)
        folder.stop(server)
        let (imported, output, importLog) = try folder.run(["import", "--data", folder.data.path, file])
        #expect(imported == 0, "\(importLog)")
        #expect(output.hasPrefix("replaced board alpha at seq 12, epoch "))
        let (restarted, restartedAPI) = try folder.serve()
        defer { folder.stop(restarted) }
        let document = try restartedAPI.document("alpha")
        #expect(document.board == before.documents["alpha"]?.board && document.seq == 12)
        #expect(document.epoch != before.documents["alpha"]?.epoch, "a replaced board gets a new epoch")
        #expect(try restartedAPI.events("alpha") == before.logs["alpha"])
    }

    @Test func aHistoryThatDoesNotLeadToTheBoardIsRefusedBeforeAnythingIsWritten() throws {
        let (folder, _) = try Self.seededFolder()
        let file = folder.data.path + "/all.jsonl"
        #expect(try folder.run(["export", "--data", folder.data.path, "--all", "--history", "--output", file]).0 == 0)
        var archives = try BoardArchive.decodeAll(Data(contentsOf: URL(fileURLWithPath: file)))
        archives[1].history?.events.removeLast()
        let broken = try archives.map { try $0.encodedLine() }.reduce(Data(), +)
        let brokenFile = try folder.data.write("broken.jsonl", broken)
        let empty = try ArchiveFolder()
        let (status, _, log) = try empty.run(["import", "--data", empty.data.path, brokenFile])
        #expect(status == 1)
        #expect(log == "corkboard: error: board \"beta\" cannot be imported: history.events end at seq 11, not at the archive's seq 12\n")
        #expect(!FileManager.default.fileExists(atPath: empty.data.path + "/corkboard.sqlite"), "nothing written")

        let garbled = try folder.data.write("garbled.jsonl", String(decoding: try archives[0].encodedLine(), as: UTF8.self) + "{\"format\":1}\n")
        let (refused, _, refusal) = try empty.run(["import", "--data", empty.data.path, garbled])
        #expect(refused == 1)
        #expect(refusal == "corkboard: error: \(garbled) is not a board archive: line 2: the field \"board\" is missing\n")
    }
}
