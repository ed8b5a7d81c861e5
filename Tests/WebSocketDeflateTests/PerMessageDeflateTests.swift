import Testing
import WebSocket

@testable import WebSocketDeflate

private func pair(_ parameters: DeflateParameters, minimumSize: Int = 0) -> (server: PerMessageDeflate, client: PerMessageDeflate) {
    let configuration = DeflateConfiguration(mode: .speed, minimumSize: minimumSize)
    return (
        PerMessageDeflate(parameters: parameters, configuration: configuration, isServer: true),
        PerMessageDeflate(parameters: parameters, configuration: configuration, isServer: false)
    )
}

private let hello = Array("Hello".utf8)

/// RFC 7692 §7.2.3, byte for byte.
@Suite struct RFC7692ExampleTests {
    @Test func helloCompressesToTheRFCBytes() {
        let (server, _) = pair(DeflateParameters())
        #expect(server.compress(hello) == [0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00])
    }

    @Test func secondHelloUsesTheSharedWindow() throws {
        let (server, client) = pair(DeflateParameters())
        let first = server.compress(hello)
        let second = server.compress(hello)
        #expect(second == [0xf2, 0x00, 0x11, 0x00, 0x00])
        #expect(try client.decompress(first!, isFinal: true, limit: 100) == hello)
        #expect(try client.decompress(second!, isFinal: true, limit: 100) == hello)
    }

    @Test func withoutContextTakeoverEveryMessageStandsAlone() throws {
        var parameters = DeflateParameters()
        parameters.serverNoContextTakeover = true
        let (server, client) = pair(parameters)
        // Deflate loses on "Hello" (7 bytes for 5), and without context nothing is gained by sending it.
        #expect(server.compress(hello) == nil)
        let text = Array(String(repeating: "Hello ", count: 20).utf8)
        let first = try #require(server.compress(text))
        #expect(server.compress(text) == first)
        #expect(try client.decompress(first, isFinal: true, limit: 1000) == text)
        #expect(server.sharedEncodingKey != nil)
        #expect(pair(DeflateParameters()).server.sharedEncodingKey == nil)
    }

    @Test(
        arguments: [
            [0x00, 0x05, 0x00, 0xfa, 0xff, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x00], // §7.2.3.3: a stored block
            [0xf3, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x00], // §7.2.3.4: BFINAL set
            [0xf2, 0x48, 0x05, 0x00, 0x00, 0x00, 0xff, 0xff, 0xca, 0xc9, 0xc9, 0x07, 0x00], // §7.2.3.5: two blocks
        ] as [[UInt8]])
    func otherEncodingsOfHelloInflate(bytes: [UInt8]) throws {
        let (_, client) = pair(DeflateParameters())
        #expect(try client.decompress(bytes, isFinal: true, limit: 100) == hello)
        // The stream is still usable afterwards.
        #expect(try client.decompress([0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00], isFinal: true, limit: 100) == hello)
    }

    @Test func fragmentedCompressedMessage() throws {
        // §7.2.3.1 frames: 0x41 0x03 f2 48 cd, then 0x80 0x04 c9 c9 07 00 (sent by a server).
        let (_, client) = pair(DeflateParameters())
        var session = WebSocketSession(role: .client, maxMessageSize: 1024, compression: client)
        #expect(session.receive([0x41, 0x03, 0xf2, 0x48, 0xcd]) == [])
        #expect(session.receive([0x80, 0x04, 0xc9, 0xc9, 0x07, 0x00]) == [.deliver(.text("Hello"))])
    }
}

@Suite struct PerMessageDeflateTests {
    static let messages: [[UInt8]] = (0..<30).map { index in
        Array(#"{"type":"committed","seq":\#(index),"op":{"type":"move","sources":["i\#(index)"],"destination":{"collection":"done","before":null}}}"#.utf8)
            + Array(repeating: UInt8(ascii: "a") + UInt8(index % 26), count: index * 40)
    }

    @Test(arguments: [9, 10, 11, 12, 13, 14, 15])
    func roundTripsAtEveryWindowBothWays(bits: Int) throws {
        for contextTakeover in [true, false] {
            var parameters = DeflateParameters()
            parameters.serverMaxWindowBits = bits
            parameters.clientMaxWindowBits = bits
            parameters.serverNoContextTakeover = !contextTakeover
            parameters.clientNoContextTakeover = !contextTakeover
            let (server, client) = pair(parameters)
            for message in Self.messages {
                if let compressed = server.compress(message) {
                    #expect(try client.decompress(compressed, isFinal: true, limit: 1 << 20) == message)
                }
                if let compressed = client.compress(message) {
                    #expect(try server.decompress(compressed, isFinal: true, limit: 1 << 20) == message)
                }
            }
        }
    }

    @Test func compressedMessagesInflateAcrossAnySplit() throws {
        let message = Array(String(repeating: "corkboard ", count: 500).utf8)
        let (server, _) = pair(DeflateParameters())
        let compressed = try #require(server.compress(message))
        for cut in stride(from: 0, through: compressed.count, by: 7) {
            let (_, client) = pair(DeflateParameters())
            let first = try client.decompress(Array(compressed[..<cut]), isFinal: false, limit: 1 << 20)
            let rest = try client.decompress(Array(compressed[cut...]), isFinal: true, limit: 1 << 20 - first.count)
            #expect(first + rest == message)
        }
    }

    @Test func windowOfEightSendsUncompressed() {
        var parameters = DeflateParameters()
        parameters.serverMaxWindowBits = 8
        #expect(pair(parameters).server.compress(Self.messages[20]) == nil)
    }

    @Test func smallMessagesStayUncompressed() {
        let (server, _) = pair(DeflateParameters(), minimumSize: 128)
        #expect(server.compress(hello) == nil)
        #expect(server.compress(Self.messages[10]) != nil)
    }

    @Test func deflateBombStopsAtTheLimit() throws {
        let bomb = try #require(pair(DeflateParameters()).server.compress([UInt8](repeating: 0, count: 20 << 20)))
        #expect(bomb.count < 64 * 1024)
        let (_, client) = pair(DeflateParameters())
        #expect(throws: WebSocketError.messageTooLarge(1 << 20)) {
            try client.decompress(bomb, isFinal: true, limit: 1 << 20)
        }
    }

    @Test func garbageIsACompressionError() {
        let (_, client) = pair(DeflateParameters())
        #expect {
            try client.decompress([0xFF, 0xFF, 0xFF, 0x00, 0x12], isFinal: true, limit: 100)
        } throws: { error in
            if case .compression = error as? WebSocketError { return true }
            return false
        }
        #expect(WebSocketError.compression("x").closeCode == .invalidPayload)
    }
}
