import CorkboardClient
import CorkboardModel
import CorkboardWire
import Testing

/// The lines `corkboard bot` prints without --json, one per server message, outcome and
/// connection change, and the summary of `bot random`.
@Suite struct BotTextTests {
    static let board = Board(
        id: "b", title: "Sprint",
        collections: [
            BoardCollection(id: "todo", title: "To do", items: [Item(id: "a", label: "A"), Item(id: "b", label: "B")]),
            BoardCollection(id: "done", title: "Done", items: []),
        ])

    @Test func serverMessages() {
        let welcome = Welcome(
            client: "c1", role: .editor, epoch: "e", seq: 4, resumed: false, board: Self.board,
            peers: [Peer(client: "c2", name: "Ann")])
        #expect(BotText.describe(.welcome(welcome)) == #"welcome: c1 (editor), "Sprint" at seq 4: 2 collections, 2 items, 1 peers"#)
        var locked = Self.board
        locked.locked = true
        let lockedWelcome = Welcome(client: "c1", role: .viewer, epoch: "e", seq: 4, resumed: false, board: locked, peers: [])
        #expect(BotText.describe(.welcome(lockedWelcome)).hasSuffix("0 peers, locked"))
        let resumed = Welcome(client: "c1", role: .owner, epoch: "e", seq: 9, resumed: true, board: nil, peers: [])
        #expect(BotText.describe(.welcome(resumed)) == "welcome: c1 (owner), resumed at seq 9")

        let move = CommittedEvent(seq: 5, opId: "o1", client: "c2", op: .move(sources: ["a"], destination: Destination(collection: "done")), adjusted: true)
        #expect(BotText.describe(ServerMessage.committed(move)) == "#5 c2 move a to done (end) (adjusted)  [o1]")
        // `watch` says who and when, in UTC with milliseconds, where the event says so.
        var stamped = move
        stamped.at = 1_795_575_010_123
        stamped.by = "user-4821"
        #expect(
            BotText.describe(ServerMessage.committed(stamped))
                == "#5 c2 move a to done (end) (adjusted)  [o1] by user-4821 at 2026-11-25T02:50:10.123Z")
        #expect(stamped.committedDate?.timeIntervalSince1970 == 1_795_575_010.123)
        #expect(BotText.describe(ServerMessage.noop(Noop(opId: "o2", seq: 5))) == "noop o2 at seq 5")
        #expect(BotText.describe(.peerJoined(client: "c3", name: "Bo")) == "c3 joined: Bo")
        #expect(BotText.describe(.peerLeft(client: "c3")) == "c3 left")
        let over = DragTarget(collection: "done", index: 0, before: nil)
        #expect(
            BotText.describe(.drag(DragUpdate(client: "c2", name: "Ann", items: ["a", "b"], over: over)))
                == "c2 (Ann) drags a, b over done[0] at the end")
        #expect(
            BotText.describe(.dragOver(client: "c2", over: DragTarget(collection: "todo", index: 1, before: "b")))
                == "c2 drags over todo[1] before b")
        #expect(BotText.describe(.dragCleared(client: "c2", reason: .expired)) == "c2 drag ended: expired")
        #expect(
            BotText.describe(.rejected(Rejected(opId: nil, ref: "d1", code: .busy, message: nil, holder: "c2")))
                == "rejected d1: busy (held by c2)")
        #expect(
            BotText.describe(.rejected(Rejected(opId: "o3", code: .locked, message: "the board is locked")))
                == "rejected o3: locked: the board is locked")
        #expect(BotText.describe(.error(ErrorMessage(code: .invalid, message: "bad"))) == "error invalid: bad")
    }

    @Test func operations() {
        let end = Destination(collection: "done")
        #expect(
            BotText.describe(.insert(items: [Item(id: "n", label: "N")], destination: Destination(collection: "todo", before: "a")))
                == "insert n into todo before a")
        #expect(BotText.describe(.delete(items: ["a", "b"])) == "delete a, b")
        #expect(BotText.describe(.updateItem(item: "a", label: "New", data: .remove)) == #"update a: label "New", no data"#)
        #expect(BotText.describe(.renameCollection(collection: "todo", title: "Later")) == #"rename todo to "Later""#)
        #expect(BotText.describe(.addCollection(collection: "x", title: "X", before: nil)) == #"add collection x "X" last"#)
        #expect(BotText.describe(.addCollection(collection: "x", title: "X", before: "done")) == #"add collection x "X" before done"#)
        #expect(BotText.describe(.removeCollection(collection: "x")) == "remove collection x")
        #expect(BotText.describe(.removeCollectionAndItems(collection: "x")) == "remove collection x with its items")
        #expect(BotText.describe(.moveCollections(collections: ["x", "y"], before: nil)) == "move collections x, y last")
        #expect(BotText.describe(.lock(locked: true)) == "lock" && BotText.describe(.lock(locked: false)) == "unlock")
        #expect(BotText.describe(end) == "done (end)")
    }

    @Test func outcomes() {
        let event = CommittedEvent(seq: 12, opId: "o", client: "c", op: .lock(locked: true), adjusted: false)
        #expect(BotText.describe(OperationResult.committed(event)) == "committed seq 12")
        #expect(BotText.describe(OperationResult.noop(Noop(opId: "o", seq: 3))) == "noop (nothing to change; board at seq 3)")
        #expect(
            BotText.describe(OperationResult.rejected(.forbidden, message: "viewers cannot change the board"))
                == "rejected (forbidden): viewers cannot change the board")
        #expect(BotText.describe(OperationResult.unanswered(opId: "o9", .timedOut)) == "no answer for o9: no answer in time")
    }

    @Test func connectionChanges() {
        #expect(BotText.describe(ConnectionState.idle) == "idle")
        #expect(BotText.describe(ConnectionState.connecting(attempt: 0)) == "connecting")
        #expect(BotText.describe(ConnectionState.connecting(attempt: 2)) == "connecting (attempt 3)")
        #expect(BotText.describe(ConnectionState.joined(client: "c1", role: .editor, resumed: true)) == "joined as c1 (editor), resumed")
        #expect(BotText.describe(ConnectionState.disconnected(code: 1006, reason: "")) == "disconnected (1006); reconnecting")
        #expect(BotText.describe(ConnectionState.disconnected(code: 1001, reason: "bye")) == "disconnected (1001: bye); reconnecting")
        #expect(BotText.describe(ConnectionState.waiting(delay: 1.5)) == "reconnecting in 1.5 s")
        #expect(BotText.describe(ConnectionState.closed(nil)) == "closed")
        #expect(
            BotText.describe(ConnectionState.closed(.gaveUp(attempts: 8, lastProblem: "refused")))
                == "closed: gave up after 8 failed reconnect attempts (last: refused)")
    }

    @Test func theRandomSummaryCountsEveryOutcome() {
        var tally = RandomPlayTally()
        #expect(
            tally.summary(seconds: 0, reconnects: 0)
                == "random: 0 actions (0 drags) in 0.0 s: 0 committed (0 adjusted), 0 noop, 0 rejected, 0 unanswered, 0 reconnects")
        tally.actions = 9
        tally.drags = 4
        tally.committed = 5
        tally.adjusted = 1
        tally.noops = 1
        tally.rejections = ["locked": 1, "busy": 2]
        tally.unanswered = 0
        #expect(
            tally.summary(seconds: 2.04, reconnects: 3)
                == "random: 9 actions (4 drags) in 2.0 s: 5 committed (1 adjusted), 1 noop, 3 rejected (busy 2, locked 1), 0 unanswered, 3 reconnects")
    }
}
