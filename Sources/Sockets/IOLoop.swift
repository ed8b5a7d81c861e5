import Dispatch
import Glibc
import Synchronization

/// One serial queue that owns a set of connections for their whole life: their reads,
/// parsing and writes all run here, so connection state needs no locks.
public final class IOLoop: Sendable {
    public let queue: DispatchQueue
    public let index: Int
    private static let identity = DispatchSpecificKey<Int>()

    /// One read buffer per loop, reused by every read on it. Only touched on `queue`.
    nonisolated(unsafe) let readBuffer: UnsafeMutableRawBufferPointer
    /// Where a TLS connection gathers small sends into one record (16 KiB, the largest
    /// record's plaintext) while it flushes. Only touched on `queue`, never during a read.
    nonisolated(unsafe) let stagingBuffer: UnsafeMutableRawBufferPointer
    /// Connections with output queued in this turn of the loop. Flushed together: at the end
    /// of the read handler that produced the output, or in one queued block for output from
    /// elsewhere (a broadcast), so many sends cost one dispatch, not one each. Only touched on `queue`.
    /// (`@exclusivity(unchecked)`: appended to for every send, and only ever on `queue`, where
    /// no access to it spans a call; see `Connection`'s state.)
    @exclusivity(unchecked) nonisolated(unsafe) private var pendingFlush: [Connection] = []
    @exclusivity(unchecked) nonisolated(unsafe) private var flushScheduled = false
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
    }

    deinit {
        readBuffer.deallocate()
        stagingBuffer.deallocate()
    }

    /// True when the caller runs on this loop's queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.identity) == index }

    /// Queues `connection` for the next flush of this loop. On the loop only.
    func requestFlush(_ connection: Connection) {
        pendingFlush.append(connection)
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
    func flushPending() {
        let batch = pendingFlush
        pendingFlush.removeAll(keepingCapacity: true)
        for connection in batch { connection.flushRequested() }
    }

    /// Runs `work` on the loop: inline when already there (keeps order with work in progress),
    /// else through the loop's inbox. Work from other threads is run in batches: whatever
    /// arrived while the loop was busy runs together, then one flush. While the loop writes
    /// one broadcast to thousands of sockets, the next ones wait in the inbox and then leave
    /// together, several frames in one `sendmsg` per connection instead of a system call
    /// each. The inbox is the one way in from other threads, so their work keeps its order.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        if isCurrent { return work() }
        let schedule = inbox.withLock { inbox -> Bool in
            inbox.work.append(work)
            guard !inbox.scheduled else { return false }
            inbox.scheduled = true
            return true
        }
        if schedule { queue.async { self.drainInbox() } }
    }

    private func drainInbox() {
        let work = inbox.withLock { inbox -> [@Sendable () -> Void] in
            inbox.scheduled = false
            defer { inbox.work = [] }
            return inbox.work
        }
        for item in work { item() }
        flushPending()
    }
}
