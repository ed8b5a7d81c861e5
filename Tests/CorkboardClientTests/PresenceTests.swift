import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Two clients on one board see each other's changes and drags
/// (docs/protocol.md#6-presence-drag-state).
@Suite(.threadsOfTheirOwn) struct PresenceTests {
    /// Once with the single drag messages, once with every drag change in `drags` batches
    /// (a big audience's form): the client's events and peers are the same.
    @Test(arguments: [[], ["--drag-batch-members", "1"]])
    func twoClientsSeeEachOthersChangesAndDrags(serverOptions: [String]) async throws {
        let server = try CorkboardTestServer(extra: serverOptions)
        let ada = server.client(board: "demo", name: "Ada")
        let bob = server.client(board: "demo", name: "Bob")
        let seenByBob = EventRecorder(bob)
        let adaWelcome = try await ada.connect()
        let bobWelcome = try await bob.connect()
        #expect(bob.peers.map(\.client) == [adaWelcome.client])
        #expect(await eventuallyAsync { ada.peers.map(\.name) == ["Bob"] })

        // A change by one is in the other's replica.
        let move = await ada.move(["card-bot"], to: "done")
        let event = try #require(move.event)
        #expect(await seenByBob.first { if case .committed(let seen) = $0, seen == event { true } else { nil } } == true)
        #expect(await bob.waitForReplica { $0.seq == event.seq }?.board == ada.board)

        // Ada picks a card up: Bob sees the drag, then where it hovers.
        #expect(await ada.dragStart(["card-spec"]))
        let started = await seenByBob.first { if case .drag(let update) = $0, update.client == adaWelcome.client { update } else { nil } }
        #expect(started?.items == ["card-spec"])
        await ada.dragOver(collection: "done", index: 0)
        let over = await seenByBob.first { if case .dragOver(let client, let over) = $0, client == adaWelcome.client { over } else { nil } }
        #expect(over == DragTarget(collection: "done", index: 0, before: "card-start"))
        #expect(
            await eventuallyAsync {
                bob.peers.first?.drag == DragState(items: ["card-spec"], over: DragTarget(collection: "done", index: 0, before: "card-start"))
            })

        // The card is leased to Ada: Bob can neither move it nor pick it up.
        #expect(await bob.move(["card-spec"], to: "doing").rejection == .busy)
        let bobLooks = EventRecorder(bob)
        #expect(await bob.dragStart(["card-spec"]))
        let refused = await bobLooks.first { if case .dragRejected(let rejected) = $0 { rejected } else { nil } }
        #expect(refused?.code == .busy)
        #expect(refused?.holder == adaWelcome.client)

        // Ada drops it: the move commits, then the drag clears with "drop".
        let drop = await ada.move(["card-spec"], to: "done", before: "card-start")
        #expect(drop.isCommitted)
        let cleared = await seenByBob.first { if case .dragCleared(let client, let reason) = $0, client == adaWelcome.client { reason } else { nil } }
        #expect(cleared == .drop)
        let order = seenByBob.events.compactMap { event -> String? in
            switch event {
            case .committed(let committed) where committed.opId == drop.event?.opId: "committed"
            case .dragCleared(let client, _) where client == adaWelcome.client: "cleared"
            default: nil
            }
        }
        #expect(order == ["committed", "cleared"])

        // Ada leaves: Bob hears it.
        await ada.close()
        #expect(await seenByBob.first { if case .peerLeft(let client) = $0, client == adaWelcome.client { true } else { nil } } == true)
        #expect(bob.peers.isEmpty)
        #expect(bobWelcome.peers.count == 1)
        await bob.close()
    }

    /// A drag of columns: Bob sees which columns Ada holds and her placeholder among the
    /// columns; his move of the held column is busy; her move of it is the drop.
    @Test func aColumnDragIsSeenLiveAndItsColumnIsHeld() async throws {
        let server = try CorkboardTestServer()
        let ada = server.client(board: "demo", name: "Ada")
        let bob = server.client(board: "demo", name: "Bob")
        let seenByBob = EventRecorder(bob)
        let adaWelcome = try await ada.connect()
        try await bob.connect()
        #expect(await ada.dragStart(columns: ["todo"]))
        let started = await seenByBob.first { if case .drag(let update) = $0, update.client == adaWelcome.client { update } else { nil } }
        #expect(started?.collections == ["todo"] && started?.items == [])
        #expect(await ada.dragOver(columnIndex: 1))
        let over = await seenByBob.first { if case .dragOver(let client, let over) = $0, client == adaWelcome.client { over } else { nil } }
        #expect(over == DragTarget(collection: nil, index: 1, before: "done"))
        #expect(
            await eventuallyAsync {
                bob.peers.first?.drag
                    == DragState(items: [], collections: ["todo"], over: DragTarget(collection: nil, index: 1, before: "done"))
            })
        #expect(await bob.moveCollections(["todo"]).rejection == .busy)
        #expect(await ada.moveCollections(["todo"], before: "done").isCommitted)
        let cleared = await seenByBob.first { if case .dragCleared(let client, let reason) = $0, client == adaWelcome.client { reason } else { nil } }
        #expect(cleared == .drop)
        #expect(await eventuallyAsync { bob.peers.first?.drag == nil })
        await ada.close()
        await bob.close()
    }

    @Test func presenceIsNotSentWhileDisconnected() async throws {
        let server = try CorkboardTestServer()
        let client = server.client(board: "demo", name: "idle")
        #expect(await client.dragStart(["card-bot"]) == false)
        try await client.connect()
        #expect(await client.dragStart(["card-bot"]))
        let seen = EventRecorder(client)
        // A drag.over outside the list is an `error`, which a watcher sees.
        #expect(await client.dragOver(collection: "todo", index: 99))
        let error = await seen.first { if case .serverError(let error) = $0 { error } else { nil } }
        #expect(error?.code == .invalid)
        await client.close()
        #expect(await client.dragEnd() == false)
    }

    /// Editing marks: Bob hears Ada's, as an event and in `editing`, and hears it end.
    @Test func aClientMirrorsTheOthersEditingMarks() async throws {
        let server = try CorkboardTestServer()
        let ada = server.client(board: "demo", name: "Ada")
        let bob = server.client(board: "demo", name: "Bob")
        let seenByBob = EventRecorder(bob)
        let adaWelcome = try await ada.connect()
        _ = try await bob.connect()
        #expect(await ada.setEditing("card-spec"))
        let mark = await seenByBob.first { if case .editing(let client, let name, let item) = $0, client == adaWelcome.client { (name, item) } else { nil } }
        #expect(mark?.0 == "Ada" && mark?.1 == "card-spec")
        #expect(bob.editing[adaWelcome.client] == PeerEditing(client: adaWelcome.client, name: "Ada", item: "card-spec"))
        #expect(await ada.setEditing(nil))
        #expect(await eventuallyAsync { bob.editing.isEmpty })
        await ada.close()
        await bob.close()
    }
}
