import Dispatch

/// One accepted (or connected) TCP socket, registered with its loop's epoll: the shell that
/// keeps the descriptor and the buffers, and carries out what its `ConnectionStateMachine`
/// decides (reading or not, the output bound, the lingering close, the close reason).
///
/// What it waits for (`interest`) follows the machine and the output: readable while the
/// machine reads (dropped for backpressure), writable only while output is blocked. Its loop
/// reports readiness in its turns (`readinessReported`) and flushes it once per turn.
///
/// With a transport filter (TLS), bytes read pass through the filter before the handler sees
/// them, and bytes sent wait as plaintext until a flush encodes them into the output queue.
///
/// Confinement: every mutable property is touched only on `loop.queue`. Public methods may be
/// called from any thread and hop to the loop, which is why the class is `@unchecked Sendable`.
public final class Connection: @unchecked Sendable, Hashable {
    public let socket: Socket
    public let loop: IOLoop
    public let remoteAddress: SocketAddress?
    /// The limits, shared by every connection of a server (one `SharedLimits` per `TCPServer`)
    /// rather than copied into each: about 40 bytes an idle connection does not hold.
    private let sharedLimits: SharedLimits
    public var limits: Limits { sharedLimits.limits }
    /// The server's counters this connection adds to, if any.
    private let counters: TrafficCounters?
    /// The TLS-only state (the filter, the plaintext not encoded yet), made only under TLS:
    /// a connection in the clear holds one empty reference instead of both.
    private let tls: TLSState?
    /// TLS, when the connection has it.
    private var filter: TransportFilter? { tls?.filter }
    /// Ciphertext encoded ahead of the socket: a large send is encoded as the socket drains.
    static let encodeAhead = 256 * 1024

    // The state every send and flush reads and writes is `@exclusivity(unchecked)`: Swift
    // cannot prove that a class's stored properties are never accessed overlapping, so it
    // checks each access at run time (swift_beginAccess, a thread-local access set), which
    // callgrind put at a quarter of the server's own instructions per fan-out delivery
    // (docs/benchmarks.md, "Where the CPU goes"). These properties are confined to
    // `loop.queue` (see above), so no two threads touch them, and no method here holds an
    // access to one of them across a call that could reach the same property.
    @exclusivity(unchecked) private var machine: ConnectionStateMachine
    @exclusivity(unchecked) private var handler: ConnectionHandler?
    @exclusivity(unchecked) private var output = OutputQueue()
    /// What was sent and not yet encoded by the filter: the TLS box's (always empty without one).
    private var plaintext: PlaintextQueue {
        get { tls?.plaintext ?? PlaintextQueue() }
        _modify {
            if let tls {
                yield &tls.plaintext
            } else {
                var none = PlaintextQueue()
                yield &none
            }
        }
    }
    @exclusivity(unchecked) private var flushScheduled = false
    /// The socket took less than was queued: the loop's epoll waits for it to be writable.
    @exclusivity(unchecked) private var awaitingWritable = false
    /// What the loop's epoll watches the descriptor for now (nothing: not in epoll).
    @exclusivity(unchecked) private var interest: Epoll.Events = []
    /// The loop's registration of this connection (see `LoopRegistrations`), from the first
    /// time it waits for anything until it closes.
    @exclusivity(unchecked) private var registration: UInt64?
    private var lingerTimer: LoopTimer?
    /// Bytes the socket has taken since the connection opened: a writer's measure of progress.
    @exclusivity(unchecked) private var written = 0
    /// Who is told of the close after the handler (`observeClose`): the server that accepted it.
    private weak var closeObserver: (any ConnectionCloseObserver)?

    public convenience init(
        socket: Socket, loop: IOLoop, remoteAddress: SocketAddress?, limits: Limits = Limits(),
        counters: TrafficCounters? = nil, filter: TransportFilter? = nil
    ) {
        self.init(
            socket: socket, loop: loop, remoteAddress: remoteAddress, sharedLimits: SharedLimits(limits), counters: counters,
            filter: filter)
    }

