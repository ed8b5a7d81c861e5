import CorkboardWire
import Synchronization

/// The byte length of the last large document sent of each board, by its epoch and seq: a
/// board read again at the same seq (a page or a bot polling it) is not counted again before
/// it is streamed. At most one entry per board, so it holds no more than the boards do.
final class DocumentLengths: Sendable {
    private struct Entry {
        let epoch: String
        let seq: Int
        let length: Int
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The length of `document`, from `count` unless this board was counted at this seq.
    func length(of document: BoardDocument, count: () -> Int) -> Int {
        let id = document.board.id
        if let entry = entries.withLock({ $0[id] }), entry.epoch == document.epoch, entry.seq == document.seq {
            return entry.length
        }
        let length = count()
        entries.withLock { $0[id] = Entry(epoch: document.epoch, seq: document.seq, length: length) }
        return length
    }
}
