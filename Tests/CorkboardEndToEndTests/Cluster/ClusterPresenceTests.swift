import CorkboardModel
import CorkboardWire
import Foundation
import Glibc
import TestSupport
import Testing

/// Drags across nodes: a member's drag reaches the members of every node, its items (or
/// columns) are leased in the database so no other node grants them, a drop's clear follows its commit
/// everywhere, and a killed node's drags end as `left` while its leases lapse.
@Suite(.threadsOfTheirOwn) struct ClusterPresenceTests {
    @Test(.runningTimeLimit(.minutes(3)))
    func aDragOnOneNodeIsSeenAndRespectedOnTheOthers() async throws {
        try await offPool {
            let databaseURL = try PostgresCluster.shared().createDatabase()
            let nodes = try ClusterNode.start(3, databaseURL: databaseURL)
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")
            let cy = try BoardTestClient(port: nodes[2].port, board: "board", name: "Cy")
            #expect(Set([ada.clientID, bob.clientID, cy.clientID]).count == 3, "client ids are unique across nodes")

            try ada.send(.dragStart(items: ["i1"]))
            for watcher in [bob, cy] {
                let update = try #require(try watcher.waitFor(type: "drag").dragUpdate)
                #expect(update.client == ada.clientID && update.name == "Ada" && update.items == ["i1"] && update.over == nil)
            }
            try ada.send(.dragOver(collection: "done", index: 1))
            let (mover, moved) = try #require(try bob.waitFor(type: "drag.over").dragOverTarget)
            #expect(mover == ada.clientID && moved == DragTarget(collection: "done", index: 1, before: "i7"))

            // The item is Ada's on every node: another node neither leases it nor moves it.
            try bob.send(.dragStart(items: ["i1"]))
            let busy = try #require(try bob.waitFor(type: "rejected").rejection)
            #expect(busy.code == .busy && busy.holder == ada.clientID)
            let refused = try bob.reject(.move(sources: ["i1"], destination: Destination(collection: "done")))
            #expect(refused.code == .busy)

            // The drop: committed first, then the clear, on every node.
            let drop = try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")))
            for watcher in [bob, cy] {
                _ = try watcher.waitFor(type: "drag.cleared")
                let events = watcher.log.compactMap { message -> Int? in
                    if case .committed(let event) = message, event.seq == drop.seq { return watcher.log.firstIndex(of: message) }
                    return nil
                }
                let clear = watcher.log.lastIndex { if case .dragCleared(ada.clientID, .drop) = $0 { true } else { false } }
                #expect(events.first != nil && clear != nil && events.first! < clear!, "\\(watcher.name): committed before drag.cleared")
            }
            // A new drag replaces Ada's old one in the database too: the new item stays leased.
            try ada.send(.dragStart(items: ["i2"]))
            try ada.send(.dragStart(items: ["i3"]))
            _ = try cy.waitFor("Ada's drag of i3") { if case .drag(let update) = $0 { update.items == ["i3"] } else { false } }
            let database = String(databaseURL.split(separator: "/").last!)
            #expect(
                try PostgresCluster.shared().psql("SELECT item, holder FROM lease ORDER BY item", database: database)
                    == "i3|\(ada.clientID)")
            try ada.send(.dragEnd)
            _ = try cy.waitFor("Ada's drag ends") { if case .dragCleared(ada.clientID, .cancel) = $0 { true } else { false } }

            // Released everywhere: Bob may take it now.
            try bob.send(.dragStart(items: ["i1"]))
            let bobs = try #require(try cy.waitFor(type: "drag").dragUpdate)
            #expect(bobs.client == bob.clientID)
            try bob.send(.dragEnd)
            _ = try ada.waitFor(type: "drag.cleared")
        }
    }

    /// A drag of columns reaches the other node with its columns, which that node then holds
    /// for its holder (and the database for every node): drag.start and collection.move of them are busy.
    @Test(.runningTimeLimit(.minutes(3)))
    func aDragOfColumnsOnOneNodeIsSeenAndRespectedOnTheOther() async throws {
        try await offPool {
            let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase())
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")
            try ada.send(.dragStartColumns(collections: ["todo"]))
            let update = try #require(try bob.waitFor(type: "drag").dragUpdate)
            #expect(update == DragUpdate(client: ada.clientID, name: "Ada", items: [], collections: ["todo"], over: nil))
            try ada.send(.dragOver(collection: nil, index: 0))
            let (mover, moved) = try #require(try bob.waitFor(type: "drag.over").dragOverTarget)
            #expect(mover == ada.clientID && moved == DragTarget(collection: nil, index: 0, before: "done"))

            #expect(try bob.reject(.moveCollections(collections: ["todo"], before: nil)).code == .busy)
            try bob.send(.dragStartColumns(collections: ["todo"]))
            let busy = try #require(try bob.waitFor(type: "rejected").rejection)
            #expect(busy.code == .busy && busy.holder == ada.clientID)

            let drop = try ada.commit(.moveCollections(collections: ["todo"], before: nil))
            _ = try bob.waitFor("Ada's drop") { if case .dragCleared(ada.clientID, .drop) = $0 { true } else { false } }
            let committed = bob.log.firstIndex { if case .committed(let event) = $0 { event.seq == drop.seq } else { false } }
            let cleared = bob.log.lastIndex { if case .dragCleared(ada.clientID, .drop) = $0 { true } else { false } }
            #expect(committed != nil && cleared != nil && committed! < cleared!, "committed before drag.cleared")
            try bob.commit(.moveCollections(collections: ["todo"], before: "done"))
        }
    }

    /// A column is leased in the database like an item: two members of two nodes starting a
    /// drag of it at once are granted it once, the other refused `busy` naming the winner.
    @Test(.runningTimeLimit(.minutes(3)))
    func twoNodesRacingForOneColumnGrantItOnce() async throws {
        try await raceTwoNodes(for: "column", targets: ["todo", "done"]) { .dragStartColumns(collections: [$0]) }
    }

    /// A node that opens the board during a drag of columns learns it from the database at
    /// the drag's next placeholder move, and holds its columns for its members from then on;
    /// before that, the database refuses them their drag.start all the same.
    @Test(.runningTimeLimit(.minutes(3)))
    func aNodeOpeningTheBoardDuringADragOfColumnsShowsIt() async throws {
        try await offPool {
            let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase())
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            let watcher = try BoardTestClient(port: nodes[0].port, board: "board", name: "Watcher")
            try ada.send(.dragStartColumns(collections: ["todo"]))
            _ = try watcher.waitFor(type: "drag")

            // Node 1 opens the board only now: it missed the start.
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")
            try bob.send(.dragStartColumns(collections: ["todo"]))
            let refused = try #require(try bob.waitFor(type: "rejected").rejection)
            #expect(refused.code == .busy && refused.holder == ada.clientID)

            try ada.send(.dragOver(collection: nil, index: 1))
            let isAdas: (ServerMessage) -> Bool = { if case .drag(let update) = $0 { update.client == ada.clientID } else { false } }
            // Node 1 may still hear the start (its notice can arrive after Bob's room opened):
            // then the drag comes without a placeholder, and the move follows it.
            let late = try bob.log.first(where: isAdas) ?? bob.waitFor("Ada's drag, late", isAdas)
            let learnt = try #require(late.dragUpdate)
            #expect(learnt.name == "Ada" && learnt.items == [] && learnt.collections == ["todo"])
            let index1 = DragTarget(collection: nil, index: 1, before: nil)
            if learnt.over != index1 {
                #expect(learnt.over == nil)
                #expect(try bob.waitFor(type: "drag.over") == .dragOver(client: ada.clientID, over: index1))
            }
            #expect(try bob.reject(.moveCollections(collections: ["todo"], before: nil)).code == .busy)

            // A newcomer on that node hears of it right after its welcome.
            let cy = try BoardTestClient(port: nodes[1].port, board: "board", name: "Cy")
            let known = try #require(try cy.nextMessage().dragUpdate, "no drag after the welcome: \(cy.log)")
            #expect(known.client == ada.clientID && known.collections == ["todo"])

            try ada.send(.dragEnd)
            _ = try bob.waitFor("Ada's drag ends") { if case .dragCleared(ada.clientID, .cancel) = $0 { true } else { false } }
            try bob.commit(.moveCollections(collections: ["todo"], before: nil))
        }
    }

    @Test(.runningTimeLimit(.minutes(3)))
    func twoNodesRacingForOneItemGrantItOnce() async throws {
        try await raceTwoNodes(for: "item", targets: ["i2", "i3", "i4", "i5", "i6"]) { .dragStart(items: [$0]) }
    }

    /// Ten rounds of Ada (node 0) and Bob (node 1) starting a drag of the same target at once:
    /// an observer sees the winner's drag and never the loser's, and the loser is refused
    /// `busy` naming the winner.
    private func raceTwoNodes(
        for kind: String, targets: [String], start: @escaping @Sendable (String) -> ClientMessage
    ) async throws {
        try await offPool {
            let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase())
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")
            let observer = try BoardTestClient(port: nodes[0].port, board: "board", name: "Observer")
            var wins: [String: Int] = [:]
            for round in 0..<10 {
                let target = targets[round % targets.count]
                try ada.send(start(target))
                try bob.send(start(target))
                let update = try #require(try observer.waitFor(type: "drag").dragUpdate)
                #expect((update.items + (update.collections ?? [])) == [target], "round \(round)")
                let (winner, loser) = update.client == ada.clientID ? (ada, bob) : (bob, ada)
                wins[winner.name, default: 0] += 1
                let refusal = try #require(try loser.waitFor(type: "rejected").rejection)
                #expect(refusal.ref == "drag.start" && refusal.code == .busy && refusal.holder == winner.clientID, "round \(round)")
                try winner.send(.dragEnd)
                let skippedBefore = observer.skipped.count
                let cleared = try #require(try observer.waitFor(type: "drag.cleared").dragClear)
                #expect(cleared.client == winner.clientID && cleared.reason == .cancel)
                let loserDrags = observer.skipped.dropFirst(skippedBefore).filter {
                    if case .drag(let other) = $0 { other.client == loser.clientID } else { false }
                }
                #expect(loserDrags.isEmpty, "round \(round): the loser's drag was shown too")
            }
            print("10 races for one \(kind) between two nodes: \(wins)")
        }
    }

    @Test(.runningTimeLimit(.minutes(3)))
    func aKilledNodesDragsEndAsLeftAndItsLeasesLapse() async throws {
        try await offPool {
            let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase())
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")
            try ada.send(.dragStart(items: ["i5"]))
            // Across nodes through NOTIFY: a loaded machine may take more than one read's 5 s.
            var started: ServerMessage?
            for _ in 0..<4 where started == nil { started = try? bob.waitFor(type: "drag") }
            try #require(started != nil, "Bob never heard Ada's drag")
            nodes[0].kill()
            // Heartbeats stop: within the node timeout (7 s) Bob's node ends Ada's drag.
            var cleared: ServerMessage?
            for _ in 0..<4 where cleared == nil {
                cleared = try? bob.waitFor(type: "drag.cleared")
            }
            let clear = try #require(cleared?.dragClear, "no drag.cleared after the node was killed")
            #expect(clear.client == ada.clientID && clear.reason == .left)
            // The lease in the database lapses too (10 s at most): Bob gets the item.
            let deadline = Date().addingTimeInterval(15)
            var granted = false
            while !granted && Date() < deadline {
                try bob.send(.dragStart(items: ["i5"]))
                let answer = try bob.sync()
                granted = !answer.contains { if case .rejected(let r) = $0, r.ref == "drag.start" { true } else { false } }
                if !granted { usleep(500_000) }
            }
            #expect(granted, "the dead node's lease never lapsed")
        }
    }
}
