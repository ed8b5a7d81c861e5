/// A client's copy of a board that follows the server's log (docs/protocol.md#1-the-model):
/// start from a snapshot, apply every `committed` event in seq order, hold exactly the
/// server's board.
public struct Replica: Sendable, Hashable {
    public private(set) var board: Board
    /// The seq of the last event applied (the snapshot's seq before any).
    public private(set) var seq: Int

    public init(board: Board, seq: Int) {
        self.board = board
        self.seq = seq
    }

    /// Applies the next committed event. Throws, changing nothing, if it is not the
    /// next seq or does not fit the board: the replica has lost step and should take a
    /// new snapshot (or resume).
    public mutating func apply(_ event: CommittedEvent) throws(BoardError) {
        // The snapshot's seq came from a server: past `Limits.maximumSeq` it is refused, not added to.
        guard seq < Limits.maximumSeq else { throw BoardError("the replica is at seq \(seq), the last a board reaches or past it") }
        guard event.seq == seq + 1 else { throw BoardError("expected event \(seq + 1), got \(event.seq)") }
        try board.apply(event.op)
        seq = event.seq
    }
}
