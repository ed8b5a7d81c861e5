import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Exactly-once that no one can evict (docs/protocol.md#resending-an-opid): editors flooding
/// rejected moves and viewers flooding forbidden locks, more of them than the board's whole
/// answer memory, and then an editor's resend of a committed move is answered with its
/// first commit, not applied a second time over someone else's later move.
@Suite(.threadsOfTheirOwn) struct HostileOpIdFloodTests {
    /// The board's opId memory, small so the flood passes it in a few seconds.
    static let memory = 2_000
    /// Answers each flooder provokes: together twice the memory.
    static let floodPerConnection = 1_000

    static let tokens = [
        TokenFile.Grant(token: "owner-token", role: .owner, boards: .all),
        TokenFile.Grant(token: "editor-token", role: .editor, boards: ["board"]),
        TokenFile.Grant(token: "viewer-token", role: .viewer, boards: ["board"]),
    ]

    @Test func aResendAfterAFloodOfRejectionsIsAnsweredWithItsFirstCommit() async throws {
        let access = try TokenFile(grants: Self.tokens)
        try await offPool {
            let server = try TestServer {
                $0.createsDemoBoard = false
                $0.access = access
                $0.hub.historyCapacity = Self.memory
            }
            let port = server.port
            try Unharmed.createBoard(port: port, token: "owner-token")
            let before = try Unharmed.seed(port: port, token: "editor-token")
            let ada = try BoardTestClient(port: port, board: "board", name: "Ada", token: "editor-token")
            let bob = try BoardTestClient(port: port, board: "board", name: "Bob", token: "editor-token")
            _ = try ada.sync()
            let item = try #require(ada.board.collections.first { !$0.items.isEmpty }?.items.first)
            let original = try #require(ada.board.collections.first { $0.items.contains(item) })
            let elsewhere = try #require(ada.board.collections.first { $0.id != original.id })
            // Ada moves the item away, Bob moves it back.
            let move = OperationRequest(opId: "A-1", baseSeq: ada.seq, .move(sources: [item.id], destination: Destination(collection: elsewhere.id)))
            guard case .committed(let first) = try ada.perform(move) else { throw HubTestFailure("A-1 did not commit") }
            try bob.waitUntilSeq(first.seq)
            let back = try bob.commit(.move(sources: [item.id], destination: Destination(collection: original.id)))

            // Four flooders: two editors moving an item that does not exist (rejected gone),
            // two viewers locking (rejected forbidden). All answered, none committed.
            let flooders = try ["editor-token", "editor-token", "viewer-token", "viewer-token"].enumerated().map { number, token in
                try BoardTestClient(port: port, board: "board", name: "Flooder \(number)", token: token)
            }
            for flooder in flooders {
                let isViewer = flooder.name.hasSuffix("2") || flooder.name.hasSuffix("3")
                var last = ""
                for _ in 0..<Self.floodPerConnection {
                    last =
                        isViewer
                        ? try flooder.send(.lock(locked: true))
                        : try flooder.send(.move(sources: ["no-such-item"], destination: Destination(collection: original.id)), baseSeq: 0)
                }
                let answer = try flooder.outcome(of: last)
                #expect(answer.rejection?.code == (isViewer ? .forbidden : .gone), "\(flooder.name): \(answer)")
            }

            // Ada reconnects and resends A-1: the first commit again, nothing applied.
            try ada.close()
            let again = try BoardTestClient(port: port, board: "board", name: "Ada again", token: "editor-token")
            again.expectRepeat(of: "A-1")
            let resent = try again.perform(move)
            #expect(resent == .committed(first), "the resend was answered \(resent)")
            let events = try Unharmed.events(port: port, board: "board", token: "editor-token")
            #expect(events.filter { $0.opId == "A-1" }.map(\.seq) == [first.seq], "A-1 is in the log once")
            #expect(events.last == back, "Bob's move is still the last event")
            for flooder in flooders { try flooder.close() }
            try bob.close()
            try again.close()
            try Unharmed.expect(port: port, token: "editor-token", eventsBefore: before)
        }
    }
}
