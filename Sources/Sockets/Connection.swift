import Dispatch

/// One accepted (or connected) TCP socket, driven by a read and a write DispatchSource on its
/// loop: the shell that keeps the descriptor, the sources and the buffers, and carries out
/// what its `ConnectionStateMachine` decides (reading or not, the output bound, the lingering
/// close, the close reason).
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
    private let readSource: DispatchSourceRead
    /// Made the first time a write would block: most connections never fill their socket
    /// buffer, and a source (with its handlers) is a good part of an idle connection's memory.
    private var writeSource: DispatchSourceWrite?
    /// Whether the sources are suspended now (Dispatch counts suspensions, and an over-resumed
    /// source is a crash): reading until `start`, writing while there is no write source or
    /// the socket takes output.
    @exclusivity(unchecked) private var readSuspended = true
    @exclusivity(unchecked) private var writeSuspended = true
    /// Sources made and not yet cancelled: the descriptor is closed when the last one is.
    private var pendingCancels = 1
    private var lingerTimer: LoopTimer?
    /// Bytes the socket has taken since the connection opened: a writer's measure of progress.
    @exclusivity(unchecked) private var written = 0
    /// What `whenClosed` registered: one closure (several are chained into one), not an
    /// array of them, since nearly every connection has exactly one (its server's).
    private var onClose: (@Sendable (CloseReason) -> Void)?

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
        readSource = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: loop.queue)
        try? socket.setNoDelay()
        // Installed here, not in `start`, so a connection aborted before it started still
        // closes its descriptor. (The strong capture is released with the cancelled source.)
        readSource.setCancelHandler { [self] in sourceCancelled() }
    }

    /// The descriptor is closed only once every source is cancelled: a closed fd number may
    /// be reused at once, and a live source on it would watch a stranger.
    private func sourceCancelled() {
        pendingCancels -= 1
        if pendingCancels == 0 { finishClose() }
    }

    /// Waits for the socket to take more output, making the write source the first time.
    private func awaitWritable() {
        guard writeSuspended else { return }
        writeSuspended = false
        if let writeSource {
            writeSource.resume()
            return
        }
        let source = DispatchSource.makeWriteSource(fileDescriptor: socket.fd, queue: loop.queue)
        pendingCancels += 1
        source.setCancelHandler { [self] in sourceCancelled() }
        // A strong capture, as for reading: released when the source is cancelled.
        source.setEventHandler { self.flush() }
        writeSource = source
        source.resume()
    }

    /// Installs the handler and starts reading. Call once, from anywhere.
    public func start(handler: ConnectionHandler) {
        let box = UncheckedBox(handler)
        loop.execute { self.startOnLoop(box.value) }
    }

    private func startOnLoop(_ handler: ConnectionHandler) {
        // Aborted before it started (its sources are cancelled already): nothing to start.
        guard machine.start() else { return }
        self.handler = handler
        // Strong captures: libdispatch releases a source's handlers once it is cancelled,
        // which breaks the cycle, and a live source must keep its connection alive.
        readSource.setEventHandler { self.readAvailable() }
        syncReading()
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
            syncReading()
        case .terminate:
            tearDown()
        case .flush:
            syncReading()
            scheduleFlush()
        case .shutDownWrite:
            shutDownWriteAndLinger()
        case .tellHandlerEOF:
            syncReading()
            handler?.connectionDidReadEOF(self)
        case .tellHandlerDrained:
            handler?.connectionDidDrain(self)
        }
    }

    /// Suspends or resumes the read source to match the machine (never once it is cancelled).
    private func syncReading() {
        guard machine.state != .closed, machine.isReading == readSuspended else { return }
        readSuspended = !machine.isReading
        if readSuspended { readSource.suspend() } else { readSource.resume() }
    }

    // MARK: Reading

    private func readAvailable() {
        if machine.state == .lingering { return discardInput() }
        // Replies produced while handling these bytes go out together right after.
        defer { loop.flushPending() }
        // Decoded bytes left over from before a pause come before anything newer.
        if filter?.hasBufferedInput == true, !deliverDecoded() { return }
        // Reads until the socket would block, even after a short read: a reset or an end of
        // stream that arrived with the data shows only in the next read, and the read source
        // does not fire again for it (a client that sent, then reset, stayed connected until
        // its idle timeout).
        for _ in 0..<limits.readsPerEvent {
            guard machine.delivers else { return }
            switch socket.read(into: loop.readBuffer) {
            case .transferred(let count):
                counters?.received(count)
                if let filter {
                    filter.receive(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
                    guard deliverDecoded() else { return }
                } else {
                    handler?.connection(self, didRead: UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
                }
            case .wouldBlock:
                return
            case .endOfFile:
                return perform(machine.readEndOfFile())
            case .failed(let code):
                return perform(machine.readFailed(code))
            }
        }
    }

    /// While lingering: reads what the peer still sends and throws it away.
    private func discardInput() {
        for _ in 0..<limits.readsPerEvent {
            switch socket.read(into: loop.readBuffer) {
            case .transferred(let count):
                counters?.received(count)
                if let action = machine.discarded(count: count) { return perform(action) }
            case .wouldBlock:
                return
            case .endOfFile:
                return perform(machine.readEndOfFile())
            case .failed(let code):
                return perform(machine.readFailed(code))
            }
        }
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
        syncReading()
    }

    public func resumeReading() {
        precondition(loop.isCurrent)
        guard machine.resumeReading() else { return }
        syncReading()
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
        guard !flushScheduled, writeSuspended else { return }
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
        while true {
            guard encodeForFilter() else { return }
            let queued = output.byteCount
            let result = output.flush(to: socket)
            written += queued - output.byteCount
            counters?.sent(queued - output.byteCount)
            switch result {
            case .transferred:
                // Everything encoded went out: encode the next slice of a large send.
                if canEncode && !plaintext.isEmpty { continue }
                if !writeSuspended, let writeSource {
                    writeSuspended = true
                    writeSource.suspend()
                }
            case .wouldBlock, .endOfFile:
                awaitWritable()
            case .failed:
                break
            }
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

    /// Registers a callback for when the connection has closed (e.g. to leave a registry). Any thread.
    public func whenClosed(_ callback: @escaping @Sendable (CloseReason) -> Void) {
        loop.execute {
            guard self.machine.state != .closed else { return callback(self.machine.closeReason) }
            if let earlier = self.onClose {
                self.onClose = { reason in
                    earlier(reason)
                    callback(reason)
                }
            } else {
                self.onClose = callback
            }
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
        // Nothing is written any more: the write source goes now, while the descriptor is
        // whole. Once both directions are shut (the half-close below, then the peer's FIN),
        // epoll reports a hang-up, and libdispatch crashed (in _dispatch_unote_register_muxed)
        // when a source suspended through that hang-up was resumed to be cancelled.
        if let writeSource {
            if writeSuspended { writeSource.resume() }
            writeSource.cancel()
            self.writeSource = nil
            writeSuspended = true
        }
        if let failed = machine.writeShutDown(succeeded: socket.shutdownWrite(), now: loop.clock.now) { return perform(failed) }
        // After the caller's turn, as when the descriptor closes: a handler that closes in the
        // middle of its own work (a WebSocket noting its close code) finishes that work first.
        loop.queue.async { self.notifyHandlerOfClose() }
        // A strong capture, released when the timer is cancelled (in `tearDown`).
        let timer = loop.clock.makeTimer(queue: loop.queue) { self.lingerTimerFired() }
        timer.schedule(at: machine.lingerDeadline ?? loop.clock.now)
        lingerTimer = timer
        syncReading()
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

    /// The machine closed the connection: every source is cancelled, and the last cancel
    /// handler closes the descriptor.
    private func tearDown() {
        lingerTimer?.cancel()
        lingerTimer = nil
        // A suspended source must be resumed before it is cancelled, or it is never released.
        if readSuspended {
            readSuspended = false
            readSource.resume()
        }
        if let writeSource {
            if writeSuspended {
                writeSuspended = false
                writeSource.resume()
            }
            writeSource.cancel()
        }
        readSource.cancel()
    }

    private func finishClose() {
        socket.close()
        let reason = machine.closeReason
        counters?.connectionClosed(reason)
        notifyHandlerOfClose()
        let callback = onClose
        onClose = nil
        callback?(reason)
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
