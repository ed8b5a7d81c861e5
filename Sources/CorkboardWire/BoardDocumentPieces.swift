import CorkboardModel

/// `GET /api/boards/{id}` written a piece at a time: the same bytes as
/// `WireFormat.encode(document)`, made as they are sent. A board may hold 10,000 items of
/// 64 KiB of data: its whole text would be hundreds of MB for a client that may never read it.
/// (`document` is a value: the pieces come from the board as it was, whatever changes later.)
public struct BoardDocumentPieces: Sequence, IteratorProtocol, Sendable {
    private enum Stage: Sendable { case start, collectionHead, items, tail, folders, end, done }

    private let document: BoardDocument
    /// A piece ends after the first value that takes it to this size (so one large item may pass it).
    private let pieceSize: Int
    private var writer = JSONWriter()
    private var stage = Stage.start
    private var collection = 0
    private var item = 0
    /// The folders' ids in sorted order, and the next one to write.
    private var folderIDs: [ItemID] = []
    private var folder = 0

    public init(_ document: BoardDocument, pieceSize: Int = 64 * 1024) {
        self.document = document
        self.pieceSize = pieceSize
    }

    public mutating func next() -> [UInt8]? {
        guard stage != .done else { return nil }
        while writer.bytes.count < pieceSize && stage != .done { step() }
        return writer.takeBytes()
    }

    /// Keys in sorted order, as ``WireFormat``'s encoder writes them: a document's
    /// `collections, epoch, folders?, id, locked, seq, title`; a collection's `id, items, title`.
    /// A folder's items go in one piece.
    private mutating func step() {
        let board = document.board
        switch stage {
        case .start:
            writer.openObject()
            writer.key("collections")
            writer.openArray()
            stage = board.collections.isEmpty ? .tail : .collectionHead
        case .collectionHead:
            writer.openObject()
            writer.key("id")
            writer.string(board.collections[collection].id)
            writer.key("items")
            writer.openArray()
            item = 0
            stage = .items
        case .items:
            let current = board.collections[collection]
            if item < current.items.count {
                writer.write(current.items[item])
                item += 1
                return
            }
            writer.closeArray()
            writer.key("title")
            writer.string(current.title)
            writer.closeObject()
            collection += 1
            stage = collection < board.collections.count ? .collectionHead : .tail
        case .tail:
            writer.closeArray()
            writer.key("epoch")
            writer.string(document.epoch)
            guard !board.folders.isEmpty else {
                stage = .end
                return
            }
            writer.key("folders")
            writer.openObject()
            folderIDs = board.folders.keys.sorted()
            stage = .folders
        case .folders:
            writer.memberName(folderIDs[folder])
            writer.openArray()
            for item in board.folders[folderIDs[folder]]! { writer.write(item) }
            writer.closeArray()
            folder += 1
            if folder == folderIDs.count {
                writer.closeObject()
                stage = .end
            }
        case .end:
            writer.key("id")
            writer.string(board.id)
            writer.key("locked")
            writer.bool(board.locked)
            writer.key("seq")
            writer.int(document.seq)
            writer.key("title")
            writer.string(board.title)
            writer.closeObject()
            stage = .done
        case .done:
            break
        }
    }
}
