import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// A drag whose item list does not fit in one PostgreSQL notification (under 8,000 bytes),
/// seen on the other nodes all the same: its items once, then placeholder moves; by a node
/// that opened the board after the drag began; and by a member who joins a node that knows it.
/// The same for a drag of columns whose start is too long.
@Suite(.threadsOfTheirOwn) struct ClusterLargeDragTests {
    /// "a" holds 100 items with 128-byte ids (about 13 KB of ids), "b" three short ones.
    static let board: Board = {
        let long = (0..<100).map { index in
            let id = "a-\(index)-"
            return Item(id: id + String(repeating: "x", count: Limits.maximumIDBytes - id.utf8.count), label: "A\(index)")
        }
        return Board(
            id: "board", title: "Long ids",
            collections: [
                BoardCollection(id: "a", title: "A", items: long),
                BoardCollection(id: "b", title: "B", items: [Item(id: "b1", label: "B1"), Item(id: "b2", label: "B2"), Item(id: "b3", label: "B3")]),
            ])
    }()

    /// 70 columns with 128-byte ids (about 9 KB of ids) and a column "b".
    static let wideBoard: Board = {
        let long = (0..<70).map { index in
            let id = "col-\(index)-"
            return BoardCollection(id: id + String(repeating: "x", count: Limits.maximumIDBytes - id.utf8.count), title: "C\(index)")
        }
        return Board(id: "board", title: "Long column ids", collections: long + [BoardCollection(id: "b", title: "B")])
    }()

    /// A drag of columns whose start does not fit in one notification reaches the other node
    /// all the same: its columns read from the database's leases, held there from then on.
    @Test(.runningTimeLimit(.minutes(3)))
    func aLongDragOfColumnsReachesTheOtherNode() async throws {
        try await offPool {
            let databaseURL = try PostgresCluster.shared().createDatabase()
            let nodes = try (0..<2).map { _ in try ClusterNode(databaseURL: databaseURL) }
            _ = try BoardAPI(port: nodes[0].port).createBoard(Self.wideBoard)
            let columns = Self.wideBoard.collections.dropLast().map(\.id)
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")

            try ada.send(.dragStartColumns(collections: columns))
            let started = try bob.waitFor("Ada's drag") { if case .drag(let update) = $0 { update.client == ada.clientID } else { false } }
            #expect(started == .drag(DragUpdate(client: ada.clientID, name: "Ada", items: [], collections: columns, over: nil)))
            #expect(try bob.reject(.moveCollections(collections: [columns[3]], before: nil)).code == .busy)
            try bob.send(.dragStartColumns(collections: [columns[5]]))
            let busy = try #require(try bob.waitFor(type: "rejected").rejection)
            #expect(busy.code == .busy && busy.holder == ada.clientID)

            try ada.send(.dragEnd)
            _ = try bob.waitFor("Ada's drag ends") { if case .dragCleared(ada.clientID, .cancel) = $0 { true } else { false } }
            try bob.commit(.moveCollections(collections: [columns[3]], before: nil))
        }
    }

    @Test(.runningTimeLimit(.minutes(3)))
    func aLongDragReachesEveryNodeEvenOneThatOpenedTheBoardLater() async throws {
        try await offPool {
            let databaseURL = try PostgresCluster.shared().createDatabase()
            let nodes = try (0..<3).map { _ in try ClusterNode(databaseURL: databaseURL) }
            _ = try BoardAPI(port: nodes[0].port).createBoard(Self.board)
            let items = Self.board.ids("a")
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")

            try ada.send(.dragStart(items: items))
            let started = try bob.waitFor("Ada's drag") { if case .drag(let update) = $0 { update.client == ada.clientID } else { false } }
            #expect(started == .drag(DragUpdate(client: ada.clientID, name: "Ada", items: items, over: nil)))
            try ada.send(.dragOver(collection: "b", index: 1))
            #expect(
                try bob.waitFor(type: "drag.over")
                    == .dragOver(client: ada.clientID, over: DragTarget(collection: "b", index: 1, before: "b2")))

            // Node 2 opens the board only now: it missed the start, and learns the drag from
            // its next placeholder move (the items read from the leases).
            let cy = try BoardTestClient(port: nodes[2].port, board: "board", name: "Cy")
            try ada.send(.dragOver(collection: "b", index: 2))
            let late = try cy.waitFor("Ada's drag, late") { if case .drag(let update) = $0 { update.client == ada.clientID } else { false } }
            // Node 2 may still hear the first placeholder move (its NOTIFY can arrive after Cy's
            // room opened): then the drag comes at index 1 and the second move follows it.
            let index2 = DragTarget(collection: "b", index: 2, before: "b3")
            let learnt = try #require(late.dragUpdate)
            #expect(learnt.items == items && learnt.name == "Ada")
            if learnt.over != index2 {
                #expect(learnt.over == DragTarget(collection: "b", index: 1, before: "b2"))
                #expect(try cy.waitFor(type: "drag.over") == .dragOver(client: ada.clientID, over: index2))
            }
            #expect(try cy.reject(.move(sources: [items[7]], destination: Destination(collection: "b"))).code == .busy)

            // A newcomer on a node that knows the drag hears of it right after its welcome.
            _ = try bob.waitFor(type: "drag.over")
            let dan = try BoardTestClient(port: nodes[1].port, board: "board", name: "Dan")
            let known = try #require(try dan.nextMessage().dragUpdate, "no drag after the welcome: \(dan.log)")
            #expect(known == DragUpdate(client: ada.clientID, name: "Ada", items: items, over: DragTarget(collection: "b", index: 2, before: "b3")))

            // Each of them sees the item list once, and the drag end once.
            try ada.send(.dragEnd)
            for watcher in [bob, cy, dan] {
                _ = try watcher.waitFor("Ada's drag ends") { if case .dragCleared(ada.clientID, .cancel) = $0 { true } else { false } }
                let lists = watcher.log.filter { if case .drag(let update) = $0 { update.client == ada.clientID } else { false } }
                #expect(lists.count == 1, "\(watcher.name) received Ada's items \(lists.count) times")
            }
            try cy.commit(.move(sources: [items[7]], destination: Destination(collection: "b")))
        }
    }
}
