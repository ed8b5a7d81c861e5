import Foundation
import Glibc
import WebSocket

/// A minimal blocking WebSocket client for tests: raw handshake, masked frames out, frames in.
/// Every read has a timeout (5 s unless set), so a test waiting for a frame that never comes fails.
public final class WebSocketTestClient: @unchecked Sendable {
    public let socket: BlockingClient
    private var parser = WebSocketFrameParser(role: .client, maxFrameSize: 64 << 20)
    private var pending: [WebSocketFrame] = []
    public let handshakeResponse: TestHTTPResponse

    public init(port: UInt16, path: String = "/ws", extraHeaders: String = "", firstFrames: [UInt8] = [], timeout: Double = 5) throws {
        socket = try BlockingClient(port: port, timeout: timeout)
        // A test that offers permessage-deflate reads compressed frames (and inflates them itself).
        parser.allowsRSV1 = extraHeaders.contains("permessage-deflate")
        let request =
            "GET \(path) HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(extraHeaders)\r\n"
        // Frames sent in the same write as the handshake test the hand-over of buffered bytes.
        try socket.send(Array(request.utf8) + firstFrames)
        handshakeResponse = try socket.receiveResponse()
    }

    /// How long a receive waits before it throws "timed out".
    public func setReceiveTimeout(_ seconds: Double) {
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(socket.fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    public func send(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) throws {
        try socket.send(WebSocketFrame(fin: fin, opcode: opcode, payload: payload).encoded(maskingKey: (0x12, 0x34, 0x56, 0x78)))
    }

    public func send(text: String) throws { try send(.text, Array(text.utf8)) }

    /// Sends a text message made of these bytes as they are (they need not be UTF-8).
    public func send(textBytes: [UInt8]) throws { try send(.text, textBytes) }

    /// Sends a close frame with this code.
    public func sendClose(_ code: WebSocketCloseCode = .normal) throws {
        try send(.close, WebSocketClosePayload(code: code).bytes)
    }

    /// The next whole frame from the server (pieces are joined back), or nil when it closed the TCP connection.
    public func receiveFrame() throws -> WebSocketFrame? {
        while true {
            if let frame = try nextWholeFrame() { return frame }
            guard let bytes = try socket.receiveSome() else { return nil }
            parser.append(bytes)
        }
    }

    public func receiveText() throws -> String? {
        guard let frame = try receiveFrame() else { return nil }
        guard frame.opcode == .text else { throw BlockingClient.Failure(description: "expected text, got \(frame.opcode)") }
        return String(decoding: frame.payload, as: UTF8.self)
    }

    /// The close code in the server's close frame (frames before it are skipped; nil if the
    /// TCP connection ends without one).
    public func receiveClose() throws -> WebSocketCloseCode? {
        while let frame = try receiveFrame() {
            if frame.opcode == .close { return try WebSocketClosePayload(parsing: frame.payload).code }
        }
        return nil
    }

    private func nextWholeFrame() throws -> WebSocketFrame? {
        while let piece = try parser.next() {
            // A control frame may arrive between the pieces of a message: hand it out alone.
            if piece.opcode.isControl { return piece }
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
