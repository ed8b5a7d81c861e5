import Synchronization

/// Whether this node should be sent traffic (`GET /readyz`): not once a graceful shutdown
/// began, so that a load balancer takes it out while connections drain, nor while an owner
/// drains it (`POST /api/admin/drain`) until they take the drain back. The store's part of the
/// answer is asked at each check (`StoreProbe`).
final class Readiness: Sendable {
    private let shuttingDown = Atomic<Bool>(false)
    private let drainAsked = Atomic<Bool>(false)
    /// Counts the drains asked: members are sent away after the drain delay only if the drain
    /// they were sent away for is still the one in force (not taken back and asked again).
    private let drains = Atomic<Int>(0)

    var isDraining: Bool { isShuttingDown || isDrainAsked }

    var isShuttingDown: Bool { shuttingDown.load(ordering: .acquiring) }

    /// An owner drained the node (and did not take it back).
    var isDrainAsked: Bool { drainAsked.load(ordering: .acquiring) }

    /// Whether the shutdown's draining began only now (false when it had already).
    func beginDraining() -> Bool { !shuttingDown.exchange(true, ordering: .acquiringAndReleasing) }

    /// An owner drains the node: the drain's number, or nil when one was already in force.
    func askDrain() -> Int? {
        guard !drainAsked.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        return drains.add(1, ordering: .acquiringAndReleasing).newValue
    }

    /// An owner takes the drain back; false when there was none.
    func takeDrainBack() -> Bool { drainAsked.exchange(false, ordering: .acquiringAndReleasing) }

    /// Whether drain `number` is still in force.
    func isInForce(drain number: Int) -> Bool {
        isDrainAsked && drains.load(ordering: .acquiring) == number
    }
}
