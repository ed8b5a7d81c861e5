import CorkboardHub
import CorkboardModel
import Dispatch
import Foundation

/// This node as the admin API tells of it and drains it (docs/protocol.md#admin): its name, its
/// version and store, since when it runs, and whether it is draining.
///
/// A drain is SIGTERM's drain without the exit: `/readyz` answers 503 at once, so a load
/// balancer stops sending new connections here, and after `--drain-seconds` (the time the
/// balancer is given to notice) every member here is closed with 1001, which tells it to join
/// again (the SDK and the clients do, resuming), now on another node. New connections are
/// still taken (a single node must stay usable), and taking the drain back makes the node ready again.
struct NodeStatus: Sendable {
    let readiness: Readiness
    /// `--drain-seconds`: how long after a drain members are sent away.
    let drainDelay: DispatchTimeInterval
    let store: StoreKind
    let started: Date

    init(readiness: Readiness = Readiness(), drainDelay: DispatchTimeInterval = .seconds(0), store: StoreKind = .memory, started: Date = Date()) {
        self.readiness = readiness
        self.drainDelay = drainDelay
        self.store = store
        self.started = started
    }

    /// `{"id", "version", "store", "startedAt", "uptimeSeconds", "draining", "shuttingDown"}`.
    func json(hub: Hub, now: Date = Date()) -> JSONValue {
        .object([
            "id": .string(Self.id(hub)),
            "version": .string(CorkboardVersion.current),
            "store": .string(store.rawValue),
            "startedAt": .number((started.timeIntervalSince1970 * 1000).rounded(.down)),
            "uptimeSeconds": .number(max(0, now.timeIntervalSince(started)).rounded(.down)),
            "draining": .bool(readiness.isDraining),
            "shuttingDown": .bool(readiness.isShuttingDown),
        ])
    }

    /// The node's name among the nodes sharing its store, or `local` for a store of its own.
    static func id(_ hub: Hub) -> String { hub.nodeName ?? "local" }

    /// Drains the node (nothing more when it already is).
    func drain(hub: Hub) {
        guard let number = readiness.askDrain() else { return }
        let readiness = readiness
        DispatchQueue.global().asyncAfter(deadline: .now() + drainDelay) {
            guard readiness.isInForce(drain: number) else { return }
            hub.disconnectEveryMember(.goingAway, reason: "this node is draining; join again")
        }
    }
}
