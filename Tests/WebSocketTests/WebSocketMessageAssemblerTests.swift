import Testing

@testable import WebSocket

@Suite struct WebSocketMessageAssemblerTests {
    private func assemble(_ frames: [WebSocketFrame], maxMessageSize: Int = 1 << 20) -> ([WebSocketMessageAssembler.Output], WebSocketError?) {
        var assembler = WebSocketMessageAssembler(maxMessageSize: maxMessageSize)
        var outputs: [WebSocketMessageAssembler.Output] = []
        for frame in frames {
            do {
                if let output = try assembler.receive(frame) { outputs.append(output) }
            } catch {
                return (outputs, error)
            }
        }
        return (outputs, nil)
    }

    @Test func controlFramesInterleaveWithFragments() {
        let ping = WebSocketFrame(opcode: .ping, payload: [1])
        let (outputs, error) = assemble([
            WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)),
            ping,
            WebSocketFrame(fin: false, opcode: .continuation, payload: Array("l".utf8)),
            WebSocketFrame(fin: true, opcode: .continuation, payload: Array("o".utf8)),
        ])
        #expect(error == nil)
        #expect(outputs == [.control(ping), .message(.text("Hello"))])
    }

    @Test func characterSplitAcrossFragmentsIsFine() {
        let bytes = Array("é".utf8)
        let (outputs, _) = assemble([
            WebSocketFrame(fin: false, opcode: .text, payload: [bytes[0]]),
            WebSocketFrame(fin: true, opcode: .continuation, payload: [bytes[1]]),
        ])
        #expect(outputs == [.message(.text("é"))])
    }

    @Test func invalidUTF8FailsOnTheFragmentThatHasIt() {
        let (outputs, error) = assemble([
            WebSocketFrame(fin: false, opcode: .text, payload: Array("κόσμε".utf8)),
            WebSocketFrame(fin: false, opcode: .continuation, payload: [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80]),
        ])
        #expect(outputs.isEmpty)
        #expect(error == .invalidUTF8)
    }

    @Test func textEndingMidCharacterIsInvalid() {
        #expect(assemble([WebSocketFrame(opcode: .text, payload: [0x68, 0xE2, 0x82])]).1 == .invalidUTF8)
    }

    @Test func binaryIsNotValidatedAsText() {
        #expect(assemble([WebSocketFrame(opcode: .binary, payload: [0xFF, 0xFE])]).0 == [.message(.binary([0xFF, 0xFE]))])
    }

    @Test func continuationWithoutAStartFails() {
        #expect(assemble([WebSocketFrame(opcode: .continuation, payload: [])]).1 == .unexpectedContinuation)
    }

    @Test func newMessageBeforeTheLastEndedFails() {
        #expect(
            assemble([
                WebSocketFrame(fin: false, opcode: .text, payload: []),
                WebSocketFrame(opcode: .binary, payload: []),
            ]).1 == .expectedContinuation)
    }

    @Test func messageOverTheLimitFailsEvenInSmallFragments() {
        let fragments = (0..<11).map { WebSocketFrame(fin: $0 == 10, opcode: $0 == 0 ? .binary : .continuation, payload: [UInt8](repeating: 1, count: 10)) }
        #expect(assemble(fragments, maxMessageSize: 100).1 == .messageTooLarge(100))
        #expect(assemble(Array(fragments.prefix(10)) + [WebSocketFrame(opcode: .continuation, payload: [])], maxMessageSize: 100).1 == nil)
    }

    @Test func compressedFrameWithoutAnExtensionFails() {
        #expect(assemble([WebSocketFrame(rsv1: true, opcode: .text, payload: [])]).1 == .reservedBitsSet)
    }

    @Test func emptyMessagesAreMessages() {
        #expect(assemble([WebSocketFrame(opcode: .text, payload: [])]).0 == [.message(.text(""))])
    }
}
