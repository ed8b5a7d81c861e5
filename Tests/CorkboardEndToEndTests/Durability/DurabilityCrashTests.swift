import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Issue #8's crash test: a real `corkboard serve` is killed with SIGKILL while several
/// clients pipeline operations, then started again on the same folder. Whatever any client
/// saw `committed` (its own answers and others' broadcasts) was durable before it was sent,
/// so it must all be there after the restart, at the same seq, and the rest of the history
/// must be whole: no gap, no opId twice, no half-applied operation.
///
/// SIGKILL is a process crash: both `--sync full` and `--sync normal` survive it (the WAL
/// is in the OS's hands once a transaction commits), so both are run.
@Suite(.threadsOfTheirOwn) struct DurabilityCrashTests {
    static let initial = HubFixture.grid(collections: 4, itemsEach: 8)
    /// The kill comes once some client has seen this many commits.
    static let killAfter = 300
    static let clients = 4
    /// Operations each client keeps in flight.
    static let window = 8

    @Test(arguments: ["full", "normal"])
    func everythingSeenCommittedBeforeASIGKILLIsInTheRestartedHistory(sync: String) throws {
        let data = try TemporaryDirectory("corkboard-crash")
        let webRoot = try durabilityWebRoot()
        let first = try ServedChild(data: data.path, webRoot: webRoot.path, sync: sync)
        try first.api.createBoard(Self.initial)

        let killed = Locked(false)
        let highestSeen = Locked(0)
        let workers = try (0..<Self.clients).map { try PipeliningWorker(port: first.port, name: "w\($0)") }
        let running = DispatchGroup()
        for worker in workers {
            running.enter()
            Thread {
                defer { running.leave() }
                worker.run(killed: killed, highestSeen: highestSeen)
            }.start()
        }
        // Kill only after the clients have seen commits (not after some time), while every
        // client still has operations in flight (each keeps its window full until its
        // connection dies).
        let enough = eventually(timeout: 20) { highestSeen.withLock { $0 } >= Self.killAfter }
        killed.withLock { $0 = true }
        try first.crash()
        try #require(enough, "the clients saw \(Self.killAfter) commits within 20 s (saw \(highestSeen.withLock { $0 }))")
        // (Their state is read below only once their threads are done.)
        try #require(running.wait(timeout: .now() + 20) == .success, "every client noticed the crash")
        for worker in workers {
            #expect(worker.failures.isEmpty, "\(worker.client.name): \(worker.failures)")
        }
        let inFlight = workers.reduce(0) { $0 + $1.outstanding.count }
        #expect(inFlight > 0, "operations were still in flight at the kill")

        // A clean close checkpoints and removes the WAL; a killed server leaves it behind, so
        // the restart below has to recover from it.
        #expect(FileManager.default.fileExists(atPath: data.path + "/corkboard.sqlite-wal"))

        let second = try ServedChild(data: data.path, webRoot: webRoot.path, sync: sync)
        defer { second.stop() }
        let (history, document) = try Durability.expectConsistentHistory(second.api, board: Self.initial.id, from: Self.initial)
        let created = workers[0].client.welcome.epoch
        #expect(document.epoch == created, "a crash and a restart never change the epoch")

        // Every event any client saw is in the history at its seq, identical.
        var seen = 0
        for worker in workers {
            for event in worker.client.events {
                seen += 1
                guard event.seq >= 1, event.seq <= history.count else {
                    Issue.record("\(worker.client.name) saw seq \(event.seq) committed, but the restarted history ends at \(history.count)")
                    continue
                }
                #expect(history[event.seq - 1] == event, "seq \(event.seq) as \(worker.client.name) saw it")
            }
        }
        #expect(seen >= Self.killAfter)
        #expect(history.count >= workers.map(\.client.seq).max() ?? 0)

        // Sent again after the restart, from a new connection (a client retrying after it
        // lost the server): an operation it saw committed gets its first outcome, an operation
        // whose answer was lost in the crash gets its durable outcome if it has one, and
        // otherwise is resolved anew — never applied twice.
        let retry = try BoardTestClient(port: second.port, board: Self.initial.id, name: "retry")
        let historyByOpId = Dictionary(history.map { ($0.opId, $0) }, uniquingKeysWith: { first, _ in first })
        for worker in workers {
            for (opId, answer) in worker.answers.suffix(3) {
                guard case .committed(let event) = answer, let request = worker.sent[opId] else { continue }
                #expect(try retry.perform(request) == .committed(event), "\(opId) sent again after the crash")
            }
            for opId in worker.outstanding.sorted() {
                guard let request = worker.sent[opId] else { continue }
                let answer = try retry.perform(request)
                if let durable = historyByOpId[opId] {
                    #expect(answer == .committed(durable), "\(opId) was durable before the crash: its first outcome")
                } else if case .committed(let event) = answer {
                    #expect(event.seq > history.count, "\(opId) was lost in the crash: resolved anew, after the old history")
                }
            }
        }
        let after = try Durability.expectConsistentHistory(second.api, board: Self.initial.id, from: Self.initial)
        #expect(Array(after.history.prefix(history.count)) == history, "the retries only appended")
        try retry.waitUntilSeq(after.document.seq)
        #expect(retry.board == after.document.board)
        // Closed before the deferred SIGTERM, which would otherwise wait for its close handshake.
        try retry.close()
    }
}

