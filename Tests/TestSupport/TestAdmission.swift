import Dispatch
import Foundation

/// How many tests that block run at once: `limit` (two per core, at least four), so that a run
/// does not start every socket test at the same moment (on a loaded machine their timeouts would
/// start to fire) — unless the run is stuck. When tests wait to begin and no test has begun or
/// ended for `patience`, the tests running are waiting on something long (an install, a
/// browser, a lock), not working: one more is let in, and so on every `patience` until one ends.
/// Waiting here holds no thread.
///
/// Thread safety: `lock` guards `running`, `waiting` and `lastChange`.
final class TestAdmission: @unchecked Sendable {
    static let shared = TestAdmission(limit: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount), patience: .seconds(2))

    private let limit: Int
    private let patience: Duration
    private let lock = NSLock()
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var lastChange = ContinuousClock.now
    /// Checks for a stuck run; resumed once, never cancelled (the admission lives for the run).
    private let check: DispatchSourceTimer

    private init(limit: Int, patience: Duration) {
        self.limit = limit
        self.patience = patience
        check = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "test-admission"))
        let interval = DispatchTimeInterval.milliseconds(Int(patience.components.seconds * 1000) / 4)
        check.schedule(deadline: .now() + interval, repeating: interval)
        check.setEventHandler { [unowned self] in admitIfStuck() }
        check.resume()
    }

    /// Returns once the test may begin.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = lock.withLock {
                guard running < limit, waiting.isEmpty else {
                    waiting.append(continuation)
                    return false
                }
                running += 1
                lastChange = .now
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// A test admitted by `enter()` has ended.
    func leave() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            running -= 1
            lastChange = .now
            guard running < limit, !waiting.isEmpty else { return nil }
            running += 1
            return waiting.removeFirst()
        }
        next?.resume()
    }

    private func admitIfStuck() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard !waiting.isEmpty, ContinuousClock.now - lastChange >= patience else { return nil }
            running += 1
            lastChange = .now
            return waiting.removeFirst()
        }
        next?.resume()
    }
}