    init(
        socket: Socket, loop: IOLoop, remoteAddress: SocketAddress?, sharedLimits: SharedLimits, counters: TrafficCounters?,
        filter: TransportFilter?
    ) {
        self.socket = socket
        tls = filter.map(TLSState.init)
        self.loop = loop
        self.remoteAddress = remoteAddress
        self.sharedLimits = sharedLimits
        self.counters = counters
        machine = ConnectionStateMachine(limits: sharedLimits, hasFilter: filter != nil)
        counters?.connectionOpened()
        try? socket.setNoDelay()
    }

    /// Installs the handler and starts reading. Call once, from anywhere.
    public func start(handler: ConnectionHandler) {
        let box = UncheckedBox(handler)
        loop.execute { self.startOnLoop(box.value) }
    }

    private func startOnLoop(_ handler: ConnectionHandler) {
        // Aborted before it started (it is closing already): nothing to start.
        guard machine.start() else { return }
        self.handler = handler
        syncInterest()
        if let filter {
            filter.start()
            pumpFilterOutput()
            loop.flushPending()
        }
    }

    /// Replaces the protocol handler (an HTTP connection upgrading to WebSocket). On the loop only.
    public func replaceHandler(_ handler: ConnectionHandler) {
        precondition(loop.isCurrent)
        if machine.state != .closed { self.handler = handler }
    }

    // MARK: Carrying out the machine's actions

    private func perform(_ action: ConnectionStateMachine.Action?) {
        switch action {
        case nil:
            syncInterest()
        case .terminate:
            tearDown()
        case .flush:
            syncInterest()
            scheduleFlush()
        case .shutDownWrite:
            shutDownWriteAndLinger()
        case .tellHandlerEOF:
            syncInterest()
            handler?.connectionDidReadEOF(self)
        case .tellHandlerDrained:
            handler?.connectionDidDrain(self)
        }
    }

    /// Makes the loop's epoll watch for what the machine and the output want now: readable
    /// while the machine reads, writable while output is blocked (nothing once closed).
    private func syncInterest() {
        guard machine.state != .closed else { return }
        var wanted: Epoll.Events = []
        if machine.isReading { wanted.insert(.readable) }
        if awaitingWritable { wanted.insert(.writable) }
        guard wanted != interest else { return }
        let failure: Int32
        if let registration {
            failure = loop.changeInterest(of: self, token: registration, from: interest, to: wanted)
        } else {
            switch loop.register(self, events: wanted) {
            case .success(let token):
                registration = token
                failure = 0
            case .failure(let error):
                failure = error.code
            }
        }
        // The kernel would not watch it (out of memory or watches): nothing would ever wake
        // it again, so it closes, as on a failed read.
        guard failure == 0 else { return perform(machine.abort(.failed(failure))) }
        interest = wanted
    }

    /// What the loop's epoll watches this connection for now. On the loop only.
    var watchedEvents: Epoll.Events {
        precondition(loop.isCurrent)
        return interest
    }

    /// The loop found the descriptor ready (`events`, in one of its turns). Returns true when
    /// input may be left unread (the reads per event ran out): the loop comes back for it.
    func readinessReported(_ events: Epoll.Events) -> Bool {
        var inputLeft = false
        if interest.contains(.readable), !events.isDisjoint(with: [.readable, .failedOrHungUp]) {
            inputLeft = readAvailable()
        }
        // The socket takes output again (or failed, which the next write reports): it is
        // flushed with everything else at the end of the turn.
        if awaitingWritable, !events.isDisjoint(with: [.writable, .failedOrHungUp]) {
            awaitingWritable = false
            scheduleFlush()
        }
        return inputLeft
    }

    // MARK: Reading

