import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Every operation of docs/protocol.md#4-operations through the typed API, with its committed,
/// noop and rejected answers.
@Suite(.threadsOfTheirOwn) struct OperationTests {
    @Test func everyOperationGivesItsAnswer() async throws {
        let server = try CorkboardTestServer(demo: false)
        try server.create(
            Board(
                id: "ops", title: "Ops",
                collections: [
                    BoardCollection(id: "a", title: "A", items: [Item(id: "a1", label: "1"), Item(id: "a2", label: "2"), Item(id: "a3", label: "3")]),
                    BoardCollection(id: "b", title: "B", items: [Item(id: "b1", label: "b")]),
                    BoardCollection(id: "c", title: "C"),
                ]))
        let client = server.client(board: "ops", name: "operator")
        try await client.connect()

        // Move by anchor, then the same move again: nothing to change.
        let moved = await client.move(["a1"], to: "b", before: "b1")
        #expect(moved.event?.seq == 1)
        #expect(moved.event?.op == .move(sources: ["a1"], destination: Destination(collection: "b", before: "b1")))
        #expect(moved.event?.adjusted == false)
        guard case .noop(let noop) = await client.move(["a1"], to: "b", before: "b1") else {
            Issue.record("expected a noop")
            return
        }
        #expect(noop.seq == 1)

        // Move by offsets: a is [a2, a3]; a2 to the end. Committed in anchor form.
        let offsets = await client.move(in: "a", fromOffsets: [0], toOffset: 2)
        #expect(offsets.event?.op == .move(sources: ["a2"], destination: Destination(collection: "a", before: nil)))
        #expect(await client.move(in: "a", fromOffsets: [7], toOffset: 0).rejection == .invalid)

        // Insert, and an id that exists.
        let item = Item(id: "n1", label: "new", data: ["points": .number(3)])
        #expect(await client.insert([item], into: "c").event?.op == .insert(items: [item], destination: Destination(collection: "c")))
        #expect(await client.insert([item], into: "c").rejection == .invalid)
        #expect(await client.insert([Item(id: "n2", label: "x")], into: "nowhere").rejection == .gone)

        // Update an item's label and data, remove its data; an item that is not there.
        #expect(await client.updateItem("n1", label: "renamed", data: .replace(["points": .number(5)])).isCommitted)
        #expect(await client.updateItem("n1", data: .remove).isCommitted)
        #expect(await client.updateItem("zzz", label: "x").rejection == .gone)

        // Rename a collection; add one, add it again, remove a full one, remove an empty one.
        #expect(await client.renameCollection("c", to: "Sea").isCommitted)
        #expect(await client.renameCollection("zzz", to: "x").rejection == .gone)
        #expect(await client.addCollection("d", title: "D", before: "a").event?.op == .addCollection(collection: "d", title: "D", before: "a"))
        #expect(await client.addCollection("d", title: "D").rejection == .invalid)
        #expect(await client.removeCollection("c").rejection == .invalid)
        #expect(await client.removeCollection("d").isCommitted)
        #expect(await client.removeCollection("d").rejection == .gone)

        // Rename the board itself (this client is an owner): its replica follows.
        #expect(await client.renameBoard(to: "Renamed").event?.op == .renameBoard(title: "Renamed"))
        #expect(client.board?.title == "Renamed")

        // Delete, and delete again; a move of nothing that exists.
        #expect(await client.delete(["n1"]).isCommitted)
        #expect(await client.delete(["n1"]).rejection == .gone)
        #expect(await client.move(["zzz"], to: "a").rejection == .gone)

        // Lock: everything else is rejected locked until the unlock.
        #expect(await client.lock().event?.op == .lock(locked: true))
        #expect(client.board?.locked == true)
        #expect(await client.move(["a1"], to: "a").rejection == .locked)
        #expect(await client.unlock().isCommitted)
        #expect(await client.move(["a1"], to: "a").isCommitted)

        // The replica is the server's board, and the answers' events are the server's log.
        let document = try server.document("ops")
        #expect(client.replica == Replica(board: document.board, seq: document.seq))
        #expect(document.board.collections.first { $0.id == "c" }?.title == "Sea")
        #expect(try server.events("ops").count == document.seq)
        await client.close()
    }

    @Test func aChosenOpIdIsAnsweredOnceAndRepeated() async throws {
        let server = try CorkboardTestServer()
        let first = server.client(board: "demo", name: "first")
        try await first.connect()
        let result = await first.move(["card-bot"], to: "done", opId: "script-1")
        await first.close()
        // Another process sends the same opId: the first outcome again, applied once.
        let second = server.client(board: "demo", name: "second")
        try await second.connect()
        let again = await second.move(["card-bot"], to: "todo", opId: "script-1")
        #expect(again == result)
        #expect(try server.document("demo").seq == 1)
        await second.close()
    }

    @Test func rateLimitedOperationsAreRetriedWithTheirOpIds() async throws {
        let server = try CorkboardTestServer(extra: ["--op-rate", "10"])
        var configuration = server.configuration(board: "demo", name: "hasty")
        configuration.maximumRetries = 30
        configuration.retryBackoff = Backoff(initial: 0.05, maximum: 0.3)
        let client = BoardClient(configuration)
        try await client.connect()
        let results = await withTaskGroup(of: OperationResult.self) { group in
            for index in 0..<25 {
                group.addTask {
                    await client.move([["card-spec", "card-bot", "card-drag"][index % 3]], to: ["todo", "doing", "done"][index % 3 == 0 ? 2 : 0])
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.rejection == nil && !$0.isUnanswered })
        let metrics = try server.get("/metrics").text
        #expect(metrics.contains("corkboard_ops_rejected_total{code=\"rate-limited\"}"))
        let committed = results.compactMap(\.event)
        #expect(Set(committed.map(\.opId)).count == committed.count)
        let document = try server.document("demo")
        #expect(committed.count == document.seq)
        _ = await client.waitForReplica { $0.seq == document.seq }
        #expect(client.replica == Replica(board: document.board, seq: document.seq))

        // Without retries the rejection is the answer.
        var impatient = server.configuration(board: "demo", name: "impatient")
        impatient.retriedRejections = []
        let other = BoardClient(impatient)
        try await other.connect()
        let burst = await withTaskGroup(of: OperationResult.self) { group in
            for index in 0..<40 { group.addTask { await other.move(["card-order"], to: index % 2 == 0 ? "todo" : "done") } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(burst.contains { $0.rejection == .rateLimited })
        await client.close()
        await other.close()
    }
}

extension OperationResult {
    var isUnanswered: Bool {
        if case .unanswered = self { return true }
        return false
    }
}
