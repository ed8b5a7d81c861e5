import CorkboardModel
import Foundation
import Testing

@testable import CorkboardWire

/// `GET /api/boards/{id}` written piece by piece gives, joined, byte for byte what
/// `WireFormat.encode(document)` gives, whatever the piece size.
@Suite struct BoardDocumentPiecesTests {
    static let document = BoardDocument(
        board: Board(
            id: "b/1", title: JSONWriterTests.awkward, locked: true,
            collections: [
                BoardCollection(
                    id: "todo", title: "To do",
                    items: [
                        Item(id: "i1", label: "One", data: JSONWriterTests.data),
                        Item(id: "i2", label: JSONWriterTests.awkward),
                        Item(id: "i3", label: "Three", data: [:]),
                    ]),
                BoardCollection(id: "empty", title: "Nothing here"),
                BoardCollection(id: "done", title: "Done", items: (0..<50).map { Item(id: "d\($0)", label: "Card \($0)") }),
            ]),
        seq: 42, epoch: "ff894259f626a77a")

    @Test(arguments: [1, 100, 1000, 64 * 1024])
    func piecesJoinedAreTheEncodedDocument(pieceSize: Int) throws {
        let pieces = Array(BoardDocumentPieces(Self.document, pieceSize: pieceSize))
        #expect(pieces.joined().elementsEqual(Array(try WireFormat.encode(Self.document))))
        #expect(pieces.allSatisfy { !$0.isEmpty })
        if pieceSize >= 64 * 1024 { #expect(pieces.count == 1, "a small board is one piece") }
    }

    /// Folders go after `epoch`, one folder's items to a piece, in the encoder's key order.
    @Test(arguments: [1, 100, 64 * 1024])
    func aBoardWithFoldersToo(pieceSize: Int) throws {
        var board = Self.document.board
        board.collections[0].items.append(Item(id: "f1", label: "Ideas", folder: Folder(accepts: false)))
        board.folders = [
            "f1": [Item(id: "a1", label: "Inside", data: JSONWriterTests.data), Item(id: "f2", label: "Deeper", folder: Folder())],
            "f2": [], "é": [Item(id: "z", label: "")],
        ]
        let document = BoardDocument(board: board, seq: 7, epoch: "e")
        #expect(BoardDocumentPieces(document, pieceSize: pieceSize).joined().elementsEqual(Array(try WireFormat.encode(document))))
    }

    @Test func aBoardWithoutCollectionsToo() throws {
        let bare = BoardDocument(board: Board(id: "b", title: "Bare"), seq: 0, epoch: "e")
        #expect(BoardDocumentPieces(bare, pieceSize: 1).joined().elementsEqual(Array(try WireFormat.encode(bare))))
    }
}
