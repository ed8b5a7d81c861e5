import Testing

@testable import WebSocket

/// Parses `chunks` in order and returns the frames (pieces) or the error.
private func frames(_ chunks: [[UInt8]], role: WebSocketFrameParser.Role, maxFrameSize: Int = 1 << 20, rsv1: Bool = false) -> (
    [WebSocketFrame], WebSocketError?
) {
    var parser = WebSocketFrameParser(role: role, maxFrameSize: maxFrameSize)
    parser.allowsRSV1 = rsv1
    var result: [WebSocketFrame] = []
    for chunk in chunks {
        parser.append(chunk)
        do {
            while let frame = try parser.next() { result.append(frame) }
        } catch {
            return (result, error)
        }
    }
    return (result, nil)
}

/// Parses then assembles: the messages and control frames a stream carries, whatever the split.
private func messages(_ chunks: [[UInt8]], role: WebSocketFrameParser.Role) throws -> [WebSocketMessageAssembler.Output] {
    let (pieces, error) = frames(chunks, role: role)
    if let error { throw error }
    var assembler = WebSocketMessageAssembler()
    return try pieces.compactMap { try assembler.receive($0) }
}

/// Every split in two, and byte by byte, yields the same messages as the whole.
private func expectSameAtEverySplit(_ bytes: [UInt8], role: WebSocketFrameParser.Role) throws -> [WebSocketMessageAssembler.Output] {
    let whole = try messages([bytes], role: role)
    for cut in 0...bytes.count {
        #expect(try messages([Array(bytes[..<cut]), Array(bytes[cut...])], role: role) == whole, "split at \(cut)")
    }
    #expect(try messages(bytes.map { [$0] }, role: role) == whole)
    return whole
}

/// RFC 6455 §5.7 examples, byte for byte.
@Suite struct RFCExampleTests {
    static let helloMasked: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]

    @Test func singleFrameUnmaskedText() throws {
        let bytes: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
        #expect(try expectSameAtEverySplit(bytes, role: .client) == [.message(.text("Hello"))])
        #expect(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)).encoded() == bytes)
    }

    @Test func singleFrameMaskedText() throws {
        #expect(try expectSameAtEverySplit(Self.helloMasked, role: .server) == [.message(.text("Hello"))])
        #expect(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)).encoded(maskingKey: (0x37, 0xfa, 0x21, 0x3d)) == Self.helloMasked)
    }

    @Test func fragmentedUnmaskedText() throws {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f]
        #expect(try expectSameAtEverySplit(bytes, role: .client) == [.message(.text("Hello"))])
    }

    @Test func pingAndMaskedPong() throws {
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
        #expect(try expectSameAtEverySplit(ping, role: .client) == [.control(WebSocketFrame(opcode: .ping, payload: Array("Hello".utf8)))])
        let pong: [UInt8] = [0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        #expect(try expectSameAtEverySplit(pong, role: .server) == [.control(WebSocketFrame(opcode: .pong, payload: Array("Hello".utf8)))])
    }

    @Test func sixteenBitLength() throws {
        let payload = (0..<256).map { UInt8($0) }
        let bytes: [UInt8] = [0x82, 0x7E, 0x01, 0x00] + payload
        #expect(WebSocketFrame(opcode: .binary, payload: payload).encoded() == bytes)
        #expect(try messages([bytes], role: .client) == [.message(.binary(payload))])
        #expect(
            try messages(stride(from: 0, to: bytes.count, by: 7).map { Array(bytes[$0..<min($0 + 7, bytes.count)]) }, role: .client)
                == [.message(.binary(payload))])
    }

    @Test func sixtyFourBitLength() throws {
        let payload = (0..<65536).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let bytes: [UInt8] = [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0] + payload
        #expect(WebSocketFrame(opcode: .binary, payload: payload).encoded() == bytes)
        #expect(try messages([bytes], role: .client) == [.message(.binary(payload))])
        #expect(
            try messages(stride(from: 0, to: bytes.count, by: 1000).map { Array(bytes[$0..<min($0 + 1000, bytes.count)]) }, role: .client)
                == [.message(.binary(payload))])
    }
}

@Suite struct WebSocketFrameParserTests {
    @Test func largeMaskedFrameIsUnmaskedAcrossPieces() throws {
        let payload = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let bytes = WebSocketFrame(opcode: .binary, payload: payload).encoded(maskingKey: (1, 2, 3, 4))
        for chunk in [1, 3, 7, 8, 4096, 65536] {
            let pieces = stride(from: 0, to: bytes.count, by: chunk).map { Array(bytes[$0..<min($0 + chunk, bytes.count)]) }
            #expect(try messages(pieces, role: .server) == [.message(.binary(payload))], "chunk \(chunk)")
        }
    }

