import Sockets

/// The protocol state of one WebSocket connection, without the socket: bytes and commands
/// in, actions out. `WebSocketConnection` carries the actions out on a real connection; tests
/// drive this directly.
public struct WebSocketSession {
    public enum Action: Equatable {
        /// Bytes to write to the peer.
        case write([UInt8])
        /// A complete message for the application.
        case deliver(WebSocketMessage)
        /// Close the TCP connection once everything written so far has gone out.
        case closeTransport
        /// The WebSocket is closed: the code and reason are the peer's (or ours, when we failed it).
        case finished(WebSocketCloseCode, String)
    }

    public enum State: Equatable {
        case open
        /// We sent a close frame and wait for the peer's.
        case closing
        case closed
    }

    public private(set) var state = State.open
    private var parser: WebSocketFrameParser
    private var assembler: WebSocketMessageAssembler
    private let role: WebSocketFrameParser.Role
    private let acceptsBinary: Bool

    public init(
        role: WebSocketFrameParser.Role, maxMessageSize: Int, acceptsBinary: Bool = true,
        compression: WebSocketMessageCompression? = nil
    ) {
        self.role = role
        self.acceptsBinary = acceptsBinary
        parser = WebSocketFrameParser(role: role, maxFrameSize: maxMessageSize)
        parser.allowsRSV1 = compression != nil
        assembler = WebSocketMessageAssembler(maxMessageSize: maxMessageSize, compression: compression)
    }

    /// The largest frame and message taken from the peer from now on (a bigger one fails the
    /// connection with 1009 as soon as its header is read): a server may take less until the
    /// peer has said who it is.
    public var maxMessageSize: Int {
        get { assembler.maxMessageSize }
        set {
            parser.maxFrameSize = newValue
            assembler.maxMessageSize = newValue
        }
    }

    /// Takes bytes from the peer; `nextActions()` then turns them into actions frame by frame.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if state != .closed { parser.append(bytes) }
    }

    /// Takes bytes and returns the actions of every complete frame in them.
    public mutating func receive<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Action] {
        guard state != .closed else { return [] }
        parser.append(bytes)
        var actions: [Action] = []
        while let next = nextActions() { actions += next }
        return actions
    }

    /// Starts the closing handshake; the peer's close frame (or a timeout) ends it.
    public mutating func close(_ code: WebSocketCloseCode, reason: String = "") -> [Action] {
        guard state == .open else { return [] }
        state = .closing
        return [.write(frame(.close, WebSocketClosePayload(code: code, reason: reason).bytes))]
    }

    /// A ping to check the peer is alive (only while open).
    public mutating func ping(_ payload: [UInt8] = []) -> [Action] {
        state == .open ? [.write(frame(.ping, payload))] : []
    }

    /// The peer is gone without a close frame (EOF, reset, timeout).
    public mutating func transportEnded() -> [Action] {
        guard state != .closed else { return [] }
        state = .closed
        return [.finished(.abnormal, "")]
    }

    /// Encodes a frame the way this side must send it (clients mask with a fresh key).
    public func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], rsv1: Bool = false) -> [UInt8] {
        let frame = WebSocketFrame(rsv1: rsv1, opcode: opcode, payload: payload)
        guard role == .client else { return frame.encoded() }
        let key = UInt32.random(in: .min ... .max)
        return frame.encoded(maskingKey: (UInt8(key >> 24), UInt8(key >> 16 & 0xFF), UInt8(key >> 8 & 0xFF), UInt8(key & 0xFF)))
    }

    /// `frame`, as the chunk a connection queues: a server's frame is written straight into
    /// it (one copy of the payload instead of two).
    public func frameChunk(_ opcode: WebSocketOpcode, _ payload: [UInt8], rsv1: Bool = false) -> ByteChunk {
        guard role == .server else { return ByteChunk(frame(opcode, payload, rsv1: rsv1)) }
        return WebSocketFrame(rsv1: rsv1, opcode: opcode, payload: payload).encodedChunk()
    }

    /// The actions of the next frame (or frame piece) buffered, or nil when more bytes are needed.
    /// One frame at a time, so that the application's answer to a message goes out before the
    /// close frame of a protocol error that follows it in the same read.
    public mutating func nextActions() -> [Action]? {
        guard state != .closed else { return nil }
        do {
            guard let piece = try parser.next() else { return nil }
            switch try assembler.receive(piece) {
            case .message(let message)?:
                if case .binary = message, !acceptsBinary { throw WebSocketError.binaryNotAccepted }
                // After our close frame, the application has said its last word: data is dropped.
                return state == .open ? [.deliver(message)] : []
            case .control(let control)?:
                return try handleControl(control)
            case nil:
                return []
            }
        } catch {
            return fail(error)
        }
    }

    private mutating func handleControl(_ control: WebSocketFrame) throws(WebSocketError) -> [Action] {
        switch control.opcode {
        case .ping:
            return state == .open ? [.write(frame(.pong, control.payload))] : []
        case .pong:
            // Nothing to do: any bytes from the peer prove it alive (`WebSocketConnection`).
            return []
        case .close:
            let payload = try WebSocketClosePayload(parsing: control.payload)
            let wasOpen = state == .open
            state = .closed
            // Echo the code back (RFC 6455 §5.5.1); an empty close is answered with an empty one.
            let reply: [Action] = wasOpen ? [.write(frame(.close, WebSocketClosePayload(code: payload.code).bytes))] : []
            return reply + [.closeTransport, .finished(payload.code ?? .noStatus, payload.reason)]
        default:
            return []
        }
    }

    /// Fails the connection: a close frame with the error's code, then the transport closes.
    private mutating func fail(_ error: Error) -> [Action] {
        let error = error as? WebSocketError ?? .compression("\(error)")
        let wasOpen = state == .open
        state = .closed
        let closeFrame: [Action] =
            wasOpen
            ? [.write(frame(.close, WebSocketClosePayload(code: error.closeCode, reason: error.reason).bytes))] : []
        return closeFrame + [.closeTransport, .finished(error.closeCode, error.reason)]
    }
}
