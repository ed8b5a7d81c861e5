import CorkboardModel
import CorkboardWire

/// A board's JSON at one epoch and seq, as every `welcome` at that seq carries it.
struct WelcomeBoard {
    let epoch: String
    let seq: Int
    let board: EncodedBoard
}

/// The one `WelcomeBoard` a room keeps (BoardRoom+Welcome.swift): the durable board's JSON,
/// written once per seq. A part of its `BoardRoom`, held by `let` and used only on the room's queue.
final class WelcomeBoards {
    private var written: WelcomeBoard?

    /// The board's JSON at `epoch` and `seq`: the one kept, if it is of them, else `write`'s, kept instead.
    func board(epoch: String, seq: Int, write: () -> EncodedBoard) -> EncodedBoard {
        if let written, written.seq == seq, written.epoch == epoch { return written.board }
        let board = write()
        written = WelcomeBoard(epoch: epoch, seq: seq, board: board)
        return board
    }
}
