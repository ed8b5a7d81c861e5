import Foundation
import TestSupport
@testable import WebSocket

/// A minimal blocking WebSocket client for tests: raw handshake, masked frames out, frames in.
final class WebSocketTestClient {
    let socket: BlockingClient
    private var parser = WebSocketFrameParser(role: .client, maxFrameSize: 64 << 20)
    private var pending: [WebSocketFrame] = []
    let handshakeResponse: TestHTTPResponse

    init(port: UInt16, path: String = "/ws", extraHeaders: String = "", firstFrames: [UInt8] = []) throws {
        socket = try BlockingClient(port: port)
        let request = "GET \(path) HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(extraHeaders)\r\n"
        // Frames sent in the same write as the handshake test the hand-over of buffered bytes.
        try socket.send(Array(request.utf8) + firstFrames)
        handshakeResponse = try socket.receiveResponse()
    }

    func send(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) throws {
        try socket.send(WebSocketFrame(fin: fin, opcode: opcode, payload: payload).encoded(maskingKey: (0x12, 0x34, 0x56, 0x78)))
    }

    func send(text: String) throws { try send(.text, Array(text.utf8)) }

    /// The next whole frame from the server (pieces are joined back), or nil when it closed the TCP connection.
    func receiveFrame() throws -> WebSocketFrame? {
        while true {
            if let frame = try nextWholeFrame() { return frame }
            guard let bytes = try socket.receiveSome() else { return nil }
            parser.append(bytes)
        }
    }

    func receiveText() throws -> String? {
        guard let frame = try receiveFrame() else { return nil }
        guard frame.opcode == .text else { throw BlockingClient.Failure(description: "expected text, got \(frame.opcode)") }
        return String(decoding: frame.payload, as: UTF8.self)
    }

    /// The close code in the server's close frame.
    func receiveClose() throws -> WebSocketCloseCode? {
        while let frame = try receiveFrame() {
            if frame.opcode == .close { return try WebSocketClosePayload(parsing: frame.payload).code }
        }
        return nil
    }

    private func nextWholeFrame() throws -> WebSocketFrame? {
        while let piece = try parser.next() {
            if piece.opcode != .continuation { pending = [piece] } else { pending.append(piece) }
            if piece.fin {
                var whole = pending[0]
                whole.payload = pending.flatMap(\.payload)
                whole.fin = true
                pending = []
                return whole
            }
        }
        return nil
    }
}
