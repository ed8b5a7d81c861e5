import CorkboardHub
import Dispatch
import Foundation
import Synchronization

/// A member's connection in memory, so that rooms, sessions and the commit pipeline run
/// in-process: the test's end hands client messages in (`receive`) and reads what the hub sent,
/// in order (`nextOutput`). It keeps the promises a WebSocket keeps in the server: the session
/// is called on one serial queue (`queue`, where a socket has its loop), nothing goes out after
/// a close, the session hears once that the link ended, and a member whose unread output
/// passes `outputBound` is dropped as a slow consumer.
///
/// Output counts as written at once (a reader keeping up), unless the test `stall`s the link:
/// then sends pile up as unread bytes and `whenDrained` waits until `drain` (or `keepUp`), which is how a
/// resume replay's pacing, or a slow consumer's drop, is shown without a socket.
///
/// Confinement: `condition` guards the output and the flags; `session` is touched on `queue`
/// only, hence `@unchecked Sendable`.
public final class MemoryLink: MemberLink, @unchecked Sendable {
    /// What the hub did to this link, in order.
    public enum Output: Sendable, Equatable {
        case text(String)
        /// Closed by the hub, with the protocol's close code and reason.
        case closed(MemberClose, reason: String)
        /// Dropped by the transport: the unread output passed its bound.
        case dropped
    }

    public let outputBound: Int
    /// The serial queue the session runs on.
    public let queue: DispatchQueue
    private let condition = NSCondition()
    private var output: [Output] = []
    /// Each output's place among every link's sends in this process (`sendNumber`).
    private var outputNumbers: [Int] = []
    private static let sends = Mutex(0)
    private var readIndex = 0
    private var isOpen = true
    private var isStalled = false
    private var unreadBytes = 0
    private var drainWaiters: [@Sendable () -> Void] = []
    /// Holds asked for (`holdWrites`), and for each one released the number of sends to any
    /// link in this process by then (`sendNumber`).
    private var holdsBegun = 0
    private var releaseNumbers: [Int] = []
    private var session: HubSession?
    /// The hub's clock: the session's timers (a token's expiry, a coalesced `drag.over`) run
    /// in the hub's time, as the server's loop runs them in its own.
    private let clock: any HubClock

    /// A new connection to `hub`: its session waits for `hello` like a new WebSocket's.
    public init(hub: Hub, outputBound: Int = 4 * 1024 * 1024, label: String = "member") {
        self.outputBound = outputBound
        queue = DispatchQueue(label: "corkboard.memory-link.\(label)")
        clock = hub.configuration.clock
        queue.sync { session = hub.makeSession(link: self, address: nil) }
    }

    // MARK: MemberLink (the hub's end)

    public func send(text: String) {
        condition.lock()
        defer { condition.unlock() }
        guard isOpen else { return }
        output.append(.text(text))
        outputNumbers.append(
            Self.sends.withLock { sends in
                sends += 1
                return sends
            })
        condition.broadcast()
        guard isStalled else { return }
        // As a socket's output queue: a message that would take the unread bytes past the
        // bound, while some are unread already, drops the connection.
        if unreadBytes > 0 && unreadBytes + text.utf8.count > outputBound {
            isOpen = false
            output.append(.dropped)
            outputNumbers.append(0)
            drainWaiters = []
            queue.async { self.endSession() }
        } else {
            unreadBytes += text.utf8.count
        }
    }

    public static func broadcast(text: String, to links: [any MemberLink]) {
        for link in links { unsafeDowncast(link, to: MemoryLink.self).send(text: text) }
    }

    public func whenDrained(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard isOpen else { return }
        if isStalled && unreadBytes > 0 { drainWaiters.append(work) } else { queue.async(execute: work) }
    }

    public func close(_ code: MemberClose, reason: String) {
        condition.lock()
        defer { condition.unlock() }
        guard isOpen else { return }
        isOpen = false
        output.append(.closed(code, reason: reason))
        outputNumbers.append(0)
        drainWaiters = []
        condition.broadcast()
        queue.async { self.endSession() }
    }

