import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `corkboard export` and `corkboard import` as a user runs them, against the data folder
/// of a real `corkboard serve`.
@Suite(.threadsOfTheirOwn) struct ArchiveCommandTests {
    let folder: ArchiveFolder
    var data: TemporaryDirectory { folder.data }

    init() throws {
        folder = try ArchiveFolder()
    }

    private func serve() throws -> (ServerProcess, BoardAPI) { try folder.serve() }
    private func run(_ arguments: [String]) throws -> (Int32?, String, String) { try folder.run(arguments) }
    private func stop(_ process: ServerProcess) { folder.stop(process) }

    @Test func exportWhileServingThenImportOverTheBoardGivesItANewEpoch() throws {
        let (server, api) = try serve()
        var demo = try api.document("demo")
        let moved = try api.perform(
            "demo",
            OperationRequest(
                opId: "m1", baseSeq: demo.seq, .move(sources: [demo.board.collections[0].items[0].id], destination: Destination(collection: "done"))))
        #expect(moved.status == 200)
        demo = try api.document("demo")

        // Export beside the running server: the board as the server has it.
        let file = data.path + "/demo.json"
        let (exported, _, exportLog) = try run(["export", "--data", data.path, "--board", "demo", "--output", file])
        #expect(exported == 0, "\(exportLog)")
        let archive = try BoardArchive.decode(Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(archive.board == demo.board && archive.seq == demo.seq && archive.epoch == demo.epoch)

        // Import needs the folder to itself.
        let (refused, _, refusal) = try run(["import", "--data", data.path, file])
        #expect(refused == 1)
        #expect(refusal.hasPrefix("corkboard: error: the data directory \(data.path) is in use by another corkboard process"))
        stop(server)

        // Over the existing board: same content, a new epoch and a higher seq, so clients
        // holding the old (epoch, seq) reload instead of resuming into a different history.
        let (imported, output, importLog) = try run(["import", "--data", data.path, file])
        #expect(imported == 0, "\(importLog)")
        #expect(output.hasPrefix("replaced board demo at seq \(demo.seq + 1), epoch "))
        let (restarted, restartedAPI) = try serve()
        defer { stop(restarted) }
        let after = try restartedAPI.document("demo")
        #expect(after.board == demo.board)
        #expect(after.seq == demo.seq + 1)
        #expect(after.epoch != demo.epoch)
        let client = try BoardTestClient(
            port: try #require(restarted.waitForListeningPort()), board: "demo", name: "Ada",
            resume: ResumePoint(epoch: demo.epoch, seq: demo.seq))
        #expect(!client.welcome.resumed, "an old epoch gets a snapshot")
        #expect(client.board == demo.board)
    }

    /// A board with folders, changed by folder operations, comes back whole after a restart,
    /// and after an export and an import into an empty data folder.
    @Test func foldersSurviveARestartAndAnExportAndImport() throws {
        let (server, api) = try serve()
        let folders = Board(
            id: "shelf", title: "Shelf",
            collections: [
                BoardCollection(
                    id: "todo", title: "To do", items: [Item(id: "t1", label: "One"), Item(id: "f1", label: "Ideas", folder: Folder())])
            ],
            folders: ["f1": [Item(id: "a1", label: "Inside", data: ["n": .number(1)])]])
        _ = try api.createBoard(folders)
        let operations: [RequestedOperation] = [
            .insert(items: [Item(id: "f2", label: "Later", folder: Folder(accepts: false))], destination: Destination(collection: "f1")),
            .move(sources: ["t1"], destination: Destination(collection: "f1", before: "a1")),
            .updateFolder(item: "f2", accepts: true),
            .move(sources: ["a1"], destination: Destination(collection: "f2")),
        ]
        for (seq, operation) in operations.enumerated() {
            #expect(try api.perform("shelf", OperationRequest(opId: "f-\(seq)", baseSeq: seq, operation)).status == 200)
        }
        let before = try api.document("shelf")
        #expect(before.board.folders["f2"]?.map(\.id) == ["a1"])
        stop(server)

        let (restarted, restartedAPI) = try serve()
        #expect(try restartedAPI.document("shelf") == before)
        stop(restarted)

        let file = data.path + "/shelf.json"
        let (exported, _, exportLog) = try run(["export", "--data", data.path, "--board", "shelf", "--output", file])
        #expect(exported == 0, "\(exportLog)")
        let elsewhere = try ArchiveFolder()
        let (imported, _, importLog) = try elsewhere.run(["import", "--data", elsewhere.data.path, file])
        #expect(imported == 0, "\(importLog)")
        let (other, otherAPI) = try elsewhere.serve()
        defer { elsewhere.stop(other) }
        let after = try otherAPI.document("shelf")
        #expect(after.board == before.board && after.seq == before.seq)
    }

    @Test func importingANewBoardKeepsItsSeqAndEpoch() throws {
        let board = Board(
            id: "seeded", title: "Seeded",
            collections: [
                BoardCollection(id: "todo", title: "To do", items: [Item(id: "a", label: "A"), Item(id: "b", label: "B")])
            ])
        let file = data.path + "/seeded.json"
        try BoardArchive(board: board, seq: 7, epoch: "0123456789abcdef").encoded().write(to: URL(fileURLWithPath: file))
        let (status, output, log) = try run(["import", "--data", data.path, file])
        #expect(status == 0, "\(log)")
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "created board seeded at seq 7, epoch 0123456789abcdef")
        let (server, api) = try serve()
        defer { stop(server) }
        let document = try api.document("seeded")
        #expect(document.board == board && document.seq == 7 && document.epoch == "0123456789abcdef")
        #expect(try api.perform("seeded", OperationRequest(opId: "x", baseSeq: 7, .delete(items: ["a"]))).status == 200)
        #expect(try api.document("seeded").seq == 8)
    }

    @Test func badInputIsAOneLineError() throws {
        let empty = try run(["export", "--data", data.path, "--board", "demo"])
        #expect(empty.0 == 1)
        #expect(empty.2 == "corkboard: error: there is no corkboard database at \(data.path)/corkboard.sqlite\n")
        let file = try data.write("bad.json", #"{"format":1,"seq":0}"#)
        let bad = try run(["import", "--data", data.path, file])
        #expect(bad.0 == 1)
        #expect(bad.2 == "corkboard: error: \(file) is not a board archive: the field \"board\" is missing\n")
        let newer = try data.write("newer.json", #"{"format":99,"seq":0,"board":{"id":"x","title":"X","locked":false,"collections":[]}}"#)
        let refused = try run(["import", "--data", data.path, newer])
        #expect(refused.0 == 1)
        #expect(refused.2.contains("archive format 99 is not supported"))
        let good = try data.write("good.json", #"{"format":1,"seq":0,"board":{"id":"x","title":"X","locked":false,"collections":[]}}"#)
        #expect(try run(["import", "--data", data.path, good]).0 == 0)
        let missing = try run(["export", "--data", data.path, "--board", "nope"])
        #expect(missing.0 == 1)
        #expect(missing.2 == "corkboard: error: there is no board \"nope\" in \(data.path)/corkboard.sqlite\n")
    }
}
