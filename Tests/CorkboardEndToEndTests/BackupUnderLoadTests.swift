import CorkboardModel
import CorkboardWire
import Foundation
import Synchronization
import TestSupport
import Testing

/// `corkboard backup` taken while clients commit, and `corkboard restore` of it into an empty
/// data folder: every operation acknowledged before the backup started is in the restored
/// store, at its seq, and the restored store is consistent.
@Suite(.threadsOfTheirOwn) struct BackupUnderLoadTests {
    /// One acknowledged operation: the board, the seq it was committed at, its opId.
    struct Acknowledged: Hashable {
        var board: String
        var seq: Int
        var opId: String
    }

    /// What the writers share: what was acknowledged, what went wrong, and when to stop.
    final class Load: Sendable {
        let acknowledged = Mutex<[Acknowledged]>([])
        let failures = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
    }

    static let boards = ["load-a", "load-b"]
    static let writers = 4
    /// Each writer's bound, whatever happens: the load always ends.
    static let operationsPerWriter = 1_500

    @Test func everyOperationAcknowledgedBeforeTheBackupIsInTheRestoredStore() throws {
        let folder = try ArchiveFolder()
        let server = try ServerProcess([
            "serve", "--port", "0", "--web-root", folder.webRoot.path, "--data", folder.data.path, "--op-rate", "0",
            "--op-byte-rate", "0",
        ])
        let api = BoardAPI(port: try #require(server.waitForListeningPort()))
        var initial: [String: BoardDocument] = [:]
        for id in Self.boards {
            let board = Board(
                id: id, title: id, collections: [BoardCollection(id: "todo", title: "To do"), BoardCollection(id: "done", title: "Done")])
            initial[id] = try api.createBoard(board)
        }

        // The load: each writer inserts one new card per request into its board, as fast as
        // the server answers, and records each commit it was told of.
        let load = Load()
        let finished = DispatchGroup()
        for writer in 0..<Self.writers {
            let board = Self.boards[writer % Self.boards.count]
            finished.enter()
            Thread {
                defer { finished.leave() }
                var baseSeq = 0
                for number in 0..<Self.operationsPerWriter where !load.stop.load(ordering: .relaxed) {
                    let opId = "w\(writer)-\(number)"
                    let request = OperationRequest(
                        opId: opId, baseSeq: baseSeq,
                        .insert(items: [Item(id: opId, label: "card \(number)")], destination: Destination(collection: "todo")))
                    do {
                        let response = try api.perform(board, request)
                        guard response.status == 200, case .committed(let event) = try response.message() else {
                            load.failures.withLock { $0.append("\(opId): \(response)") }
                            return
                        }
                        baseSeq = event.seq
                        load.acknowledged.withLock { $0.append(Acknowledged(board: board, seq: event.seq, opId: opId)) }
                    } catch {
                        load.failures.withLock { $0.append("\(opId): \(error)") }
                        return
                    }
                }
            }.start()
        }
        func count() -> Int { load.acknowledged.withLock { $0.count } }

        // The backup, in the middle of the load.
        #expect(eventually(timeout: 60) { count() >= 300 || load.failures.withLock { !$0.isEmpty } })
        let beforeBackup = load.acknowledged.withLock { $0 }
        let backups = try TemporaryDirectory("corkboard-backups")
        let file = backups.path + "/store.sqlite"
        let (status, output, log) = try folder.run(["backup", "--data", folder.data.path, "--output", file])
        let afterBackup = count()
        #expect(status == 0, "\(log)")
        #expect(output.hasPrefix("backed up 3 boards to \(file)\n"), "\(output)")

        // The load goes on after it, then stops.
        #expect(eventually(timeout: 60) { count() >= afterBackup + 300 || load.failures.withLock { !$0.isEmpty } })
        load.stop.store(true, ordering: .relaxed)
        #expect(finished.wait(timeout: .now() + 60) == .success)
        #expect(load.failures.withLock { $0 }.isEmpty)
        #expect(beforeBackup.count >= 300)
        folder.stop(server)

        // Restore into a data folder that does not exist yet, and serve it.
        let restored = try ArchiveFolder()
        let target = restored.data.path + "/restored"
        let (restoredStatus, restoredOutput, restoredLog) = try restored.run(["restore", "--data", target, file])
        #expect(restoredStatus == 0, "\(restoredLog)")
        #expect(restoredOutput.hasPrefix("restored 3 boards into \(target) (each with a fresh epoch)\n"), "\(restoredOutput)")
        let restoredServer = try ServerProcess(["serve", "--port", "0", "--web-root", restored.webRoot.path, "--data", target])
        defer { restored.stop(restoredServer) }
        let restoredAPI = BoardAPI(port: try #require(restoredServer.waitForListeningPort()))

        for id in Self.boards {
            let document = try restoredAPI.document(id)
            let log = try restoredAPI.events(id)
            // The log is whole (seqs 1 … seq, no gap) and the board is its fold.
            #expect(log.map(\.seq) == Array(stride(from: 1, through: document.seq, by: 1)), "board \(id)")
            var folded = try #require(initial[id]).board
            for event in log { try folded.apply(event.op) }
            #expect(folded == document.board, "board \(id) is not the fold of its log")
            #expect(document.epoch != initial[id]?.epoch, "a restored board gets a fresh epoch")
            // Every operation acknowledged before the backup started is there, at its seq.
            for operation in beforeBackup where operation.board == id {
                #expect(
                    log.indices.contains(operation.seq - 1) && log[operation.seq - 1].opId == operation.opId,
                    "\(operation.opId), acknowledged at seq \(operation.seq) of \(id) before the backup, is missing")
            }
        }
        #expect(try restoredAPI.get("/api/boards").decode(BoardList.self).boards.map(\.id) == ["demo"] + Self.boards)
    }

    @Test func restoreRefusesTheFolderOfARunningServerAndOneHoldingADatabase() throws {
        let folder = try ArchiveFolder()
        let (server, _) = try folder.serve()
        let backups = try TemporaryDirectory("corkboard-backups")
        let file = backups.path + "/store.sqlite"
        #expect(try folder.run(["backup", "--data", folder.data.path, "--output", file]).0 == 0)
        let (busy, _, busyLog) = try folder.run(["restore", "--data", folder.data.path, file])
        #expect(busy == 1)
        #expect(busyLog.hasPrefix("corkboard: error: the data directory \(folder.data.path) is in use by another corkboard process"), "\(busyLog)")
        folder.stop(server)
        let (full, _, fullLog) = try folder.run(["restore", "--data", folder.data.path, file])
        #expect(full == 1)
        #expect(fullLog.hasPrefix("corkboard: error: the data directory \(folder.data.path) already holds a database"), "\(fullLog)")
        let (missing, _, missingLog) = try folder.run(["backup", "--data", folder.data.path + "/nothing", "--output", file])
        #expect(missing == 1)
        #expect(missingLog == "corkboard: error: there is no corkboard database at \(folder.data.path)/nothing/corkboard.sqlite\n")
    }
}
