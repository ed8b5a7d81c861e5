import CEpoll
import Dispatch
import Glibc
import Synchronization

/// One serial queue that owns a set of connections for their whole life: their reads,
/// parsing and writes all run here, so connection state needs no locks.
///
/// The loop watches its connections' descriptors with one epoll instance, and that instance
/// with one read source on `queue`: a connection costs a registration, not a Dispatch source
/// of its own. Each turn of the loop (`runTurn`) takes the descriptors ready now, reads every
/// readable one, runs the work other threads handed over (`execute`: broadcasts, mostly), and
/// only then writes, once per connection: a move read in this turn, the replies to it and
/// several broadcasts that reached the loop together leave in one `sendmsg` per socket. A turn
/// that handed a move to another thread holds that write until the move's broadcast is back
/// (`holdOutput`), so it leaves in the same `sendmsg` too. A long pass of writes takes turns
/// as it goes, so what arrives meanwhile joins the writes it has not made yet (`flushPending`).
public final class IOLoop: Sendable {
    public let queue: DispatchQueue
    public let index: Int
    private static let identity = DispatchSpecificKey<Int>()

    /// One read buffer per loop, reused by every read on it. Only touched on `queue`.
    nonisolated(unsafe) let readBuffer: UnsafeMutableRawBufferPointer
    /// Where a TLS connection gathers small sends into one record (16 KiB, the largest
    /// record's plaintext) while it flushes. Only touched on `queue`, never during a read.
    nonisolated(unsafe) let stagingBuffer: UnsafeMutableRawBufferPointer
    /// The descriptors of this loop's connections, level-triggered (see `Connection`'s interest).
    private let epoll = Epoll()
    /// Fires on `queue` when a descriptor in `epoll` is ready. Touched only in `init` and
    /// `deinit` (a source is safe to use from any thread; Swift just does not know it).
    nonisolated(unsafe) private let readinessSource: DispatchSourceRead
    /// Where `epoll_wait` puts a turn's events. Only touched on `queue`, inside `runTurn`.
    nonisolated(unsafe) private let events: UnsafeMutablePointer<epoll_event>
    /// At most this many ready descriptors per turn; more wait for the next one, which is
    /// queued behind whatever else waits for the loop (timers, new connections).
    static let eventsPerTurn = 256
    /// The connections registered with `epoll`, by descriptor. Only touched on `queue`.
    @exclusivity(unchecked) nonisolated(unsafe) private var registrations = LoopRegistrations<Connection>()
    /// A turn reads and runs its inbox before it writes: sends queued meanwhile wait for the
    /// turn's one flush instead of scheduling one. Only touched on `queue`.
    @exclusivity(unchecked) nonisolated(unsafe) private var inTurn = false
    /// Connections with output queued in this turn of the loop. Flushed together: at the end
    /// of the turn that produced the output (reads, and work from other threads such as
    /// broadcasts), or in one queued block for output from elsewhere on the loop (a timer), so
    /// many sends cost one dispatch and one `sendmsg` per connection. Only touched on `queue`.
    /// (`@exclusivity(unchecked)`: appended to for every send, and only ever on `queue`, where
    /// no access to it spans a call; see `Connection`'s state.)
    @exclusivity(unchecked) nonisolated(unsafe) private var pendingFlush: [Connection] = []
    @exclusivity(unchecked) nonisolated(unsafe) private var flushScheduled = false
    /// A pass of `flushPending` is under way (its turns may ask for another). Only touched on `queue`.
    @exclusivity(unchecked) nonisolated(unsafe) private var inPass = false
    /// Output held at the end of a turn until the answers to its reads come back (`holdOutput`).
    /// Only touched on `queue`.
    @exclusivity(unchecked) nonisolated(unsafe) private var holds = OutputHolds()
    /// Ends every hold `holdLimit` after the first began. Made at the first hold; only touched on `queue`.
    nonisolated(unsafe) private var holdDeadline: LoopTimer?
    /// The longest a loop's output waits for answers: enough for a room to commit on a memory
    /// or SQLite store and broadcast, and longer than the longest pace (`FlushPacing`), short
    /// beside any latency a member could notice.
    static let holdLimit = DispatchTimeInterval.milliseconds(6)
    /// How long a hold period lasts at least, from the last long flush (`FlushPacing`). Only touched on `queue`.
    @exclusivity(unchecked) nonisolated(unsafe) private var pacing = FlushPacing()
    /// Releases the hold that paces `pacedPeriod`. Made at the first paced hold; only touched on `queue`.
    nonisolated(unsafe) private var paceTimer: LoopTimer?
    nonisolated(unsafe) private var pacedPeriod = 0
    /// Work handed over from other threads by `execute`, and whether a block to run it is queued.
    private let inbox = Mutex<(work: [@Sendable () -> Void], scheduled: Bool)>(([], false))
    /// Periodic checks of the objects on this loop (`startTicking`).
    let ticker: LoopTicker
    /// Where everything timed on this loop takes its time from (see `LoopClock`).
    public let clock: any LoopClock

