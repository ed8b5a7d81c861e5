import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Issue #31, item 6, over real sockets: a storm of joins on a board of 10,000 items, each
/// leaving as soon as its welcome began to arrive. The board's JSON is written once per seq
/// and shared by every welcome at it (counted by `corkboard_welcome_boards_written_total`),
/// and every joiner still gets the whole board.
@Suite(.threadsOfTheirOwn) struct HostileJoinChurnTests {
    static func boardsWritten(_ fixture: HubFixture) throws -> Double? {
        try MetricsEndpointTests.scrape(fixture)["corkboard_welcome_boards_written_total"]
    }

    @Test func aJoinStormOnABigBoardWritesTheBoardOncePerSeq() async throws {
        try await offPool {
            let fixture = try HubFixture(board: HubFixture.grid(collections: 10, itemsEach: 1_000))
            let port = fixture.port
            // Joins that read the first frame of their welcome and leave, four at a time.
            let storms = (0..<4).map { _ in
                Background {
                    for _ in 0..<5 {
                        let socket = try WebSocketTestClient(port: port)
                        try socket.send(text: #"{"type":"hello","board":"board","name":"churn"}"#)
                        guard let frame = try socket.receiveFrame(), frame.payload.starts(with: Array(#"{"board":{"#.utf8)) else {
                            throw HubTestFailure("no welcome")
                        }
                        socket.socket.reset()
                    }
                }
            }
            for storm in storms { try storm.wait(timeout: 120) }
            // A member that reads its welcome whole: the board is all there.
            let ada = try fixture.join("Ada")
            #expect(ada.board == fixture.created.board)
            #expect(try Self.boardsWritten(fixture) == 1, "21 joins at one seq")

            try Unharmed.commitAMove(ada)
            let late = try (0..<3).map { try fixture.join("late \($0)") }
            #expect(late.allSatisfy { $0.board == ada.board && $0.seq == 1 })
            #expect(try Self.boardsWritten(fixture) == 2, "3 more joins at the next seq")
        }
    }
}
