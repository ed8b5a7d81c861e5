import CorkboardHub
import HubTestSupport

/// The in-process suites' name for their fixture: a `MemoryHub` (Tests/HubTestSupport, where the
/// hub suites that run over both harnesses reach it too).
typealias HubFixture = MemoryHub

extension HubFixture {
    /// A hub on `clock` whose membership tick is 100 ms and whose announcement rate has room
    /// for two `peer.joined` at once (Ada's, to nobody, and Bob's): with the time standing
    /// still nothing refills, so every later join waits for the tick.
    static func announcingPastTwoAtTheTick(on clock: ManualClock) throws -> HubFixture {
        try HubFixture {
            $0.clock = clock
            $0.membershipTick = .milliseconds(100)
            $0.announcementByteRate = RateLimit(perSecond: 1, burst: 100)
        }
    }
}