    @Test func piecesOfOneFrameLookLikeFragments() {
        let bytes = WebSocketFrame(opcode: .text, payload: Array("abcdef".utf8)).encoded(maskingKey: (9, 8, 7, 6))
        let (pieces, error) = frames([Array(bytes[..<8]), Array(bytes[8...])], role: .server)
        #expect(error == nil)
        #expect(
            pieces == [
                WebSocketFrame(fin: false, opcode: .text, payload: Array("ab".utf8)),
                WebSocketFrame(fin: true, opcode: .continuation, payload: Array("cdef".utf8)),
            ])
    }

    @Test func controlFramesAreNeverSplit() {
        let bytes = WebSocketFrame(opcode: .ping, payload: Array("hello".utf8)).encoded(maskingKey: (1, 1, 1, 1))
        let (pieces, _) = frames([Array(bytes[..<8])], role: .server)
        #expect(pieces.isEmpty)
    }

    @Test(
        arguments: [
            ([0x83, 0x80, 0, 0, 0, 0], WebSocketError.reservedOpcode(3)),
            ([0x8B, 0x80, 0, 0, 0, 0], .reservedOpcode(11)),
            ([0xA1, 0x80, 0, 0, 0, 0], .reservedBitsSet), // RSV2
            ([0x91, 0x80, 0, 0, 0, 0], .reservedBitsSet), // RSV3
            ([0xC1, 0x80, 0, 0, 0, 0], .reservedBitsSet), // RSV1 without an extension
            ([0x81, 0x00], .unmaskedClientFrame),
            ([0x09, 0x80, 0, 0, 0, 0], .fragmentedControlFrame),
            ([0x89, 0xFE, 0x00, 0x7E], .controlFrameTooLong),
            ([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], .lengthHighBitSet),
            ([0x82, 0xFF, 0, 0, 0, 0, 0x10, 0, 0, 1], .frameTooLarge(1 << 20)),
        ] as [([UInt8], WebSocketError)])
    func invalidHeadersFailAsSoonAsTheyArrive(bytes: [UInt8], expected: WebSocketError) {
        #expect(frames([bytes], role: .server).1 == expected)
    }

    @Test func rsv1OnControlFramesIsRefusedEvenWithCompression() {
        #expect(frames([[0xC9, 0x80, 0, 0, 0, 0]], role: .server, rsv1: true).1 == .reservedBitsSet)
        #expect(frames([[0xC1, 0x80, 0, 0, 0, 0]], role: .server, rsv1: true).1 == nil)
    }

    @Test func clientRefusesMaskedServerFrames() {
        #expect(frames([RFCExampleTests.helloMasked], role: .client).1 == .maskedServerFrame)
    }

    @Test func errorsMapToCloseCodesInOnePlace() {
        #expect(WebSocketError.invalidUTF8.closeCode == .invalidPayload)
        #expect(WebSocketError.messageTooLarge(1).closeCode == .messageTooBig)
        #expect(WebSocketError.frameTooLarge(1).closeCode == .messageTooBig)
        #expect(WebSocketError.binaryNotAccepted.closeCode == .unsupportedData)
        #expect(WebSocketError.reservedBitsSet.closeCode == .protocolError)
        #expect(WebSocketError.unmaskedClientFrame.closeCode == .protocolError)
        #expect(WebSocketError.invalidCloseCode(999).closeCode == .protocolError)
    }

    /// Every error and its close code (RFC 6455 §7.4.1): a new error fails to compile in
    /// `closeCode` until it is given one, and this list says which.
    @Test(arguments: [
        (WebSocketError.reservedOpcode(3), WebSocketCloseCode.protocolError), (.reservedBitsSet, .protocolError),
        (.unmaskedClientFrame, .protocolError), (.maskedServerFrame, .protocolError),
        (.fragmentedControlFrame, .protocolError), (.controlFrameTooLong, .protocolError),
        (.lengthHighBitSet, .protocolError), (.unexpectedContinuation, .protocolError),
        (.expectedContinuation, .protocolError), (.invalidClosePayload, .protocolError),
        (.invalidCloseCode(999), .protocolError), (.invalidUTF8, .invalidPayload), (.frameTooLarge(1), .messageTooBig),
        (.messageTooLarge(1), .messageTooBig), (.binaryNotAccepted, .unsupportedData), (.compression("x"), .invalidPayload),
    ])
    func everyErrorHasItsCloseCode(_ error: WebSocketError, _ code: WebSocketCloseCode) {
        #expect(error.closeCode == code)
        #expect(error.reason.utf8.count <= 123)
    }
}
