import CorkboardModel
import Foundation

/// What a fold reads of a board, as stored: its snapshot's JSON and its events' operations
/// through the fold point. Decoding and applying them is the fold's work, done off the queue.
struct StoredLogPiece: Sendable {
    var snapshot: Data
    var operations: [(seq: Int, json: String)]

    /// The snapshot's JSON with every operation applied in order (`FoldingBoard`: each costs
    /// about its own size, not the board's), or why the stored data does not fold.
    func folded(board: String) throws(StoredDataError) -> Data {
        let decoder = JSONDecoder()
        var folding: FoldingBoard
        do {
            folding = FoldingBoard(try decoder.decode(Board.self, from: snapshot))
        } catch {
            throw StoredDataError(description: "the snapshot of board \(board) does not decode: \(error)")
        }
        for (seq, json) in operations {
            do {
                try folding.apply(try decoder.decode(BoardOperation.self, from: Data(json.utf8)))
            } catch {
                throw StoredDataError(description: "event \(seq) of board \(board) does not apply to its snapshot: \(error)")
            }
        }
        do {
            return try BoardTables.encode(folding.board)
        } catch {
            throw StoredDataError(description: "the folded snapshot of board \(board) does not encode: \(error)")
        }
    }
}
