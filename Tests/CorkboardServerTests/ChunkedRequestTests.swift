import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Request bodies sent with `Transfer-Encoding: chunked` (as `curl -T -` and `fetch` with a
/// stream body send them) reach the API like any other, over a real socket.
@Suite(.threadsOfTheirOwn) struct ChunkedRequestTests {
    /// `body` cut into chunks of `size` bytes, with the last chunk and an ignored trailer.
    private static func chunked(_ body: String, size: Int) -> String {
        let bytes = Array(body.utf8)
        var text = ""
        for start in stride(from: 0, to: bytes.count, by: size) {
            let chunk = bytes[start..<min(start + size, bytes.count)]
            text += String(chunk.count, radix: 16) + ";ext=1\r\n" + String(decoding: chunk, as: UTF8.self) + "\r\n"
        }
        return text + "0\r\nX-Trailer: ignored\r\n\r\n"
    }

    @Test func aChunkedBoardAndAChunkedOperationAreTaken() async throws {
        try await offPool {
            let server = try TestServer { $0.createsDemoBoard = false }
            var board = HubFixture.standardBoard
            board.id = "chunked"
            let boardBody = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(board)), as: UTF8.self)
            let created = try server.request(
                "POST /api/boards HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" + Self.chunked(boardBody, size: 7))
            #expect(created.status == 201, "\(created.status) \(created.text)")
            let move = OperationRequest(opId: "chunky-1", baseSeq: 0, .move(sources: ["i1"], destination: Destination(collection: "done")))
            let moveBody = String(decoding: try WireFormat.encode(ClientMessage.operation(move)), as: UTF8.self)
            let committed = try server.request(
                "POST /api/boards/chunked/ops HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" + Self.chunked(moveBody, size: 5))
            #expect(committed.status == 200 && committed.text.contains(#""seq":1"#), "\(committed.status) \(committed.text)")
            let broken = try server.request(
                "POST /api/boards/chunked/ops HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
            #expect(broken.status == 400 && broken.text.contains("malformed chunked body"), "\(broken.status) \(broken.text)")
        }
    }
}
