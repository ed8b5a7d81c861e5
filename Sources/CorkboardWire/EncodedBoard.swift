import CorkboardModel

/// A board's JSON as `welcome.board` carries it (the same bytes as its `Codable` encoding:
/// keys sorted), written once and spliced into every `welcome` at the same board and seq
/// (`Welcome.text(board:)`). A board of 10,000 items is megabytes of JSON: written per join,
/// a storm of joins that leave at once kept the server busy writing boards nobody read
/// (issue #31).
public struct EncodedBoard: Sendable {
    public let bytes: [UInt8]

    public init(_ board: Board) {
        var json = JSONWriter(capacity: 64 * 1024)
        json.write(board)
        // Copied to its size: it is kept (per board, until its next seq), and the writer's
        // array holds all it reserved, 64 KiB for the smallest board.
        // (`Array` of a slice of the whole array would share its storage.)
        bytes = json.bytes.withUnsafeBufferPointer { Array($0) }
    }
}

extension JSONWriter {
    /// `{"collections":[{"id","items","title"}…],"folders"?:{…},"id","locked","title"}`:
    /// `folders` absent when the board has none, its keys sorted.
    mutating func write(_ board: Board) {
        openObject()
        key("collections")
        openArray()
        for collection in board.collections {
            openObject()
            key("id")
            string(collection.id)
            key("items")
            openArray()
            for item in collection.items { write(item) }
            closeArray()
            key("title")
            string(collection.title)
            closeObject()
        }
        closeArray()
        if !board.folders.isEmpty {
            key("folders")
            openObject()
            for folder in board.folders.keys.sorted() {
                memberName(folder)
                openArray()
                for item in board.folders[folder]! { write(item) }
                closeArray()
            }
            closeObject()
        }
        key("id")
        string(board.id)
        key("locked")
        bool(board.locked)
        key("title")
        string(board.title)
        closeObject()
    }
}
