import Dispatch
import Sockets

/// What the application does with a WebSocket. Every call arrives on the connection's loop.
public protocol WebSocketHandler: AnyObject {
    func webSocketDidOpen(_ socket: WebSocketConnection)
    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage)
    /// Called once; `code` is the peer's close code, ours when we failed the connection,
    /// or 1006 when the connection dropped without a close frame.
    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String)
}

extension WebSocketHandler {
    public func webSocketDidOpen(_ socket: WebSocketConnection) {}
}

/// A WebSocket on an accepted connection: feeds bytes to its `WebSocketSession`, carries out
/// the actions, pings idle peers, and times out a closing handshake the peer never completes.
///
/// Confinement: mutable state is touched only on `connection.loop`; public methods hop there,
/// which is what makes `@unchecked Sendable` true.
public final class WebSocketConnection: ConnectionHandler, LoopTickable, @unchecked Sendable {
    public let connection: Connection
    public let subprotocol: String?
    /// The timing of `WebSocketOptions`, all that a connection keeps of them (the options
    /// hold collections and an extension negotiator, well over a hundred bytes per idle
    /// socket), in nanoseconds: 8 bytes each where a `DispatchTimeInterval` takes 16.
    private let pingInterval: UInt64
    private let pongTimeout: UInt64
    private let closeTimeout: UInt64
    /// The negotiated compression (permessage-deflate), if any. Used on the loop only.
    private let compression: WebSocketMessageCompression?
    // Read for every frame sent (fan-out) and written for every frame received:
    // `@exclusivity(unchecked)` spares the run-time exclusivity check per access, like
    // `Connection`'s hot state. Confined to the loop (above); the session is a struct whose
    // methods cannot reach back into this object, so no access overlaps another.
    @exclusivity(unchecked) private var session: WebSocketSession
    private var handler: WebSocketHandler?
    /// When the peer was last heard from, on the loop's clock (uptime nanoseconds, as the
    /// two below: 8 bytes each where an optional `DispatchTime` takes 16).
    private var lastHeard: UInt64
    /// When the ping we await an answer to went out; `.max`: none is awaited.
    private var pingSentAt = UInt64.max
    /// When a closing handshake the peer never completes is given up; `.max`: none is under way.
    private var closeDeadline = UInt64.max
    /// The close code and reason the handler hears, once known: a box, made at the close.
    private var finished: WebSocketClosing?
    @exclusivity(unchecked) private var drainWaiters: [@Sendable () -> Void] = []
    /// The connection has closed: no more ticks.
    private var closed = false

    /// Takes over `connection` (on its loop) after the 101 response was queued.
    public init(
        connection: Connection, role: WebSocketFrameParser.Role = .server, subprotocol: String?,
        options: WebSocketOptions, compression: WebSocketMessageCompression? = nil, handler: WebSocketHandler
    ) {
        self.connection = connection
        self.subprotocol = subprotocol
        pingInterval = options.pingInterval.nanoseconds
        pongTimeout = options.pongTimeout.nanoseconds
        closeTimeout = options.closeTimeout.nanoseconds
        self.handler = handler
        self.compression = compression
        lastHeard = connection.loop.clock.now.uptimeNanoseconds
        session = WebSocketSession(
            role: role, maxMessageSize: options.maxMessageSize,
            acceptsBinary: options.acceptsBinary, compression: compression)
        // Liveness is checked by the loop's ticker, not a timer of our own (see `LoopTicker`).
        // Half the ping interval (at least 10 ms): how often liveness is checked.
        let interval = DispatchTimeInterval.nanoseconds(max(10_000_000, Int(pingInterval / 2)))
        connection.loop.execute { [self] in
            if !closed { connection.loop.startTicking(self, every: interval) }
        }
    }

    /// The largest message taken from the peer from now on (`WebSocketSession.maxMessageSize`).
    /// On the loop only, where the handler is called.
    public var maxMessageSize: Int {
        get { session.maxMessageSize }
        set {
            dispatchPrecondition(condition: .onQueue(connection.loop.queue))
            session.maxMessageSize = newValue
        }
    }

    /// Tells the application the WebSocket is open. Call once, on the loop, right after the 101.
    public func open() {
        handler?.webSocketDidOpen(self)
    }

    // MARK: Sending (any thread)

    public func send(_ message: WebSocketMessage) {
        switch message {
        case .text(let text): send(opcode: .text, Array(text.utf8))
        case .binary(let bytes): send(opcode: .binary, bytes)
        }
    }

    /// A text message given as its UTF-8 bytes (which the caller vouches for): framed from
    /// them, without the `String` `send(.text:)` takes.
    public func send(textBytes: [UInt8]) {
        send(opcode: .text, textBytes)
    }

    /// Whether permessage-deflate (or another compressing extension) was negotiated.
    public var isCompressing: Bool { compression != nil }

    /// Sends a message encoded once for many receivers: the fan-out path.
    public func send(_ broadcast: WebSocketBroadcast) {
        onLoop { self.sendOnLoop(broadcast) }
    }