/// One client of the crash test on its own thread: keeps `window` moves and inserts in
/// flight, reads everything (its answers and the others' broadcasts, all applied to its
/// replica, which checks every step), and stops when its connection dies.
final class PipeliningWorker: @unchecked Sendable {
    let client: BoardTestClient
    /// Every request sent, by opId.
    private(set) var sent: [OperationID: OperationRequest] = [:]
    /// Sent, not yet answered.
    private(set) var outstanding: Set<OperationID> = []
    /// The answer to each of this client's operations, in the order they came.
    private(set) var answers: [(OperationID, ServerMessage)] = []
    /// What went wrong before the crash, or in a way a crash does not explain.
    private(set) var failures: [String] = []
    private var inserted = 0
    /// A bound on the operations one client sends, in case the kill never comes.
    static let maxOperations = 20_000

    init(port: UInt16, name: String) throws {
        client = try BoardTestClient(port: port, board: DurabilityCrashTests.initial.id, name: name)
    }

    func run(killed: Locked<Bool>, highestSeen: Locked<Int>) {
        do {
            while sent.count < Self.maxOperations {
                while outstanding.count < DurabilityCrashTests.window && sent.count < Self.maxOperations {
                    let request = client.request(nextOperation())
                    sent[request.opId] = request
                    outstanding.insert(request.opId)
                    try client.send(.operation(request))
                }
                let message = try client.nextMessage()
                if let opId = message.opId, outstanding.remove(opId) != nil {
                    answers.append((opId, message))
                    if case .rejected(let rejected) = message {
                        failures.append("\(opId) was rejected: \(rejected.code) \(rejected.message ?? "")")
                    }
                }
                let seq = client.seq
                highestSeen.withLock { $0 = max($0, seq) }
            }
            failures.append("sent \(Self.maxOperations) operations without the server being killed")
        } catch {
            let text = "\(error)"
            // A replica that lost step or a message that does not decode is a failure even
            // after the kill; the connection ending is only expected after it.
            if !killed.withLock({ $0 }) || text.contains("does not follow") || text.contains("undecodable") {
                failures.append("ended by: \(text)")
            }
        }
    }

    /// A move of a random item (to a random place; items are never deleted, so it exists)
    /// or an insert of a new item, against this client's replica.
    private func nextOperation() -> RequestedOperation {
        let board = client.board
        let collection = board.collections.randomElement()!
        if Int.random(in: 0..<4) == 0 {
            inserted += 1
            return .insert(
                items: [Item(id: "\(client.name)-new-\(inserted)", label: "New \(inserted)")],
                destination: Destination(collection: collection.id, before: collection.items.randomElement()?.id))
        }
        let item = board.allItemIDs.randomElement()!
        let before = Bool.random() ? collection.items.randomElement()?.id : nil
        return .move(sources: [item], destination: Destination(collection: collection.id, before: before))
    }
}
