import CorkboardModel
import CorkboardStore

/// The board and the long log of moves the store tests share (the contract suite, SQLite's and
/// PostgreSQL's own tests): one definition, so a log written by one reads the same in another.
public enum StoreLog {
    /// `todo` holding i1 and i2, and an empty `done`.
    public static func board(_ id: String = "b") -> Board {
        Board(
            id: id, title: "Board \(id)",
            collections: [
                BoardCollection(id: "todo", title: "To do", items: [Item(id: "i1", label: "1"), Item(id: "i2", label: "2")]),
                BoardCollection(id: "done", title: "Done"),
            ])
    }

    /// Moves i1 and i2 back and forth between the collections: event `seq` of a long log.
    public static func event(_ seq: Int, client: String = "c1") -> CommittedEvent {
        let item = seq % 2 == 1 ? "i1" : "i2"
        let collection = (seq + 1) / 2 % 2 == 1 ? "done" : "todo"
        return CommittedEvent(
            seq: seq, opId: "op-\(seq)", client: client,
            op: .move(sources: [item], destination: Destination(collection: collection)), adjusted: false)
    }

    public static func events(_ seqs: ClosedRange<Int>) -> [CommittedEvent] {
        seqs.map { event($0) }
    }

    /// The board a snapshot and its events rebuild.
    public static func rebuild(_ stored: StoredBoard) throws -> Board {
        var board = stored.snapshot
        for event in stored.events { try board.apply(event.op) }
        return board
    }
}
