/// A loading room's wait for the other nodes' lists of peers (docs/architecture.md, "Several
/// nodes"), as a state machine: it admits nobody until every live node answered, or is gone, or
/// `BoardRoom.listWait` passed (a node that died but is not known dead yet never answers), so
/// that the first `welcome` lists everyone. `Then` is what runs when the wait is over (the
/// rest of loading, in the room); no queue, no time, tested directly (`PeerListGatheringTests`).
///
/// A class, held by its `BoardRoom` with `let` and, like all of the room's state, used only
/// on the room's queue (or by one test): its state is private, changed only through its methods.
final class PeerListGathering<Then> {
    private var awaited: Set<String> = []
    private var then: Then?

    /// Whether the room waits for lists now.
    var isWaiting: Bool { then != nil }

    /// Starts waiting for the lists of `nodes`; gives `then` back when there is none to wait
    /// for (it runs now). Otherwise the room schedules `waitPassed` after the list wait.
    func start(awaiting nodes: Set<String>, then: Then) -> Then? {
        guard !nodes.isEmpty else { return then }
        awaited = nodes
        self.then = then
        return nil
    }

    /// `node`'s list came, or the node is gone: `then` when it was the last one awaited.
    func settled(_ node: String) -> Then? {
        guard then != nil, awaited.remove(node) != nil, awaited.isEmpty else { return nil }
        return finish()
    }

    /// The list wait passed: `then` and the nodes still silent (sorted); nil when the wait
    /// was over already.
    func waitPassed() -> (then: Then, silent: [String])? {
        let silent = awaited.sorted()
        return finish().map { ($0, silent) }
    }

    private func finish() -> Then? {
        defer {
            then = nil
            awaited = []
        }
        return then
    }
}
