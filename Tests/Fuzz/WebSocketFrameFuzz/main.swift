// libFuzzer target: the WebSocket frame codec (WebSocketFrameParser, WebSocketFrame.encoded)
// and the protocol state above it (WebSocketSession, WebSocketMessageAssembler, close
// payloads, UTF-8 validation), optionally with permessage-deflate.
//
// Input: one choice byte, then the bytes a peer sends.
//   bit 0: we are the client (frames from a server, unmasked) instead of the server
//   bit 1: permessage-deflate negotiated (RSV1 allowed, compressed messages inflated)
//   bit 2: a small message limit (200 bytes) instead of 64 KiB
//   bits 3-7: seed of how the bytes are cut into reads
//
// Invariants beyond "does not crash":
// - a session fed the bytes whole and in pieces takes the same actions (a read boundary
//   changes nothing a peer can observe, except which of two faults in one message is
//   reported: see `observable`);
// - every complete frame the parser returns, encoded again (masked as its sender would),
//   parses back to the same frame;
// - nothing delivered exceeds the limit; after the transport is to be closed, nothing
//   else is written or delivered, and `finished` comes at most once.
import WebSocket
import WebSocketDeflate

func makeSession(_ choice: UInt8) -> WebSocketSession {
    let role: WebSocketFrameParser.Role = choice & 1 != 0 ? .client : .server
    let limit = choice & 4 != 0 ? 200 : 64 * 1024
    var compression: WebSocketMessageCompression?
    if choice & 2 != 0 {
        var parameters = DeflateParameters()
        parameters.clientMaxWindowBits = 15
        compression = PerMessageDeflate(parameters: parameters, configuration: DeflateConfiguration(mode: .speed), isServer: role == .server)
    }
    return WebSocketSession(role: role, maxMessageSize: limit, compression: compression)
}

/// Runs a session over the reads; returns its actions (writes kept only for the server role,
/// whose frames are unmasked and so deterministic).
func run(_ reads: [ArraySlice<UInt8>], choice: UInt8) -> [WebSocketSession.Action] {
    var session = makeSession(choice)
    let limit = choice & 4 != 0 ? 200 : 64 * 1024
    var actions: [WebSocketSession.Action] = []
    for read in reads { actions += session.receive(read) }
    var transportClosed = false
    var finished = 0
    for action in actions {
        switch action {
        case .write:
            check(!transportClosed, "a write after closeTransport")
        case .deliver(let message):
            check(!transportClosed, "a delivery after closeTransport")
            switch message {
            case .text(let text): check(text.utf8.count <= limit, "text of \(text.utf8.count) bytes over the limit \(limit)")
            case .binary(let bytes): check(bytes.count <= limit, "binary of \(bytes.count) bytes over the limit \(limit)")
            }
        case .closeTransport:
            transportClosed = true
        case .finished(let code, _):
            finished += 1
            check(code.rawValue >= 1000, "close code \(code)")
        }
    }
    check(finished <= 1, "finished \(finished) times")
    if choice & 1 != 0 { return actions.filter { if case .write = $0 { return false } else { return true } } }
    return actions
}

/// What the differential check compares. A message can hold two faults (bytes that are not
/// UTF-8, a size over the limit, compressed data that does not inflate); which is seen first
/// depends on where the frame was cut into pieces, so those failures compare as one kind,
/// without their reason text. Everything else must be identical.
func observable(_ actions: [WebSocketSession.Action]) -> [String] {
    func kind(_ code: UInt16) -> String { code == 1007 || code == 1009 ? "payload fault" : String(code) }
    return actions.map { action in
        switch action {
        case .write(let bytes) where bytes.first == 0x88 && bytes.count >= 4:
            return "close frame: \(kind(UInt16(bytes[2]) << 8 | UInt16(bytes[3])))"
        case .finished(let code, let reason) where code == .invalidPayload || code == .messageTooBig:
            _ = reason
            return "finished: \(kind(code.rawValue))"
        default:
            return "\(action)"
        }
    }
}

/// The frames of `bytes` parsed in one read; the last is dropped if it may be cut short.
func completeFrames(_ bytes: [UInt8], role: WebSocketFrameParser.Role, allowsRSV1: Bool) -> [WebSocketFrame] {
    var parser = WebSocketFrameParser(role: role, maxFrameSize: 1 << 20)
    parser.allowsRSV1 = allowsRSV1
    parser.append(bytes)
    var frames: [WebSocketFrame] = []
    while frames.count <= bytes.count, let frame = try? parser.next() { frames.append(frame) }
    check(frames.count <= bytes.count / 2 + 1, "more frames than a 2-byte header each allows")
    // A frame whose payload is still arriving comes out as a first piece: not a whole frame.
    if parser.bufferedByteCount == 0 && !frames.isEmpty { frames.removeLast() }
    return frames
}

func checkRoundTrip(_ bytes: [UInt8], choice: UInt8) {
    let role: WebSocketFrameParser.Role = choice & 1 != 0 ? .client : .server
    let allowsRSV1 = choice & 2 != 0
    for frame in completeFrames(bytes, role: role, allowsRSV1: allowsRSV1) {
        // A server receives masked frames (any key will do), a client unmasked ones.
        let encoded = frame.encoded(maskingKey: role == .server ? (choice, 0x5A, 0xA5, 0x3C) : nil)
        var parser = WebSocketFrameParser(role: role, maxFrameSize: 1 << 20)
        parser.allowsRSV1 = allowsRSV1
        parser.append(encoded)
        let again = try? parser.next()
        check(again == frame, "frame \(frame) re-encoded parsed as \(String(describing: again))")
        check(parser.bufferedByteCount == 0, "re-encoded frame left \(parser.bufferedByteCount) bytes")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = input.takeChoice()
    let whole = run([input.bytes[...]], choice: choice)
    let cut = run(pieces(of: input.bytes, seed: choice >> 3, maximum: 1 + Int(choice >> 3)), choice: choice)
    check(observable(whole) == observable(cut), "whole:\n\(whole)\nin pieces:\n\(cut)")
    checkRoundTrip(input.bytes, choice: choice)
    return 0
}