    init(index: Int, readBufferSize: Int, clock: any LoopClock) {
        self.index = index
        self.clock = clock
        queue = DispatchQueue(label: "corkboard.io.\(index)", qos: .userInitiated)
        queue.setSpecific(key: Self.identity, value: index)
        ticker = LoopTicker(queue: queue, clock: clock)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
        stagingBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
        events = .allocate(capacity: Self.eventsPerTurn)
        readinessSource = DispatchSource.makeReadSource(fileDescriptor: epoll.fd, queue: queue)
        // Weak: the source lives as long as the loop, not the other way round.
        readinessSource.setEventHandler { [weak self] in self?.runTurn() }
        // Closed only once libdispatch no longer watches it: a number closed under a live
        // source could be reused, and the source would watch a stranger.
        readinessSource.setCancelHandler { [fd = epoll.fd] in _ = Glibc.close(fd) }
        readinessSource.resume()
    }

    deinit {
        // Its cancel handler closes the epoll descriptor.
        readinessSource.cancel()
        readBuffer.deallocate()
        stagingBuffer.deallocate()
        events.deallocate()
    }

    /// True when the caller runs on this loop's queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.identity) == index }

    /// Queues `connection` for the next flush of this loop. On the loop only.
    func requestFlush(_ connection: Connection) {
        pendingFlush.append(connection)
        if !inTurn { scheduleFlush() }
    }

