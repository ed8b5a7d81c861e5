import Dispatch
import HubTestSupport
import TestSupport
import Testing

@testable import CorkboardHub

/// Other nodes' liveness (docs/architecture.md, "Several nodes"), in the hub's time: a node
/// not heard from for the timeout is found gone at the next check, once; one heard from
/// meanwhile stays; one that said it stops is gone at once. (Its own threads: advancing the
/// clock waits on the liveness queue.)
@Suite(.threadsOfTheirOwn) struct NodeLivenessTests {
    /// Liveness with a 3 s timeout (checked every second) on a clock the test advances, and
    /// the nodes it found gone.
    static func liveness() -> (NodeLiveness, ManualClock, Locked<[String]>) {
        let clock = ManualClock()
        let liveness = NodeLiveness(timeout: 3, clock: clock)
        let gone = Locked<[String]>([])
        liveness.start { node in gone.withLock { $0.append(node) } }
        return (liveness, clock, gone)
    }

    @Test func aNodeSilentForTheTimeoutIsGoneAtTheNextCheck() {
        let (liveness, clock, gone) = Self.liveness()
        liveness.heard("b")
        liveness.heard("c")
        #expect(liveness.alive() == ["b", "c"])
        clock.advance(by: .seconds(2))
        liveness.heard("c")
        // Heard on its queue: settled before the time moves on.
        #expect(liveness.alive() == ["b", "c"])
        // Three seconds exactly is not more than the timeout.
        clock.advance(by: .seconds(1))
        #expect(gone.withLock { $0 }.isEmpty)
        clock.advance(by: .seconds(1))
        #expect(gone.withLock { $0 } == ["b"])
        #expect(liveness.alive() == ["c"])
        clock.advance(by: .seconds(2))
        #expect(gone.withLock { $0 } == ["b", "c"], "each once")
    }

    @Test func aNodeThatSaysItStopsIsGoneAtOnceAndStaysGone() {
        let (liveness, clock, gone) = Self.liveness()
        liveness.heard("b")
        liveness.stopping("b")
        liveness.heard("b")
        #expect(liveness.alive().isEmpty)
        #expect(gone.withLock { $0 } == ["b"])
        clock.advance(by: .seconds(10))
        #expect(gone.withLock { $0 } == ["b"])
    }
}
