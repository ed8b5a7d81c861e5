import CorkboardWire
import Foundation
import Glibc
import TestSupport
import Testing
import WebSocket

/// A client whose oversized message (or request body) is refused while the rest of it is still
/// on its way: the server closes with its answer and a lingering close, so the client reads the
/// answer (close 1009, 413) instead of having it destroyed by a TCP reset.
@Suite(.threadsOfTheirOwn) struct HostileLingeringCloseTests {
    static let twoMegabytes = 2 << 20

    @Test func aTwoMegabyteMessageInOneWriteGetsClose1009NotAReset() async throws {
        try await offPool {
            let server = try ChildServer()
            let port = server.port
            let before = try Unharmed.seed(port: port)
            let client = try BoardTestClient(port: port, board: "board", name: "Big")
            let text = "{\"type\":\"hello\",\"pad\":\"" + String(repeating: "y", count: Self.twoMegabytes) + "\"}"
            let frame = WebSocketFrame(fin: true, opcode: .text, payload: Array(text.utf8)).encoded(maskingKey: (1, 2, 3, 4))
            // One write of the whole frame, through a small send buffer so that most of it is still
            // on its way when the server refuses it: the write fails if the server resets the connection.
            Self.shrinkSendBuffer(client.ws.socket)
            try client.ws.socket.send(frame)
            #expect(try client.expectClose() == .messageTooBig)
            try Unharmed.expect(port: port, eventsBefore: before)
            #expect(server.isRunning)
        }
    }

    @Test func aTwoMegabyteRequestBodyInOneWriteGets413NotAReset() async throws {
        try await offPool {
            let server = try ChildServer()
            let client = try BlockingClient(port: server.port)
            Self.shrinkSendBuffer(client)
            let body = String(repeating: "z", count: Self.twoMegabytes)
            try client.send("POST /api/boards/board/ops HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let response = try client.receiveResponse()
            #expect(response.status == 413)
            #expect(server.isRunning)
        }
    }

    static func shrinkSendBuffer(_ client: BlockingClient) {
        var value: Int32 = 8192
        setsockopt(client.fd, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}