    /// Sends one broadcast to many sockets with one hop per loop rather than one per socket.
    ///
    /// An array, not any sequence: a generic here is not specialized for callers in other
    /// modules (the server's), and iterating it unspecialized looked up generic metadata for
    /// every member, about a seventh of the server's own instructions per delivery. Grouped
    /// by the loops' indices (0 up to the loop count) in an array, without hashing.
    public static func send(_ broadcast: WebSocketBroadcast, to sockets: [WebSocketConnection]) {
        guard let first = sockets.first else { return }
        let loopIndex = first.connection.loop.index
        // Most often every member is on one loop (or there is one member): one hop, no copies.
        if sockets.allSatisfy({ $0.connection.loop.index == loopIndex }) {
            return first.connection.loop.execute {
                for socket in sockets { socket.sendOnLoop(broadcast) }
            }
        }
        var byLoop: [[WebSocketConnection]] = []
        for socket in sockets {
            let index = socket.connection.loop.index
            if index >= byLoop.count { byLoop += Array(repeating: [], count: index + 1 - byLoop.count) }
            byLoop[index].append(socket)
        }
        for group in byLoop where !group.isEmpty {
            group[0].connection.loop.execute {
                for socket in group { socket.sendOnLoop(broadcast) }
            }
        }
    }

    private func sendOnLoop(_ broadcast: WebSocketBroadcast) {
        guard session.state == .open else { return }
        connection.sendOnLoop(broadcast.frame(for: compression))
    }

    public func close(_ code: WebSocketCloseCode = .normal, reason: String = "") {
        onLoop { self.perform(self.session.close(code, reason: reason)) }
    }

    /// Runs `work` on the loop once everything queued so far has been written (at once when
    /// nothing is queued): how a long replay paces itself to the reader. Dropped if the
    /// connection closes first.
    public func whenDrained(_ work: @escaping @Sendable () -> Void) {
        onLoop {
            if self.connection.pendingOutputBytes == 0 { work() } else { self.drainWaiters.append(work) }
        }
    }

    /// Bytes queued for this peer and not yet written: how far behind it is.
    public var pendingOutputBytes: Int { connection.pendingOutputBytes }

    private func send(opcode: WebSocketOpcode, _ payload: [UInt8]) {
        onLoop {
            guard self.session.state == .open else { return }
            if let compressed = self.compression?.compress(payload) {
                self.connection.sendOnLoop(self.session.frameChunk(opcode, compressed, rsv1: true))
            } else {
                self.connection.sendOnLoop(self.session.frameChunk(opcode, payload))
            }
        }
    }

    private func onLoop(_ work: @escaping @Sendable () -> Void) { connection.loop.execute(work) }

    // MARK: ConnectionHandler

    public func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        lastHeard = connection.loop.clock.now.uptimeNanoseconds
        pingSentAt = .max
        session.append(bytes)
        while let actions = session.nextActions() { perform(actions) }
    }

    public func connectionDidReadEOF(_ connection: Connection) {
        perform(session.transportEnded())
        connection.close()
    }

    public func connectionDidDrain(_ connection: Connection) {
        // Called after every flush that emptied the queue: nearly always nobody waits.
        guard !drainWaiters.isEmpty else { return }
        let waiters = drainWaiters
        drainWaiters = []
        for work in waiters { work() }
    }

    public func connectionShouldShutDown(_ connection: Connection) {
        perform(session.close(.goingAway, reason: "server shutting down"))
    }

    public func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        closed = true
        connection.loop.stopTicking(self)
        drainWaiters = []
        let (code, text) = finished.map { ($0.code, $0.reason) } ?? (.abnormal, "")
        let handler = self.handler
        self.handler = nil
        handler?.webSocketDidClose(self, code: code, reason: text)
    }

    private func perform(_ actions: [WebSocketSession.Action]) {
        for action in actions {
            switch action {
            case .write(let bytes):
                connection.send(bytes)
                if session.state == .closing && closeDeadline == .max {
                    // From now on only the closing handshake's deadline matters.
                    closeDeadline = connection.loop.clock.now.uptimeNanoseconds.addingSaturated(closeTimeout)
                    connection.loop.startTicking(self, every: .milliseconds(100))
                }
            case .deliver(let message):
                handler?.webSocket(self, didReceive: message)
            case .closeTransport:
                connection.close()
            case .finished(let code, let reason):
                if finished == nil { finished = WebSocketClosing(code: code, reason: reason) }
            }
        }
    }

    /// Runs at least twice per ping interval: pings a silent peer, drops one that ignored the
    /// ping, and ends a closing handshake the peer never answered.
    public func loopDidTick(now time: DispatchTime) {
        guard !closed else { return }
        let now = time.uptimeNanoseconds
        if now >= closeDeadline {
            perform(session.transportEnded())
            connection.abort()
            return
        }
        if pingSentAt != .max {
            if now >= pingSentAt.addingSaturated(pongTimeout) {
                finished = finished ?? WebSocketClosing(code: .goingAway, reason: "no answer to ping")
                perform(session.transportEnded())
                connection.abort()
            }
        } else if now >= lastHeard.addingSaturated(pingInterval) {
            pingSentAt = now
            perform(session.ping())
        } else {
            // Nothing due: if nothing waits to be written either, the output queue's storage
            // is given back until the next send. Ticks are seconds apart, so a busy connection
            // pays one malloc per tick for it, not one per write.
            connection.releaseIdleStorage()
        }
    }
}

/// How a WebSocket ended, as its handler hears it: made once, when the close code is known.
private final class WebSocketClosing {
    let code: WebSocketCloseCode
    let reason: String

    init(code: WebSocketCloseCode, reason: String) {
        self.code = code
        self.reason = reason
    }
}

extension UInt64 {
    /// The sum, or `.max` where it would overflow (a `.never` timeout).
    fileprivate func addingSaturated(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
