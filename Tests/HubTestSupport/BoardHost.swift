import CorkboardModel
import CorkboardWire
import Testing

/// Whatever holds the board a test's clients joined: a server over HTTP, or a hub in-process.
public protocol BoardHost {
    /// The board as the hub has it now (durable).
    func document() throws -> BoardDocument
}

extension BoardHost {
    /// Brings every client up to the hub's seq and checks that each replica is the hub's
    /// board, and that every item of the board appears exactly once.
    @discardableResult
    public func expectAgreement(_ clients: [BoardTestClient], sourceLocation: SourceLocation = #_sourceLocation) throws -> BoardDocument {
        let document = try document()
        for client in clients {
            try client.waitUntilSeq(document.seq)
            #expect(client.seq == document.seq, "\(client.name)'s seq", sourceLocation: sourceLocation)
            #expect(client.board == document.board, "\(client.name)'s replica is the server's board", sourceLocation: sourceLocation)
        }
        let ids = document.board.allItemIDs
        #expect(Set(ids).count == ids.count, "no item twice: \(ids)", sourceLocation: sourceLocation)
        return document
    }
}
