import CorkboardClient
import Dispatch
import Foundation
import Synchronization

/// Every member knocking again after a server went away, as the Swift client does: the first
/// attempt after `backoff.delay(attempt: 0)` from the loss, each failed one followed by a
/// longer jittered wait (`Backoff.reconnect`, or the browser SDK's `browserSDK`). `threads`
/// workers make the blocking attempts that are due, earliest first.
struct ReconnectStorm {
    struct Outcome {
        /// When each member's connection was welcomed (uptime nanoseconds), by member index.
        var resumedAt: [UInt64]
        /// Attempts that failed (refused, closed, timed out) before the member got through.
        var failedAttempts: Int
        /// Members still not through when the deadline passed.
        var unresumed: Int
        /// Failed attempts by reason (the error's text up to its first colon: "cannot connect", …).
        var failures: [String: Int] = [:]
        var lastFailure: String?
    }

    var backoff = Backoff.reconnect
    /// Real clients knock independently; fewer blocking workers than that measures the bench,
    /// not the server (64 took 14-21 s for 10,000 where 512 took 6.5 s).
    var threads = 512
    var timeout = 120.0

    /// Reconnects `members`, all of which lost their connection at `lostAt` (uptime nanoseconds).
    func run(_ members: [ResumingMember], lostAt: UInt64, host: String, port: UInt16, receivers: EpollReceivers) -> Outcome {
        let queue = Mutex(
            DueQueue(
                members.indices.map { (due: lostAt + Self.nanoseconds(backoff.delay(attempt: 0)), member: $0, attempt: 0) }))
        let outcome = Mutex(Outcome(resumedAt: Array(repeating: 0, count: members.count), failedAttempts: 0, unresumed: 0))
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.nanoseconds(timeout)
        let done = DispatchGroup()
        for _ in 0..<max(1, min(threads, members.count)) {
            done.enter()
            let worker = Thread { [backoff] in
                defer { done.leave() }
                while true {
                    let now = DispatchTime.now().uptimeNanoseconds
                    guard now < deadline else { return }
                    let next = queue.withLock { queue -> (member: Int, attempt: Int)?? in
                        guard let first = queue.first else { return .some(nil) }
                        guard first.due <= now else { return nil }
                        return queue.popFirst().map { ($0.member, $0.attempt) }
                    }
                    switch next {
                    case .some(nil): return // nobody left to reconnect
                    case nil: Thread.sleep(forTimeInterval: 0.002) // the earliest is not due yet
                    case .some(let (index, attempt))?:
                        do {
                            try members[index].connect(host: host, port: port, receivers: receivers, timeout: 30)
                            let time = DispatchTime.now().uptimeNanoseconds
                            outcome.withLock { $0.resumedAt[index] = time }
                        } catch {
                            outcome.withLock {
                                $0.failedAttempts += 1
                                $0.lastFailure = "\(error)"
                                $0.failures["\(error)".prefix { $0 != ":" }.description, default: 0] += 1
                            }
                            let due = DispatchTime.now().uptimeNanoseconds + Self.nanoseconds(backoff.delay(attempt: attempt + 1))
                            queue.withLock { $0.insert((due: due, member: index, attempt: attempt + 1)) }
                        }
                    }
                }
            }
            // Blocking sockets only: small stacks keep dozens of workers cheap.
            worker.stackSize = 256 * 1024
            worker.start()
        }
        done.wait()
        var result = outcome.withLock { $0 }
        result.unresumed = result.resumedAt.filter { $0 == 0 }.count
        return result
    }

    /// web/sdk/backoff.js's policy: 0.5 s doubling to 10 s, each delay times 0.7–1.3. The
    /// same as a downward jitter of 6/13 under a delay 1.3 times as long.
    static let browserSDK = Backoff(initial: 0.65, maximum: 13, jitter: 6.0 / 13)

    static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }
}

/// Members waiting to reconnect, earliest due first (a binary min-heap).
struct DueQueue {
    typealias Entry = (due: UInt64, member: Int, attempt: Int)
    private var heap: [Entry] = []

    init(_ entries: [Entry]) {
        for entry in entries { insert(entry) }
    }

    var first: Entry? { heap.first }

    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].due < heap[smallest].due { smallest = left }
            if right < heap.count && heap[right].due < heap[smallest].due { smallest = right }
            guard smallest != parent else { return first }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
