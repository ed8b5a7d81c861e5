import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket
import WebSocketDeflate

/// Messages built to exhaust memory: a 100 MB frame, and deflate bombs (a small compressed
/// message that inflates far past the size limit, whole or in fragments). Each is closed with
/// 1009 as soon as it is known to be too big, without holding it in memory.
@Suite(.threadsOfTheirOwn) struct HostileMessageTests {
    static let hundredMegabytes = 100 << 20

    @Test func aHundredMegabyteFrameIsClosedWith1009AtItsHeader() async throws {
        try await offPool {
            let server = try ChildServer()
            let port = server.port
            let before = try Unharmed.seed(port: port)
            let attacker = try BoardTestClient(port: port, board: "board", name: "Huge")
            let bystander = try BoardTestClient(port: port, board: "board", name: "Bystander")
            // One text frame announcing 100 MB, then the start of its payload.
            var header: [UInt8] = [0x81, 0x80 | 127]
            header += withUnsafeBytes(of: UInt64(Self.hundredMegabytes).bigEndian, Array.init)
            header += [1, 2, 3, 4]
            let piece = [UInt8](repeating: 0x61, count: 64 * 1024)
            try attacker.ws.socket.send(header + piece)
            #expect(try attacker.expectClose() == .messageTooBig)
            // The rest is not taken: the connection is gone long before 100 MB went out.
            var sent = piece.count
            while sent < Self.hundredMegabytes, (try? attacker.ws.socket.send(piece)) != nil { sent += piece.count }
            #expect(sent < Self.hundredMegabytes / 2, "the server took \(sent) bytes of the frame")
            // The bystander saw the attacker leave, and nothing else went wrong.
            _ = try bystander.waitFor("Huge leaving") { message in
                if case .peerLeft(let client) = message { return client == attacker.clientID }
                return false
            }
            #expect(bystander.log.allSatisfy { $0.typeName != "error" })
            try Unharmed.expect(port: port, eventsBefore: before)
            #expect(server.isRunning)
        }
    }

    /// Joins with permessage-deflate negotiated and returns the socket and its compression.
    static func joinCompressed(port: UInt16, name: String) throws -> (WebSocketTestClient, WebSocketMessageCompression) {
        let socket = try WebSocketTestClient(port: port, extraHeaders: "Sec-WebSocket-Extensions: permessage-deflate\r\n")
        let accepted = try #require(socket.handshakeResponse.header("Sec-WebSocket-Extensions"))
        let compression = try DeflateNegotiator().confirm(response: WebSocketExtensionOffer.parse([accepted]))
        try socket.send(text: #"{"type":"hello","board":"board","name":"\#(name)"}"#)
        let frame = try #require(try socket.receiveFrame())
        let text = frame.rsv1 ? try compression.decompress(frame.payload, isFinal: true, limit: 1 << 20) : frame.payload
        #expect(try decodeServerText(String(decoding: text, as: UTF8.self)).typeName == "welcome")
        return (socket, compression)
    }

    @Test(arguments: [1, 5])
    func aDeflateBombIsClosedWith1009WithoutBeingInflated(fragments: Int) async throws {
        try await offPool {
            let server = try ChildServer()
            let port = server.port
            let before = try Unharmed.seed(port: port)
            let bystander = try BoardTestClient(port: port, board: "board", name: "Bystander")
            let (socket, compression) = try Self.joinCompressed(port: port, name: "Bomber")
            // 64 MiB of spaces is about 64 KiB compressed: far under the 1 MiB limit on the wire.
            let bomb = try #require(compression.compress([UInt8](repeating: 0x20, count: 64 << 20)))
            #expect(bomb.count < 256 * 1024)
            let memoryBefore = server.residentBytes
            let size = (bomb.count + fragments - 1) / fragments
            var frames: [UInt8] = []
            for (index, start) in stride(from: 0, to: bomb.count, by: size).enumerated() {
                let frame = WebSocketFrame(
                    fin: start + size >= bomb.count, rsv1: index == 0, opcode: index == 0 ? .text : .continuation,
                    payload: Array(bomb[start..<min(bomb.count, start + size)]))
                frames += frame.encoded(maskingKey: (9, 8, 7, 6))
            }
            try socket.socket.send(frames)
            #expect(try socket.receiveClose() == .messageTooBig)
            let growth = server.residentBytes - memoryBefore
            #expect(growth < 24 << 20, "the server grew by \(growth >> 20) MiB on a 64 MiB bomb")
            #expect(bystander.log.allSatisfy { $0.typeName != "error" })
            try Unharmed.expect(port: port, eventsBefore: before)
            #expect(server.isRunning)
        }
    }
}