    /// Reads what the socket holds; the replies it produces are written at the end of the
    /// loop's turn, with everything else queued in it. True when the reads per event ran out
    /// before the socket would block.
    private func readAvailable() -> Bool {
        if machine.state == .lingering { return discardInput() }
        // Decoded bytes left over from before a pause come before anything newer.
        if filter?.hasBufferedInput == true, !deliverDecoded() { return false }
        // Reads until the socket would block, even after a short read: a reset or an end of
        // stream that arrived with the data shows only in the next read (a client that sent,
        // then reset, stayed connected until its idle timeout when this stopped early).
        for _ in 0..<limits.readsPerEvent {
            guard machine.delivers else { return false }
            switch socket.read(into: loop.readBuffer) {
            case .transferred(let count):
                counters?.received(count)
                if let filter {
                    filter.receive(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
                    guard deliverDecoded() else { return false }
                } else {
                    handler?.connection(self, didRead: UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
                }
            case .wouldBlock:
                return false
            case .endOfFile:
                perform(machine.readEndOfFile())
                return false
            case .failed(let code):
                perform(machine.readFailed(code))
                return false
            }
        }
        return machine.delivers
    }

    /// While lingering: reads what the peer still sends and throws it away.
    private func discardInput() -> Bool {
        for _ in 0..<limits.readsPerEvent {
            switch socket.read(into: loop.readBuffer) {
            case .transferred(let count):
                counters?.received(count)
                if let action = machine.discarded(count: count) {
                    perform(action)
                    return false
                }
            case .wouldBlock:
                return false
            case .endOfFile:
                perform(machine.readEndOfFile())
                return false
            case .failed(let code):
                perform(machine.readFailed(code))
                return false
            }
        }
        return machine.state == .lingering
    }

    /// Hands the handler what the filter decodes, into the read buffer (its ciphertext was
    /// copied into the filter already), until the filter needs more or reading stops. Returns
    /// false when the connection stopped reading (closed, paused, the peer's close_notify).
    private func deliverDecoded() -> Bool {
        guard let filter else { return true }
        defer { pumpFilterOutput() }
        while machine.delivers {
            switch filter.read(into: loop.readBuffer) {
            case .bytes(let count):
                handler?.connection(self, didRead: UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
            case .needMore:
                return true
            case .closed:
                perform(machine.filterClosed())
                return false
            case .failed(let failure):
                failTransport(failure)
                return false
            }
        }
        return false
    }

    /// Moves what the filter has to send (handshake messages, alerts) to the output queue, and
    /// flushes what waited for the handshake once it is done.
    private func pumpFilterOutput() {
        guard let filter, machine.state != .closed else { return }
        while let encoded = filter.takeOutput() { output.append(encoded) }
        if !output.isEmpty || (canEncode && !plaintext.isEmpty) { scheduleFlush() }
    }

    /// The filter gave up: its alert (if any) is still sent, then the connection closes.
    private func failTransport(_ failure: TransportFailure) {
        guard machine.state != .closed else { return }
        plaintext.removeAll()
        while let alert = filter?.takeOutput() { output.append(alert) }
        perform(machine.filterFailed(failure, outputLeft: !output.isEmpty))
    }

    /// Stops reading until `resumeReading`: backpressure for a peer that sends faster than we answer.
    public func pauseReading() {
        precondition(loop.isCurrent)
        machine.pauseReading()
        syncInterest()
    }

    public func resumeReading() {
        precondition(loop.isCurrent)
        guard machine.resumeReading() else { return }
        syncInterest()
        // The filter may hold decoded bytes the socket will not announce again.
        if filter?.hasBufferedInput == true {
            loop.queue.async {
                guard self.machine.delivers else { return }
                defer { self.loop.flushPending() }
                _ = self.deliverDecoded()
            }
        }
    }

    // MARK: Writing

    /// Bytes queued and not yet written.
    public var pendingOutputBytes: Int {
        precondition(loop.isCurrent)
        return output.byteCount + plaintext.byteCount
    }

    /// Bytes the socket has taken so far (ciphertext with TLS): grows while the peer reads.
    public var bytesWritten: Int {
        precondition(loop.isCurrent)
        return written
    }

    /// Queues bytes for the peer. From any thread; writes happen on the loop, coalesced with
    /// whatever else is queued in the same turn. A peer whose unread output would pass the
    /// bound is disconnected (`.outputOverflow`) so that nobody else waits for it.
    public func send(_ chunk: ByteChunk) {
        loop.execute { self.enqueue(chunk) }
    }

    /// `send` for a caller already on the loop (a broadcast fanning out there), without
    /// asking which queue it runs on for every recipient.
    public func sendOnLoop(_ chunk: ByteChunk) {
        assert(loop.isCurrent)
        enqueue(chunk)
    }

    public func send(_ bytes: [UInt8]) { send(ByteChunk(bytes)) }

    private func enqueue(_ chunk: ByteChunk) {
        switch machine.enqueue(count: chunk.count, pending: output.byteCount + plaintext.byteCount) {
        case .drop:
            return
        case .overflow:
            tearDown()
        case .accept:
            if filter != nil { plaintext.append(chunk) } else { output.append(chunk) }
            scheduleFlush()
        }
    }

    private func scheduleFlush() {
        guard !flushScheduled, !awaitingWritable else { return }
        flushScheduled = true
        loop.requestFlush(self)
    }

    /// The loop's turn to flush this connection (see `IOLoop.requestFlush`).
    func flushRequested() {
        flushScheduled = false
        flush()
    }

    private func flush() {
        guard machine.state != .closed else { return }
        let wasPending = !output.isEmpty || !plaintext.isEmpty
        var tally = OutputQueue.Tally()
        defer { counters?.wrote(tally) }
        while true {
            guard encodeForFilter() else { return }
            let queued = output.byteCount
            let result = output.flush(to: socket, tally: &tally)
            written += queued - output.byteCount
            switch result {
            case .transferred:
                // Everything encoded went out: encode the next slice of a large send.
                if canEncode && !plaintext.isEmpty { continue }
                awaitingWritable = false
            case .wouldBlock, .endOfFile:
                awaitingWritable = true
            case .failed:
                break
            }
            // Writable is watched only while output is blocked.
            syncInterest()
            return perform(machine.flushed(result, wasPending: wasPending, plaintextLeft: !plaintext.isEmpty))
        }
    }

    /// The filter takes plaintext: its handshake is done and it has not failed.
    private var canEncode: Bool { filter?.isEstablished == true && !machine.filterFailed }

    /// Encodes waiting plaintext into the output queue (up to `encodeAhead`), then the
    /// close_notify of a closing connection. False when the filter failed (and the
    /// connection is closing because of it).
    private func encodeForFilter() -> Bool {
        guard let filter, canEncode else { return true }
        if let failure = plaintext.encode(through: filter, staging: loop.stagingBuffer, into: &output, limit: Self.encodeAhead) {
            failTransport(failure)
            return false
        }
        if machine.closeNotifyDue(plaintextLeft: !plaintext.isEmpty) {
            filter.close()
            while let encoded = filter.takeOutput() { output.append(encoded) }
        }
        return true
    }

    // MARK: Closing

    /// Tells `observer` once when the connection has closed (at once if it has), after its
    /// handler. One observer; a later one replaces it. Held weakly. Any thread.
    public func observeClose(by observer: any ConnectionCloseObserver) {
        loop.execute {
            guard self.machine.state != .closed else { return observer.connection(self, didCloseWith: self.machine.closeReason) }
            self.closeObserver = observer
        }
    }

    /// Closes after everything queued has been written, with a lingering close: the write side
    /// is shut down (the peer reads our last bytes, then EOF) and what the peer still sends is
    /// read and discarded until it closes too, for at most `Limits.lingerTime` and
    /// `Limits.lingerBytes`. Closing at once with unread input would make the kernel answer
    /// with a reset, which can destroy our last bytes (a close frame, an error response)
    /// before the peer read them. Any thread.
    public func close() {
        loop.execute {
            self.perform(self.machine.close(filterEstablished: self.filter?.isEstablished ?? true, outputEmpty: self.output.isEmpty))
        }
    }

    /// Everything is written: half-closes and discards input until the peer closes (see `close`).
    /// The handler hears of the close now; the descriptor is closed when the linger ends.
    private func shutDownWriteAndLinger() {
        // Nothing is written any more: only reading (and discarding) is watched from now on.
        awaitingWritable = false
        if let failed = machine.writeShutDown(succeeded: socket.shutdownWrite(), now: loop.clock.now) { return perform(failed) }
        // After the caller's turn, as when the descriptor closes: a handler that closes in the
        // middle of its own work (a WebSocket noting its close code) finishes that work first.
        loop.queue.async { self.notifyHandlerOfClose() }
        // A strong capture, released when the timer is cancelled (in `tearDown`).
        let timer = loop.clock.makeTimer(queue: loop.queue) { self.lingerTimerFired() }
        timer.schedule(at: machine.lingerDeadline ?? loop.clock.now)
        lingerTimer = timer
        syncInterest()
    }

    private func lingerTimerFired() {
        perform(machine.lingerTimeReached(now: loop.clock.now))
        // Fired before the deadline (it never should): wait for it again.
        if let deadline = machine.lingerDeadline { lingerTimer?.schedule(at: deadline) }
    }

    /// Drops a peer that stopped reading (a protocol's own judgement, such as an HTTP response
    /// that stalled): closed at once and counted like an overflow of the output bound. Any thread.
    public func dropSlowConsumer() {
        loop.execute { self.perform(self.machine.abort(.outputOverflow)) }
    }

    /// Closes at once, dropping unwritten output. Any thread.
    public func abort() {
        loop.execute { self.perform(self.machine.abort()) }
    }

    /// Asks the handler to wind down (graceful server shutdown). Any thread.
    public func requestShutdown() {
        loop.execute {
            guard self.machine.takesShutdown, let handler = self.handler else { return }
            handler.connectionShouldShutDown(self)
        }
    }

    /// The machine closed the connection: the loop stops watching it now (before its
    /// descriptor closes, whose number may be reused at once), and the descriptor closes
    /// after the caller's turn, so that a handler closing in the middle of its own work (a
    /// WebSocket noting its close code) finishes that work before it hears of the close.
    private func tearDown() {
        lingerTimer?.cancel()
        lingerTimer = nil
        if let registration {
            loop.unregister(self, token: registration, watched: interest)
            self.registration = nil
        }
        interest = []
        awaitingWritable = false
        // A strong capture: the loop's registration no longer keeps the connection alive.
        loop.queue.async { self.finishClose() }
    }

    private func finishClose() {
        socket.close()
        let reason = machine.closeReason
        counters?.connectionClosed(reason)
        notifyHandlerOfClose()
        let observer = closeObserver
        closeObserver = nil
        observer?.connection(self, didCloseWith: reason)
    }

    /// Tells the handler, once, and lets go of it and of the output.
    private func notifyHandlerOfClose() {
        let handler = self.handler
        self.handler = nil
        output = OutputQueue()
        plaintext.removeAll()
        handler?.connectionDidClose(self, reason: machine.closeReason)
    }

    /// Gives back the output queue's storage when nothing waits to be written: for a
    /// connection that went quiet (a WebSocket's liveness tick calls it), not after every
    /// flush, which on a busy connection would be a free and a malloc per write. On the loop only.
    public func releaseIdleStorage() {
        precondition(loop.isCurrent)
        guard output.isEmpty, plaintext.isEmpty else { return }
        output.releaseStorage()
    }

    public static func == (lhs: Connection, rhs: Connection) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Carries a non-Sendable reference into a closure that runs on the loop that will own it.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The TLS-only part of a connection, made only when it has a transport filter.
/// Confinement: like `Connection`'s state, touched only on the connection's loop.
final class TLSState {
    let filter: TransportFilter
    /// What was sent and not yet encoded by the filter. (`@exclusivity(unchecked)`: on the
    /// loop only, and no access to it spans a call that could reach it again; see `Connection`.)
    @exclusivity(unchecked) var plaintext = PlaintextQueue()

    init(_ filter: TransportFilter) { self.filter = filter }
}
