import CorkboardModel
import Foundation
import Glibc
import WebSocket

/// A scripted stand-in for the server, over plain blocking sockets: it accepts one WebSocket at
/// a time, hands the test the client's text messages, and sends whatever the test scripts —
/// including what the real server never sends (a gap in seqs, an event that does not apply).
/// No extensions are accepted, so frames are plain; messages are small and unfragmented.
final class FakeServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else { throw ClientTestFailure("cannot listen: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { Glibc.close(listener) }

    /// The next client connection, after its handshake (within `timeout` seconds: generous,
    /// because in a full parallel run the client's test may wait long for a thread).
    func accept(timeout: Double = 60) throws -> FakeConnection {
        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { throw ClientTestFailure("no connection within \(timeout) s") }
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { throw ClientTestFailure("accept: \(errno)") }
        let connection = FakeConnection(fd: fd)
        try connection.handshake()
        return connection
    }
}

/// One accepted WebSocket of the fake server.
final class FakeConnection: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    init(fd: Int32) {
        self.fd = fd
        var time = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Sends a close frame with `code` (and no reason), then drops the connection.
    func close(code: UInt16) throws {
        try write([0x88, 2, UInt8(code >> 8), UInt8(code & 0xFF)])
        close()
    }

    /// Drops the connection without a close frame.
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    fileprivate func handshake() throws {
        while !String(decoding: buffer, as: UTF8.self).contains("\r\n\r\n") { try fill() }
        let request = String(decoding: buffer, as: UTF8.self)
        buffer = []
        guard let keyLine = request.components(separatedBy: "\r\n").first(where: { $0.lowercased().hasPrefix("sec-websocket-key:") }) else {
            throw ClientTestFailure("no key in \(request)")
        }
        let key = keyLine.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
        let accept = WebSocketHandshake.acceptValue(for: key)
        try write(
            Array(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\nSec-WebSocket-Protocol: corkboard.v1\r\n\r\n"
                    .utf8))
    }

    /// The next text message from the client. Pings are answered (the client drops a server
    /// that stays silent past its pong timeout, which a test starved of threads can reach);
    /// pongs are skipped.
    func receive() throws -> String {
        while true {
            while buffer.count < 2 { try fill() }
            let opcode = buffer[0] & 0x0F
            var length = Int(buffer[1] & 0x7F)
            var offset = 2
            if length == 126 {
                while buffer.count < 4 { try fill() }
                length = Int(buffer[2]) << 8 | Int(buffer[3])
                offset = 4
            }
            while buffer.count < offset + 4 + length { try fill() }
            let mask = Array(buffer[offset..<offset + 4])
            let payload = (0..<length).map { buffer[offset + 4 + $0] ^ mask[$0 % 4] }
            buffer.removeFirst(offset + 4 + length)
            if opcode == 1 { return String(decoding: payload, as: UTF8.self) }
            if opcode == 9 { try write([0x8A, UInt8(payload.count)] + payload) }
            if opcode == 8 { throw ClientTestFailure("the client closed") }
        }
    }

    /// The next message, as a JSON object.
    func receiveObject() throws -> JSONObject {
        let text = try receive()
        guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            throw ClientTestFailure("not an object: \(text)")
        }
        return object
    }

    func send(_ text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(UInt8(payload.count))
        } else {
            frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        try write(frame + payload)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw ClientTestFailure(count == 0 ? "the client disconnected" : "recv: \(errno)") }
        buffer += chunk[0..<count]
    }

    private func write(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw ClientTestFailure("send: \(errno)") }
    }
}
