import Testing

@testable import CorkboardServer

/// The drain's state, with no server: a drain taken back and asked again is a new one, so the
/// first one's delayed sending away of members does not happen on its behalf.
@Suite struct AdminDrainStateTests {
    @Test func aDrainTakenBackAndAskedAgainIsANewOne() {
        let readiness = Readiness()
        #expect(!readiness.isDraining)
        let first = readiness.askDrain()
        #expect(first != nil && readiness.isDraining && !readiness.isShuttingDown)
        #expect(readiness.askDrain() == nil, "asking again changes nothing")
        #expect(readiness.isInForce(drain: first ?? 0))
        #expect(readiness.takeDrainBack())
        #expect(!readiness.isDraining && !readiness.isInForce(drain: first ?? 0))
        #expect(!readiness.takeDrainBack(), "there is none to take back")
        let second = readiness.askDrain()
        #expect(second != first && readiness.isInForce(drain: second ?? 0) && !readiness.isInForce(drain: first ?? 0))
        // A shutdown drains whatever an owner does.
        #expect(readiness.beginDraining())
        #expect(readiness.takeDrainBack() && readiness.isDraining && readiness.isShuttingDown)
    }
}
