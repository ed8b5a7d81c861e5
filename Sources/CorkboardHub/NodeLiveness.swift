import Dispatch

/// Which other nodes sharing the store are alive, from their heartbeats (and any presence
/// they send): a node not heard from for `timeout` is gone, and so is one that said it stops;
/// `onGone` hears of each once.
///
/// Confinement: `lastHeard`, `stopped`, `onGone` and the timer are touched only on `queue`,
/// which is what makes `@unchecked Sendable` true.
final class NodeLiveness: @unchecked Sendable {
    private let queue = DispatchQueue(label: "corkboard.nodes")
    private var lastHeard: [String: UInt64] = [:]
    /// Nodes that said they stop: a message of theirs still on its way does not bring them back
    /// (a node's name is new at every start).
    private var stopped: Set<String> = []
    private var onGone: (@Sendable (String) -> Void)?
    private let timer: DispatchSourceTimer
    let timeout: Double

    init(timeout: Double) {
        self.timeout = timeout
        timer = DispatchSource.makeTimerSource(queue: queue)
    }

    /// Starts checking, every second (or third of the timeout when that is shorter): a node
    /// is found gone at most that long after its timeout.
    func start(onGone: @escaping @Sendable (String) -> Void) {
        let timeout = UInt64(timeout * 1e9)
        let period = min(1, self.timeout / 3)
        queue.async { self.onGone = onGone }
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            for (node, heard) in lastHeard where now - heard > timeout {
                lastHeard[node] = nil
                onGone(node)
            }
        }
        timer.resume()
    }

    deinit { timer.cancel() }

    /// The nodes heard from within the timeout (not yet found gone).
    func alive() -> Set<String> {
        queue.sync { Set(lastHeard.keys) }
    }

    func heard(_ node: String) {
        queue.async {
            guard !self.stopped.contains(node) else { return }
            self.lastHeard[node] = DispatchTime.now().uptimeNanoseconds
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
