import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

@testable import CorkboardClient

/// `RandomPlayer`, the strategy of `corkboard bot random`, in process against a real server.
@Suite(.threadsOfTheirOwn) struct RandomPlayerTests {
    @Test func itsActionsAreCommittedAndEachIsCounted() async throws {
        let server = try CorkboardTestServer(demo: false)
        let start = try server.create(makeBoard("play", collections: 3, items: 4))
        let client = server.client(board: "play", name: "player")
        try await client.connect()
        var player = RandomPlayer(client: client, seed: 7, interval: 0.01)
        for _ in 0..<24 { await player.act() }
        let tally = player.tally
        await client.close()

        #expect(tally.actions == 24)
        #expect(tally.drags > 0 && tally.drags < 24, "half the actions are drags: \(tally)")
        #expect(tally.committed + tally.noops + tally.rejections.values.reduce(0, +) + tally.unanswered == 24)
        #expect(tally.unanswered == 0 && tally.rejections.isEmpty, "alone on the board nothing is refused: \(tally)")
        let document = try server.document("play")
        #expect(document.seq == start.seq + tally.committed)
        // Moves only: the same cards, in the same three collections.
        #expect(Set(document.board.allItemIDs) == Set(start.board.allItemIDs))
        #expect(document.board.collections.map(\.id) == ["c0", "c1", "c2"])
    }

    /// With `dragsColumns`, some drags are of a column: seen by another member as a drag of
    /// that column, dropped as a `collection.move`; the same cards and columns, reordered.
    @Test func itsColumnDragsAreSeenByOthersAndCommitted() async throws {
        let server = try CorkboardTestServer(demo: false)
        let start = try server.create(makeBoard("play", collections: 3, items: 4))
        let watcher = server.client(board: "play", name: "watcher")
        let heard = watcher.events()
        try await watcher.connect()
        let client = server.client(board: "play", name: "player")
        try await client.connect()
        var player = RandomPlayer(client: client, seed: 11, interval: 0.01, dragsColumns: true)
        for _ in 0..<30 { await player.act() }
        let tally = player.tally
        await client.close()

        #expect(tally.columnDrags > 0 && tally.columnDrags < tally.drags, "\(tally)")
        #expect(tally.unanswered == 0 && tally.rejections.isEmpty, "alone on the board nothing is refused: \(tally)")
        let document = try server.document("play")
        #expect(document.seq == start.seq + tally.committed)
        #expect(Set(document.board.allItemIDs) == Set(start.board.allItemIDs))
        #expect(Set(document.board.collections.map(\.id)) == ["c0", "c1", "c2"])
        // The watcher saw the player's drags of columns, each before its drop: up to the last commit.
        try #require(tally.committed > 0)
        var columnDragsSeen = 0
        for await event in heard {
            if case .drag(let update) = event, update.collections?.isEmpty == false { columnDragsSeen += 1 }
            if case .committed(let event) = event, event.seq == document.seq { break }
        }
        #expect(columnDragsSeen > 0)
        await watcher.close()
    }

    @Test func aLockedBoardIsLeftAlone() async throws {
        let server = try CorkboardTestServer(demo: false)
        let start = try server.create(makeBoard("locked"))
        let client = server.client(board: "locked", name: "player")
        try await client.connect()
        #expect(await client.lock().isCommitted)
        var player = RandomPlayer(client: client, seed: 1, interval: 0.01)
        await player.act()
        await client.close()
        #expect(player.tally == RandomPlayTally())
        #expect(try server.document("locked").seq == start.seq + 1)
    }

    /// The choices come from the seed alone, and every move is one the board can take: an
    /// anchor is never the moved card, offsets are within their collections.
    @Test func theSameSeedMakesTheSameValidChoices() throws {
        let board = makeBoard("b", collections: 3, items: 5)
        let client = BoardClient(BoardClientConfiguration(port: 1, board: "b", name: "unused"))
        var first = RandomPlayer(client: client, seed: 42, interval: 1)
        var second = RandomPlayer(client: client, seed: 42, interval: 1)
        for _ in 0..<200 {
            let move = first.anchorMove(board)
            let same = second.anchorMove(board)
            #expect(move == same)
            guard case .move(let sources, let destination) = move else {
                Issue.record("not a move by anchor: \(move)")
                return
            }
            #expect(destination.before != sources[0])
            var moved = board
            #expect(throws: Never.self) { try moved.apply(.move(sources: sources, destination: destination)) }

            let chosen = first.offsetsMove(board)
            let offsets = try #require(chosen)
            let again = second.offsetsMove(board)
            #expect(offsets == again)
            guard case .moveByOffsets(let from, let fromOffsets, let toOffset, let to) = offsets else {
                Issue.record("not a move by offsets: \(offsets)")
                return
            }
            let source = try #require(board.collections.first { $0.id == from })
            let target = try #require(board.collections.first { $0.id == to })
            #expect(fromOffsets.allSatisfy { source.items.indices.contains($0) })
            #expect((0...target.items.count).contains(toOffset))
        }
    }
}
