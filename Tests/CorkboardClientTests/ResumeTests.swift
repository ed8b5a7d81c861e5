import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Reconnecting against the real server: resume from (epoch, seq), resend unanswered
/// operations with their opIds, nothing applied twice.
@Suite(.threadsOfTheirOwn) struct ResumeTests {
    @Test func droppedConnectionsResumeAndOperationsApplyOnce() async throws {
        let server = try CorkboardTestServer()
        // Through a proxy that breaks the connection as a network failure would (an RST each
        // way, no close frame).
        let proxy = try SeveringProxy(to: server.port)
        let client = server.client(board: "demo", name: "flaky", through: proxy)
        let seen = EventRecorder(client)
        try await client.connect()
        var results: [OperationResult] = []
        var severed = 0
        let cards = ["card-spec", "card-bot", "card-deflate", "card-invite", "card-drag", "card-order", "card-start"]
        for round in 0..<12 {
            // Someone else changes the board, so each resume has events to replay.
            _ = try server.perform(
                "demo",
                OperationRequest(
                    opId: "http-\(round)", baseSeq: try server.document("demo").seq,
                    .move(sources: [cards[(round + 3) % 7]], destination: Destination(collection: "doing"))))
            async let answer = client.move([cards[round % 7]], to: ["todo", "doing", "done"][round % 3])
            // Dropped before, while or after the operation goes out: the answer must come anyway.
            // (A round that finds the client still reconnecting from the last drop cuts nothing.)
            try await Task.sleep(for: .milliseconds(round % 4 * 2))
            severed += proxy.severAll()
            results.append(await answer)
        }
        #expect(severed > 0)
        #expect(results.allSatisfy { $0.isCommitted || { if case .noop = $0 { true } else { false } }($0) })
        let log = try server.events("demo")
        // Every opId once in the log, and each committed answer is the log's event.
        #expect(Set(log.map(\.opId)).count == log.count)
        for event in results.compactMap(\.event) { #expect(log[event.seq - 1] == event) }
        let document = try server.document("demo")
        #expect(await client.waitForReplica { $0.seq == document.seq } == Replica(board: document.board, seq: document.seq))
        // Every reconnect resumed, and the replica saw each seq exactly once (once the recorder,
        // a task of its own, has caught up with the client).
        _ = await seen.first { if case .committed(let event) = $0, event.seq == document.seq { true } else { nil } }
        #expect(seen.count { if case .welcome(let welcome) = $0 { welcome.resumed } else { false } } >= 1)
        let applied = seen.events.compactMap { if case .committed(let event) = $0 { event.seq } else { nil } }
        #expect(applied == Array(1...document.seq))
        await client.close()
        proxy.stop()
    }

    @Test func serverRestartIsResumedAndQueuedOperationsAreSentOnce() async throws {
        let server = try CorkboardTestServer()
        let client = server.client(board: "demo", name: "patient")
        let seen = EventRecorder(client)
        try await client.connect()
        #expect(await client.move(["card-bot"], to: "done").isCommitted)

        try await offPool { server.stop() }
        let code: UInt16? = await seen.first { if case .connection(.disconnected(let code, _)) = $0 { code } else { nil } }
        #expect(code == 1001)
        // Asked while the server is down: it waits, and is sent after the resume.
        async let queued = client.move(["card-spec"], to: "doing", before: "card-drag")
        try await Task.sleep(for: .milliseconds(100))
        #expect(client.pendingCount == 1)
        try await offPool { try server.start() }
        // A change by someone else right after the restart: replayed or live, seen once.
        _ = try server.perform(
            "demo", OperationRequest(opId: "http-after", baseSeq: 1, .move(sources: ["card-start"], destination: Destination(collection: "todo"))))
        let result = await queued
        #expect(result.isCommitted)
        // Waited for: the recorder is a task of its own and may not have caught up with the client.
        #expect(await seen.first { if case .welcome(let welcome) = $0, welcome.resumed { true } else { nil } } == true)

        let document = try server.document("demo")
        #expect(document.seq == 3)
        #expect(await client.waitForReplica { $0.seq == 3 } == Replica(board: document.board, seq: 3))
        #expect(try server.events("demo").filter { $0.opId == result.event?.opId }.count == 1)
        await client.close()
    }

    @Test func aReplacedBoardGivesAFreshSnapshot() async throws {
        let server = try CorkboardTestServer()
        let client = server.client(board: "demo", name: "survivor")
        let seen = EventRecorder(client)
        try await client.connect()
        #expect(await client.move(["card-bot"], to: "done").isCommitted)
        let oldEpoch = try #require(client.epoch)
        try await offPool {
            server.stop()
            // Export and import back: the same board with a new epoch (its history replaced).
            let export = try ServerProcess(["export", "--board", "demo", "--data", server.data.path])
            guard export.waitForExit() == 0 else { throw ClientTestFailure("export failed: \(export.standardError)") }
            let file = try server.data.write("demo-export.json", export.standardOutput)
            let importer = try ServerProcess(["import", file, "--data", server.data.path])
            guard importer.waitForExit() == 0 else { throw ClientTestFailure("import failed: \(importer.standardError)") }
            try server.start()
        }
        let welcome = await seen.first(timeout: 10) { if case .welcome(let welcome) = $0, welcome.epoch != oldEpoch { welcome } else { nil } }
        #expect(welcome?.resumed == false)
        let document = try server.document("demo")
        #expect(client.epoch == document.epoch)
        #expect(client.replica == Replica(board: document.board, seq: document.seq))
        #expect(await client.move(["card-bot"], to: "todo").isCommitted)
        await client.close()
    }

    @Test func givingUpClosesTheClientAndAnswersWaitingOperations() async throws {
        let server = try CorkboardTestServer()
        var configuration = server.configuration(board: "demo", name: "quitter")
        configuration.maximumReconnectAttempts = 3
        configuration.reconnectBackoff = Backoff(initial: 0.02, maximum: 0.05)
        let client = BoardClient(configuration)
        try await client.connect()
        try await offPool { server.stop() }
        let result = await client.move(["card-bot"], to: "done")
        guard case .unanswered(_, .gaveUp(let attempts, _)) = result else {
            Issue.record("expected gaveUp, got \(result)")
            return
        }
        #expect(attempts == 3)
        guard case .closed(.gaveUp?) = client.state else {
            Issue.record("expected closed, got \(client.state)")
            return
        }
    }
}