    /// Writes nothing later than it would have (a message here is read as soon as it is
    /// sent), but records when each hold is released, for tests of when the hub releases.
    public func holdWrites() -> (@Sendable () -> Void)? {
        condition.lock()
        holdsBegun += 1
        condition.unlock()
        return {
            let number = Self.sends.withLock { $0 }
            self.condition.lock()
            self.releaseNumbers.append(number)
            self.condition.broadcast()
            self.condition.unlock()
        }
    }

    /// The holds asked for so far, and the send numbers at which those released were.
    public var holds: (begun: Int, releasedAt: [Int]) {
        condition.lock()
        defer { condition.unlock() }
        return (holdsBegun, releaseNumbers)
    }

    public func schedule(after delay: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void) {
        clock.schedule(at: clock.now() + delay, on: queue, work)
    }

    private func endSession() {
        session?.linkClosed()
        session = nil
    }

    // MARK: The client's end

    /// A text message from the client, handed to the session in the order sent.
    public func receive(_ text: String) {
        queue.async { self.session?.receive(text) }
    }

    /// The client said nothing in time: what the server's hello deadline does.
    public func helloDeadlinePassed() {
        queue.async { self.session?.helloDeadlinePassed() }
    }

    /// The client went away (a close or a lost network): the session hears it, nothing more is sent.
    public func disconnect() {
        condition.lock()
        let wasOpen = isOpen
        isOpen = false
        drainWaiters = []
        condition.unlock()
        if wasOpen { queue.async { self.endSession() } }
    }

    /// From now on sent bytes stay unread until `drain`.
    public func stall() {
        condition.lock()
        isStalled = true
        condition.unlock()
    }

    /// The reader read what was there (and stays as slow as it was): unread bytes are
    /// written, and whoever waited for that goes on.
    public func drain() {
        condition.lock()
        unreadBytes = 0
        let waiters = drainWaiters
        drainWaiters = []
        condition.unlock()
        for work in waiters { queue.async(execute: work) }
    }

    /// The reader keeps up again: everything is written at once from now on.
    public func keepUp() {
        condition.lock()
        isStalled = false
        condition.unlock()
        drain()
    }

    /// Where the first text `matching` that this link was sent came among the texts sent to
    /// any link in this process (earlier is lower), read or not; nil when none matched. What
    /// tests of the order in which the hub writes to several members compare.
    public func sendNumber(ofFirstText matching: (String) -> Bool) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        for (index, item) in output.enumerated() {
            if case .text(let text) = item, matching(text) { return outputNumbers[index] }
        }
        return nil
    }

    /// Unread bytes while stalled.
    public var pendingBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return unreadBytes
    }

    /// Whether a drain is waited for.
    public var hasDrainWaiters: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !drainWaiters.isEmpty
    }

    /// The next thing the hub did to this link, waiting at most `timeout` seconds (nil: nothing came).
    public func nextOutput(timeout: Double = 5) -> Output? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while readIndex == output.count {
            guard condition.wait(until: deadline) else { return nil }
        }
        readIndex += 1
        return output[readIndex - 1]
    }

    /// The next text the hub sent (nil: the link ended, or nothing came in time).
    public func nextText(timeout: Double = 5) -> String? {
        if case .text(let text) = nextOutput(timeout: timeout) { text } else { nil }
    }

    /// Reads past any text to the hub's close, and returns its code (nil: dropped, or no close in time).
    public func nextClose(timeout: Double = 5) -> MemberClose? {
        while let output = nextOutput(timeout: timeout) {
            switch output {
            case .text: continue
            case .closed(let code, _): return code
            case .dropped: return nil
            }
        }
        return nil
    }

    /// Everything sent so far and not read yet, without waiting.
    public func unreadOutput() -> [Output] {
        condition.lock()
        defer { condition.unlock() }
        let unread = Array(output[readIndex...])
        readIndex = output.count
        return unread
    }
}
