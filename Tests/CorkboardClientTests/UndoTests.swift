import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// A bot's undo and redo over a real server: new operations, resolved against the board as it
/// is when asked, that every member sees; only the bot's own steps.
@Suite(.threadsOfTheirOwn) struct UndoTests {
    static let board = Board(
        id: "undo", title: "Undo",
        collections: [
            BoardCollection(
                id: "todo", title: "To do",
                items: [Item(id: "a", label: "A"), Item(id: "b", label: "Write the bot", data: ["color": .string("red")]), Item(id: "c", label: "C")]),
            BoardCollection(id: "done", title: "Done"),
        ])

    static func ids(_ board: Board?, _ collection: CollectionID) -> [ItemID] {
        board?.collections.first { $0.id == collection }?.items.map(\.id) ?? []
    }

    @Test func aDeletedCardComesBackWithItsIdLabelAndDataForEveryone() async throws {
        let server = try CorkboardTestServer(demo: false)
        try server.create(Self.board)
        let bot = server.client(board: "undo", name: "bot")
        let watcher = server.client(board: "undo", name: "watcher")
        try await bot.connect()
        try await watcher.connect()

        #expect(await bot.delete(["b"]).isCommitted)
        #expect(bot.canUndo)
        let undone = await bot.undo()
        #expect(undone.succeeded, "\(undone)")
        let restored = await watcher.waitForReplica { Self.ids($0.board, "todo") == ["a", "b", "c"] }
        let item = restored?.board.collections[0].items[1]
        #expect(item == Item(id: "b", label: "Write the bot", data: ["color": .string("red")]))
        #expect(try server.document("undo").board.collections[0].items[1] == item)

        // Redo deletes it again; then there is nothing more to redo.
        #expect(await bot.redo().succeeded)
        #expect(await watcher.waitForReplica { Self.ids($0.board, "todo") == ["a", "c"] } != nil)
        #expect(!bot.canRedo)
        #expect(await bot.redo() == .nothingToDo)
        await bot.close()
        await watcher.close()
    }

    @Test func aMoveGoesBackBeforeItsNeighbourAfterOthersChangedTheBoard() async throws {
        let server = try CorkboardTestServer(demo: false)
        try server.create(Self.board)
        let bot = server.client(board: "undo", name: "bot")
        let other = server.client(board: "undo", name: "other")
        try await bot.connect()
        try await other.connect()

        #expect(await bot.move(["b"], to: "done").isCommitted)
        // Someone else moves the neighbour that followed b to the top, and adds a card.
        #expect(await other.move(["c"], to: "todo", before: "a").isCommitted)
        #expect(await other.insert([Item(id: "o", label: "Other's")], into: "todo").isCommitted)
        #expect(await bot.waitForReplica { $0.seq == 3 } != nil)
        // The other's steps are not the bot's to undo: one undo takes back the bot's move only.
        #expect(await bot.undo().succeeded)
        #expect(await other.waitForReplica { Self.ids($0.board, "todo") == ["b", "c", "a", "o"] } != nil)
        #expect(!bot.canUndo)
        #expect(await bot.undo() == .nothingToDo)
        await bot.close()
        await other.close()
    }

    @Test func anUndoWhoseCardIsGoneIsRefusedAndSendsNothing() async throws {
        let server = try CorkboardTestServer(demo: false)
        try server.create(Self.board)
        let bot = server.client(board: "undo", name: "bot")
        let other = server.client(board: "undo", name: "other")
        try await bot.connect()
        try await other.connect()

        #expect(await bot.updateItem("a", label: "A, edited").isCommitted)
        #expect(await other.delete(["a"]).isCommitted)
        #expect(await bot.waitForReplica { $0.seq == 2 } != nil)
        guard case .refused(let refusal) = await bot.undo() else {
            Issue.record("expected a refusal")
            return
        }
        #expect(refusal.code == "gone")
        #expect(bot.seq == 2)
        #expect(!bot.canUndo && !bot.canRedo)
        await bot.close()
        await other.close()
    }

    /// A column move is one step: undone, the column goes back before the column that followed
    /// it, for everyone; redone, it moves again.
    @Test func aMovedColumnGoesBackForEveryone() async throws {
        let server = try CorkboardTestServer(demo: false)
        try server.create(Self.board)
        let bot = server.client(board: "undo", name: "bot")
        let watcher = server.client(board: "undo", name: "watcher")
        try await bot.connect()
        try await watcher.connect()
        #expect(await bot.moveCollections(["todo"]).isCommitted)
        #expect(bot.board?.collections.map(\.id) == ["done", "todo"])
        #expect(await bot.undo().succeeded)
        #expect(await watcher.waitForReplica { $0.board.collections.map(\.id) == ["todo", "done"] } != nil)
        #expect(await bot.redo().succeeded)
        #expect(await watcher.waitForReplica { $0.board.collections.map(\.id) == ["done", "todo"] } != nil)
        #expect(try server.document("undo").board.collections.map(\.id) == ["done", "todo"])
        await bot.close()
        await watcher.close()
    }

    /// A column removed with its cards is one event for everyone, and one step: undone, it comes
    /// back in its place with its cards.
    @Test func aColumnRemovedWithItsCardsComesBackWithThem() async throws {
        let server = try CorkboardTestServer(demo: false)
        try server.create(Self.board)
        let bot = server.client(board: "undo", name: "bot")
        let watcher = server.client(board: "undo", name: "watcher")
        try await bot.connect()
        try await watcher.connect()
        #expect(await bot.removeCollection("todo").rejection == .invalid, "not empty")
        #expect(await bot.removeCollection("todo", withItems: true).isCommitted)
        #expect(await watcher.waitForReplica { $0.board.collections.map(\.id) == ["done"] } != nil)
        #expect(try server.document("undo").board.allItemIDs.isEmpty)
        #expect(await bot.undo().succeeded)
        let back = await watcher.waitForReplica { Self.ids($0.board, "todo") == ["a", "b", "c"] }
        #expect(back?.board == Self.board)
        await bot.close()
        await watcher.close()
    }

    @Test func aRemovedColumnComesBackInItsPlace() async throws {
        let server = try CorkboardTestServer(demo: false)
        try server.create(Self.board)
        let bot = server.client(board: "undo", name: "bot")
        try await bot.connect()
        #expect(await bot.addCollection("later", title: "Later", before: "done").isCommitted)
        #expect(await bot.removeCollection("later").isCommitted)
        #expect(await bot.undo().succeeded)
        #expect(bot.board?.collections.map(\.id) == ["todo", "later", "done"])
        #expect(await bot.undo().succeeded)
        #expect(bot.board?.collections.map(\.id) == ["todo", "done"])
        #expect(await bot.redo().succeeded)
        #expect(bot.board?.collections.map(\.id) == ["todo", "later", "done"])
        await bot.close()
    }
}
