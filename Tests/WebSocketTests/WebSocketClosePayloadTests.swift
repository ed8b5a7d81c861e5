import Testing

@testable import WebSocket

@Suite struct WebSocketClosePayloadTests {
    @Test func emptyPayloadHasNoCode() throws {
        #expect(try WebSocketClosePayload(parsing: []) == WebSocketClosePayload(code: nil))
    }

    @Test(arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999] as [UInt16])
    func validCodes(code: UInt16) throws {
        let payload = try WebSocketClosePayload(parsing: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array("bye".utf8))
        #expect(payload.code?.rawValue == code)
        #expect(payload.reason == "bye")
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] as [UInt16])
    func invalidCodes(code: UInt16) {
        #expect(throws: WebSocketError.invalidCloseCode(code)) {
            try WebSocketClosePayload(parsing: [UInt8(code >> 8), UInt8(code & 0xFF)])
        }
    }

    @Test func oneBytePayloadIsAProtocolError() {
        #expect(throws: WebSocketError.invalidClosePayload) { try WebSocketClosePayload(parsing: [0x03]) }
    }

    @Test func reasonMustBeUTF8() {
        #expect(throws: WebSocketError.invalidUTF8) { try WebSocketClosePayload(parsing: [0x03, 0xE8, 0xFF]) }
    }

    @Test func longReasonsAreCutOnACharacterBoundary() throws {
        let payload = WebSocketClosePayload(code: .normal, reason: String(repeating: "é", count: 100))
        #expect(payload.bytes.count <= 125)
        #expect(try WebSocketClosePayload(parsing: payload.bytes).reason == String(repeating: "é", count: 61))
    }
}
