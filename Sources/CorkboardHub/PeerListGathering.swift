/// A loading room's wait for the other nodes' lists of peers (docs/architecture.md, "Several
/// nodes"), as a value: it admits nobody until every live node answered, or is gone, or
/// `BoardRoom.listWait` passed (a node that died but is not known dead yet never answers), so
/// that the first `welcome` lists everyone. `Then` is what runs when the wait is over (the
/// rest of loading, in the room); no queue, no time, tested directly (`PeerListGatheringTests`).
struct PeerListGathering<Then> {
    private var awaited: Set<String> = []
    private var then: Then?

    /// Whether the room waits for lists now.
    var isWaiting: Bool { then != nil }

    /// Starts waiting for the lists of `nodes`; gives `then` back when there is none to wait
    /// for (it runs now). Otherwise the room schedules `waitPassed` after the list wait.
    mutating func start(awaiting nodes: Set<String>, then: Then) -> Then? {
        guard !nodes.isEmpty else { return then }
        awaited = nodes
        self.then = then
        return nil
    }

    /// `node`'s list came, or the node is gone: `then` when it was the last one awaited.
    mutating func settled(_ node: String) -> Then? {
        guard then != nil, awaited.remove(node) != nil, awaited.isEmpty else { return nil }
        return finish()
    }

    /// The list wait passed: `then` and the nodes still silent (sorted); nil when the wait
    /// was over already.
    mutating func waitPassed() -> (then: Then, silent: [String])? {
        let silent = awaited.sorted()
        return finish().map { ($0, silent) }
    }

    private mutating func finish() -> Then? {
        defer {
            then = nil
            awaited = []
        }
        return then
    }
}
