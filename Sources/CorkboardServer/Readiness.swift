import Synchronization

/// Whether this node should be sent traffic (`GET /readyz`): not once a graceful shutdown
/// began, so that a load balancer takes it out while connections drain. The store's part of
/// the answer is asked at each check (`StoreProbe`).
final class Readiness: Sendable {
    private let draining = Atomic<Bool>(false)

    var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Whether draining began only now (false when it had already).
    func beginDraining() -> Bool { !draining.exchange(true, ordering: .acquiringAndReleasing) }
}
