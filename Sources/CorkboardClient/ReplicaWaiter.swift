import CorkboardModel
import Dispatch

/// A task waiting until the replica satisfies a condition (`BoardClient.waitForReplica`).
struct ReplicaWaiter {
    let id: Int
    let condition: @Sendable (Replica) -> Bool
    let continuation: CheckedContinuation<Replica?, Never>
}

/// Replica changes and the tasks waiting for them (on the loop).
extension ClientCore {
    func setReplica(_ replica: Replica) {
        self.replica = replica
        checkReplicaWaiters()
    }

    func waitForReplica(
        timeout: Double, condition: @escaping @Sendable (Replica) -> Bool,
        _ continuation: CheckedContinuation<Replica?, Never>
    ) {
        waiterCount += 1
        let id = waiterCount
        if let replica, condition(replica) { return continuation.resume(returning: replica) }
        guard phase != .closed else { return continuation.resume(returning: nil) }
        replicaWaiters.append(ReplicaWaiter(id: id, condition: condition, continuation: continuation))
        loop.queue.asyncAfter(deadline: .now() + timeout) { [weak self] in
            guard let self, let index = self.replicaWaiters.firstIndex(where: { $0.id == id }) else { return }
            self.replicaWaiters.remove(at: index).continuation.resume(returning: nil)
        }
    }

    func checkReplicaWaiters() {
        guard let replica, !replicaWaiters.isEmpty else { return }
        replicaWaiters.removeAll { waiter in
            guard waiter.condition(replica) else { return false }
            waiter.continuation.resume(returning: replica)
            return true
        }
    }

    func failReplicaWaiters() {
        let waiters = replicaWaiters
        replicaWaiters = []
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }
}
