import CorkboardModel
import Testing

/// A board's seq stays within `Limits.maximumSeq` (2^53 − 1, what every JSON reader holds
/// exactly): a board past it is refused when built, and a board at it refuses operations
/// (`rejected` `invalid`) instead of trapping on `seq + 1`. Seqs come from outside (an
/// imported archive, a database, a server's `welcome`), so none of this may trap.
@Suite struct SeqBoundTests {
    private let board = makeBoard("todo: a b; done:")

    @Test(arguments: [Limits.maximumSeq + 1, 1 << 62, Int.max, -1, Int.min])
    func aBoardOutsideTheSeqsIsRefusedWhenBuilt(seq: Int) {
        #expect(throws: BoardError.self) { try BoardEngine(board: board, seq: seq) }
        #expect(throws: BoardError.self) { try BoardEngine(snapshot: board, seq: seq, replaying: []) }
    }

    @Test func theLastSeqIsReachedThenOperationsAreRejectedInvalid() throws {
        var engine = try BoardEngine(board: board, seq: Limits.maximumSeq - 1)
        let last = engine.apply(move("m1", base: Limits.maximumSeq - 1, ["a"], to: "done"), client: "c1", role: .editor)
        #expect(last.event?.seq == Limits.maximumSeq)
        #expect(engine.seq == Limits.maximumSeq)

        let refused = engine.apply(move("m2", base: Limits.maximumSeq, ["b"], to: "done"), client: "c1", role: .editor)
        #expect(refused.rejectionCode == .invalid)
        #expect(refused.rejection?.message == "the board is at its last seq (9007199254740991) and takes no more operations")
        #expect(engine.seq == Limits.maximumSeq)
        #expect(engine.layoutText == "todo: b; done: a")
        // Permanent, like every `invalid`: a resend gets the same answer.
        guard
            case .repeated(.rejected(let again)) = engine.apply(
                move("m2", base: Limits.maximumSeq, ["b"], to: "done"), client: "c1", role: .editor)
        else {
            Issue.record("a resend of a refused opId is not its rejection")
            return
        }
        #expect(again == refused.rejection)
        // The commit before is still answered as such.
        guard
            case .repeated(.committed(let event)) = engine.apply(
                move("m1", base: Limits.maximumSeq - 1, ["a"], to: "done"), client: "c1", role: .editor)
        else {
            Issue.record("the last commit is no longer remembered")
            return
        }
        #expect(event.seq == Limits.maximumSeq)
    }

    @Test func everyKindOfOperationIsRefusedAtTheLastSeq() throws {
        var engine = try BoardEngine(board: board, seq: Limits.maximumSeq)
        let requests = [
            insert("i", base: Limits.maximumSeq, ["n"], to: "todo"),
            delete("d", base: Limits.maximumSeq, ["a"]),
            OperationRequest(opId: "l", .lock(locked: true)),
            OperationRequest(opId: "c", .addCollection(collection: "x", title: "X", before: nil)),
        ]
        for request in requests {
            #expect(engine.apply(request, client: "c1", role: .owner).rejectionCode == .invalid, "\(request)")
        }
        #expect(engine.board == board && engine.seq == Limits.maximumSeq)
    }

    @Test func appendingPastTheLastSeqThrows() throws {
        var engine = try BoardEngine(board: board, seq: Limits.maximumSeq)
        let event = CommittedEvent(seq: Limits.maximumSeq + 1, opId: "x", client: "c", op: .delete(items: ["a"]), adjusted: false)
        #expect(throws: BoardError.self) { try engine.append(event) }
        #expect(throws: BoardError.self) {
            try BoardEngine(snapshot: board, seq: Limits.maximumSeq, replaying: [event])
        }
        #expect(engine.board == board && engine.seq == Limits.maximumSeq)
    }

    /// A client's replica takes its seq from a server's `welcome`: any Int, which it must not add one to.
    @Test(arguments: [Limits.maximumSeq, Int.max])
    func aReplicaAtOrPastTheLastSeqRefusesEventsWithoutTrapping(seq: Int) {
        var replica = Replica(board: board, seq: seq)
        let event = CommittedEvent(seq: Int.max, opId: "x", client: "c", op: .delete(items: ["a"]), adjusted: false)
        #expect(throws: BoardError.self) { try replica.apply(event) }
        #expect(replica.board == board)
    }
}