    /// Queues one flush of whatever is pending then. On the loop only.
    private func scheduleFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        queue.async {
            self.flushScheduled = false
            self.flushPending()
        }
    }

    /// Writes the output of every connection queued for flushing. On the loop only.
    /// Connections queued again by this very flush (a drain that feeds the next piece of a
    /// streamed body) wait for the loop's next turn, which `requestFlush` schedules: flushing
    /// them here too would keep the loop for as long as one reader keeps up, and work queued
    /// behind it (new connections, other members' reads) would wait, seconds behind six
    /// streamed 18 MB boards.
    ///
    /// A long pass takes a turn between every `connectionsBetweenTurns` connections: a move a
    /// member sends as it reads its part of the pass is read then, and its broadcast, back from
    /// its room, joins the writes of the connections this pass has not reached yet. Left for
    /// the pass after, it would reach its last member a pass and a half later on average, two
    /// passes at worst; taken up within the pass, one pass later (the members already written
    /// get it next time round). What such a turn leaves pending is flushed after the pass, once
    /// no hold waits for an answer. A flush asked for during a pass (a TLS handshake starting
    /// in one of its turns) is part of that.
    func flushPending() {
        guard !inPass else { return }
        inPass = true
        let batch = pendingFlush
        pendingFlush.removeAll(keepingCapacity: true)
        let started = FlushPacing.times(batch.count) ? clock.now.uptimeNanoseconds : nil
        var moreReady = false
        for (position, connection) in batch.enumerated() {
            connection.flushRequested()
            if position % Self.connectionsBetweenTurns == Self.connectionsBetweenTurns - 1, position < batch.count - 1 {
                moreReady = takeTurn() || moreReady
            }
        }
        if let started { pacing.flushed(took: clock.now.uptimeNanoseconds &- started) }
        inPass = false
        if moreReady { queue.async { self.runTurn() } }
        if !pendingFlush.isEmpty && !holds.isHolding { scheduleFlush() }
    }

    /// How many connections a pass writes between the turns it takes (see `flushPending`):
    /// about a millisecond of `sendmsg` calls, beside which an `epoll_wait` is nothing.
    static let connectionsBetweenTurns = 128

    /// Runs `work` on the loop: inline when already there (keeps order with work in progress),
    /// else through the loop's inbox. Work from other threads runs in the loop's next turn,
    /// with everything else that arrived while the loop was busy and after that turn's reads,
    /// then one flush: while the loop writes one broadcast to thousands of sockets, the next
    /// ones wait in the inbox and then leave together, several frames in one `sendmsg` per
    /// connection instead of a system call each. The inbox is the one way in from other
    /// threads, so their work keeps its order.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        if isCurrent { return work() }
        let schedule = inbox.withLock { inbox -> Bool in
            inbox.work.append(work)
            guard !inbox.scheduled else { return false }
            inbox.scheduled = true
            return true
        }
        if schedule { queue.async { self.runTurn() } }
    }

    /// One turn of the loop: every connection ready now reads (or takes its blocked output
    /// again), then the inbox's work runs, then everything queued in the turn is written,
    /// one flush per connection, unless a hold keeps it for the release that ends the hold.
    /// On the loop only.
    private func runTurn() {
        let moreReady = takeTurn()
        if !holds.isHolding { flushPending() }
        if moreReady { queue.async { self.runTurn() } }
    }

    /// A turn's reads and inbox work, without its flush; true when more descriptors may be
    /// ready than it took. On the loop only.
    private func takeTurn() -> Bool {
        inTurn = true
        let ready = epoll.ready(into: events, capacity: Self.eventsPerTurn)
        // A full batch may have left descriptors out, and a connection that stopped at its
        // reads per event still has input: another turn comes after what is queued now.
        var moreReady = ready == Self.eventsPerTurn
        for i in 0..<ready {
            let event = events[i]
            // Nil for a connection closed earlier in this batch: it is not touched again.
            guard let connection = registrations.member(for: event.data.u64) else { continue }
            if connection.readinessReported(Epoll.Events(rawValue: event.events)) { moreReady = true }
        }
        let work = inbox.withLock { inbox -> [@Sendable () -> Void] in
            inbox.scheduled = false
            defer { inbox.work = [] }
            return inbox.work
        }
        for item in work { item() }
        inTurn = false
        return moreReady
    }

    // MARK: Holding output for answers

    /// Holds the output of this turn (and of the turns after it) until the returned release
    /// runs, on any thread, or `holdLimit` passes: what reads handed to another thread, whose
    /// answers come back through `execute`, call it first and release it after those answers
    /// (see `OutputHolds`). After a long flush the period lasts at least its pace, whenever the
    /// answers come (`FlushPacing`). Other output, from timers say, is not held. On the loop only.
    public func holdOutput() -> @Sendable () -> Void {
        let (period, beginsPeriod) = holds.begin()
        if beginsPeriod {
            let deadline = holdDeadline ?? clock.makeTimer(queue: queue) { [weak self] in self?.holdLimitPassed() }
            holdDeadline = deadline
            deadline.schedule(at: clock.now + Self.holdLimit)
            pace(period)
        }
        return { self.execute { self.releaseHold(of: period) } }
    }

    /// A hold period lasts at least its pace (`FlushPacing`): a hold of its own, released by a timer.
    private func pace(_ period: Int) {
        guard let pace = pacing.pace else { return }
        _ = holds.begin()
        pacedPeriod = period
        let timer = paceTimer ?? clock.makeTimer(queue: queue) { [weak self] in self.map { $0.releaseHold(of: $0.pacedPeriod) } }
        paceTimer = timer
        timer.schedule(at: clock.now + .nanoseconds(Int(pace)))
    }

    private func releaseHold(of period: Int) {
        if holds.release(period: period) && !inTurn { flushPending() }
    }

    private func holdLimitPassed() {
        if holds.expire() { flushPending() }
    }

    // MARK: Registrations

    /// Watches `connection`'s descriptor for `events` (none: registered, not yet in epoll),
    /// returning the registration's token, or the error when the kernel refuses (out of
    /// memory or watches). On the loop only.
    func register(_ connection: Connection, events: Epoll.Events) -> Result<UInt64, SocketError> {
        let token = registrations.insert(connection, descriptor: connection.socket.fd)
        if !events.isEmpty {
            let failure = epoll.add(connection.socket.fd, events: events, token: token)
            guard failure == 0 else {
                registrations.remove(token: token)
                return .failure(SocketError("epoll_ctl", code: failure))
            }
        }
        return .success(token)
    }

    /// Changes what a registered connection waits for: nothing at all takes the descriptor
    /// out of epoll, which reports a hang-up (or an error) whatever it was asked for, and a
    /// level-triggered hang-up nobody reads would come back in every turn. 0 or the errno.
    func changeInterest(of connection: Connection, token: UInt64, from old: Epoll.Events, to new: Epoll.Events) -> Int32 {
        let fd = connection.socket.fd
        if new.isEmpty {
            epoll.remove(fd)
            return 0
        }
        return old.isEmpty ? epoll.add(fd, events: new, token: token) : epoll.modify(fd, events: new, token: token)
    }

    /// Stops watching a connection that closes (before its descriptor is closed). On the loop only.
    func unregister(_ connection: Connection, token: UInt64, watched: Epoll.Events) {
        if !watched.isEmpty { epoll.remove(connection.socket.fd) }
        registrations.remove(token: token)
    }

    /// Connections registered on this loop now. On the loop only.
    var registeredConnections: Int { registrations.count }
}
