import Dispatch

/// Which other nodes sharing the store are alive, from their heartbeats (and any presence
/// they send): a node not heard from for `timeout` is gone, and so is one that said it stops;
/// `onGone` hears of each once.
///
/// Confinement: `lastHeard`, `stopped`, `onGone` and the checks are touched only on `queue`,
/// which is what makes `@unchecked Sendable` true. Time is the hub's clock: a test advances it
/// past the timeout and sees the node found gone.
final class NodeLiveness: @unchecked Sendable {
    private let queue = DispatchQueue(label: "corkboard.nodes")
    private let clock: any HubClock
    private var lastHeard: [String: UInt64] = [:]
    /// Nodes that said they stop: a message of theirs still on its way does not bring them back
    /// (a node's name is new at every start).
    private var stopped: Set<String> = []
    private var onGone: (@Sendable (String) -> Void)?
    let timeout: Double

    init(timeout: Double, clock: any HubClock) {
        self.timeout = timeout
        self.clock = clock
    }

    /// Starts checking, every second (or third of the timeout when that is shorter): a node
    /// is found gone at most that long after its timeout. The checks stop with the hub (each
    /// holds the liveness weakly).
    func start(onGone: @escaping @Sendable (String) -> Void) {
        queue.async {
            self.onGone = onGone
            self.scheduleCheck()
        }
    }

    private var period: DispatchTimeInterval { .nanoseconds(Int(min(1, timeout / 3) * 1e9)) }

    private func scheduleCheck() {
        clock.schedule(after: period, on: queue) { [weak self] in
            guard let self else { return }
            check()
            scheduleCheck()
        }
    }

    private func check() {
        let timeout = UInt64(timeout * 1e9)
        let now = clock.now().uptimeNanoseconds
        for (node, heard) in lastHeard where now - heard > timeout {
            lastHeard[node] = nil
            onGone?(node)
        }
    }

    /// The nodes heard from within the timeout (not yet found gone).
    func alive() -> Set<String> {
        queue.sync { Set(lastHeard.keys) }
    }

    func heard(_ node: String) {
        queue.async {
            guard !self.stopped.contains(node) else { return }
            self.lastHeard[node] = self.clock.now().uptimeNanoseconds
        }
    }

    /// The node said it stops (a clean shutdown): gone now rather than after the timeout.
    func stopping(_ node: String) {
        queue.async {
            self.stopped.insert(node)
            guard self.lastHeard.removeValue(forKey: node) != nil else { return }
            self.onGone?(node)
        }
    }
}
