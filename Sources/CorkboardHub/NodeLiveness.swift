import Dispatch

/// Which other nodes sharing the store are alive, from their heartbeats (and any presence
/// they send): a node not heard from for `timeout` is gone, and `onGone` hears of it once.
///
/// Confinement: `lastHeard` and the timer are touched only on `queue`, which is what makes
/// `@unchecked Sendable` true.
final class NodeLiveness: @unchecked Sendable {
    private let queue = DispatchQueue(label: "corkboard.nodes")
    private var lastHeard: [String: UInt64] = [:]
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
        queue.async { self.lastHeard[node] = DispatchTime.now().uptimeNanoseconds }
    }
}
