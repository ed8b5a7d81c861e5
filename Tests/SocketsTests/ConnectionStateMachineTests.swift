import Dispatch
import Glibc
import Testing

@testable import Sockets

/// The connection's lifecycle driven directly: no socket, no source, time as an argument.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine

    private static let start = DispatchTime(uptimeNanoseconds: 1_000_000_000)
    private static let limits = Connection.Limits(maxPendingOutput: 1000, lingerTime: .seconds(2), lingerBytes: 500)

    private static func started(filter: Bool = false) -> Machine {
        var machine = Machine(limits: limits, hasFilter: filter)
        #expect(machine.start() == true)
        return machine
    }

    @Test func readingStartsWithTheHandler() {
        var machine = Machine(limits: Self.limits, hasFilter: false)
        #expect(!machine.isReading)
        #expect(machine.start() == true)
        #expect(machine.isReading && machine.delivers)
        #expect(machine.state == .open)
    }

    @Test func aConnectionAbortedBeforeItStartedNeverReads() {
        var machine = Machine(limits: Self.limits, hasFilter: false)
        #expect(machine.abort() == .terminate)
        #expect(machine.start() == false)
        #expect(!machine.isReading)
        #expect(machine.closeReason == .aborted)
    }

    @Test func aConnectionClosedBeforeItStartedClosesAtOnce() {
        var machine = Machine(limits: Self.limits, hasFilter: false)
        #expect(machine.close(filterEstablished: true, outputEmpty: true) == .terminate)
        #expect(machine.closeReason == .local)
    }

    @Test func pausingAndResumingReading() {
        var machine = Self.started()
        machine.pauseReading()
        #expect(!machine.isReading && !machine.delivers)
        #expect(machine.resumeReading() == true)
        #expect(machine.resumeReading() == false, "resumed once, not twice")
        #expect(machine.isReading)
    }

    @Test func sendsAreTakenUntilTheOutputBoundAndOverflowCloses() {
        var machine = Self.started()
        // A first send of any size is taken: the bound is on what waits behind the socket.
        #expect(machine.enqueue(count: 5000, pending: 0) == .accept)
        #expect(machine.enqueue(count: 400, pending: 600) == .accept)
        #expect(machine.enqueue(count: 401, pending: 600) == .overflow)
        #expect(machine.state == .closed)
        #expect(machine.closeReason == .outputOverflow)
        #expect(machine.enqueue(count: 1, pending: 0) == .drop)
    }

    @Test func aDrainIsToldOnlyAfterOutputWaited() {
        var machine = Self.started()
        #expect(machine.flushed(.transferred(10), wasPending: true, plaintextLeft: false) == .tellHandlerDrained)
        #expect(machine.flushed(.transferred(0), wasPending: false, plaintextLeft: false) == nil)
        #expect(machine.flushed(.transferred(10), wasPending: true, plaintextLeft: true) == nil)
        #expect(machine.flushed(.wouldBlock, wasPending: true, plaintextLeft: false) == nil)
    }

    @Test func aFailedWriteClosesWithItsReason() {
        var reset = Self.started()
        #expect(reset.flushed(.failed(EPIPE), wasPending: true, plaintextLeft: false) == .terminate)
        #expect(reset.closeReason == .reset)
        var failed = Self.started()
        #expect(failed.flushed(.failed(EIO), wasPending: true, plaintextLeft: false) == .terminate)
        #expect(failed.closeReason == .failed(EIO))
    }

    @Test func aFailedReadClosesWithItsReason() {
        var machine = Self.started()
        #expect(machine.readFailed(ECONNRESET) == .terminate)
        #expect(machine.closeReason == .reset)
        #expect(machine.readFailed(ECONNRESET) == nil)
    }

    @Test func theEndOfTheStreamStopsReadingAndTellsTheHandler() {
        var machine = Self.started()
        #expect(machine.readEndOfFile() == .tellHandlerEOF)
        #expect(!machine.isReading)
        #expect(machine.closeReason == .peerClosed)
        // The peer finished: nothing can be left unread, so the close does not linger.
        #expect(machine.close(filterEstablished: true, outputEmpty: true) == .terminate)
        #expect(machine.closeReason == .peerClosed)
    }

    @Test func closeFlushesThenShutsTheWriteSideAndLingers() {
        var machine = Self.started()
        #expect(machine.close(filterEstablished: true, outputEmpty: false) == .flush)
        #expect(machine.state == .closingAfterFlush)
        #expect(!machine.isReading)
        #expect(machine.close(filterEstablished: true, outputEmpty: false) == nil)
        // Sends while closing are still taken (a close frame after an error response).
        #expect(machine.enqueue(count: 10, pending: 10) == .accept)
        #expect(machine.flushed(.wouldBlock, wasPending: true, plaintextLeft: false) == nil)
        #expect(machine.flushed(.transferred(20), wasPending: true, plaintextLeft: false) == .shutDownWrite)
        #expect(machine.writeShutDown(succeeded: true, now: Self.start) == nil)
        #expect(machine.state == .lingering)
        #expect(machine.isReading, "a lingering close reads and discards")
        #expect(!machine.delivers)
        #expect(machine.lingerDeadline == Self.start + .seconds(2))
        #expect(machine.enqueue(count: 1, pending: 0) == .drop)
    }

    @Test func aCloseWithNothingQueuedLingersAtOnce() {
        var machine = Self.started()
        #expect(machine.close(filterEstablished: true, outputEmpty: true) == .shutDownWrite)
    }

    @Test func aFailedHalfCloseClosesAtOnce() {
        var machine = Self.started()
        _ = machine.close(filterEstablished: true, outputEmpty: true)
        #expect(machine.writeShutDown(succeeded: false, now: Self.start) == .terminate)
        #expect(machine.closeReason == .local)
    }

    @Test func theLingerEndsAtItsDeadline() {
        var machine = lingering()
        #expect(machine.lingerTimeReached(now: Self.start + .seconds(2) - .nanoseconds(1)) == nil)
        #expect(machine.lingerTimeReached(now: Self.start + .seconds(2)) == .terminate)
        #expect(machine.closeReason == .local)
        #expect(machine.lingerDeadline == nil)
    }

    @Test func theLingerEndsAfterItsBytes() {
        var machine = lingering()
        #expect(machine.discarded(count: 300) == nil)
        #expect(machine.discarded(count: 200) == nil)
        #expect(machine.discarded(count: 1) == .terminate)
    }

    @Test func theLingerEndsWhenThePeerClosesOrResets() {
        var finished = lingering()
        #expect(finished.readEndOfFile() == .terminate)
        #expect(finished.closeReason == .local)
        var reset = lingering()
        #expect(reset.readFailed(ECONNRESET) == .terminate)
        #expect(reset.closeReason == .local, "the close was ours; the peer's reset only ends the linger")
    }

    @Test func abortAndDropEndTheConnectionOnceWithTheirReason() {
        var aborted = Self.started()
        #expect(aborted.abort() == .terminate)
        #expect(aborted.abort(.outputOverflow) == nil)
        #expect(aborted.closeReason == .aborted)
        var dropped = lingering()
        #expect(dropped.abort(.outputOverflow) == .terminate)
        #expect(dropped.closeReason == .outputOverflow)
    }

    @Test func onlyAnOpenStartedConnectionHearsOfAShutdown() {
        #expect(!Machine(limits: Self.limits, hasFilter: false).takesShutdown)
        var machine = Self.started()
        #expect(machine.takesShutdown)
        _ = machine.close(filterEstablished: true, outputEmpty: false)
        #expect(!machine.takesShutdown)
    }

    @Test func nothingHappensOnceClosed() {
        var machine = Self.started()
        _ = machine.abort()
        #expect(machine.discarded(count: 10) == nil)
        #expect(machine.readEndOfFile() == nil)
        #expect(machine.flushed(.transferred(1), wasPending: true, plaintextLeft: false) == nil)
        #expect(machine.close(filterEstablished: true, outputEmpty: true) == nil)
        #expect(machine.writeShutDown(succeeded: true, now: Self.start) == nil)
        #expect(machine.lingerTimeReached(now: Self.start + .seconds(100)) == nil)
        #expect(machine.filterClosed() == nil)
        #expect(machine.filterFailed(TransportFailure("late"), outputLeft: true) == nil)
        machine.pauseReading()
        #expect(machine.resumeReading() == false)
        #expect(machine.closeReason == .aborted)
    }

    // MARK: With a transport filter (TLS)

    @Test func aFilteredConnectionClosedBeforeItsHandshakeClosesAtOnce() {
        var machine = Self.started(filter: true)
        #expect(machine.close(filterEstablished: false, outputEmpty: true) == .terminate)
    }

    @Test func aFilteredCloseFlushesItsCloseNotifyOnceThePlaintextIsEncoded() {
        var machine = Self.started(filter: true)
        #expect(machine.closeNotifyDue(plaintextLeft: false) == false, "not before the close")
        #expect(machine.close(filterEstablished: true, outputEmpty: true) == .flush)
        #expect(machine.closeNotifyDue(plaintextLeft: true) == false)
        #expect(machine.closeNotifyDue(plaintextLeft: false) == true)
        #expect(machine.closeNotifyDue(plaintextLeft: false) == false, "once")
        #expect(machine.flushed(.transferred(40), wasPending: true, plaintextLeft: false) == .shutDownWrite)
    }

    @Test func thePeersCloseNotifyEndsItsDataButNotTheLinger() {
        var machine = Self.started(filter: true)
        #expect(machine.filterClosed() == .tellHandlerEOF)
        #expect(machine.closeReason == .peerClosed)
        #expect(!machine.isReading)
        // Unlike a FIN, the socket may still bring bytes: the close lingers.
        #expect(machine.close(filterEstablished: true, outputEmpty: true) == .flush)
        #expect(machine.flushed(.transferred(30), wasPending: true, plaintextLeft: false) == .shutDownWrite)
    }

    @Test func aFailedFilterSendsItsAlertThenCloses() {
        var machine = Self.started(filter: true)
        let failure = TransportFailure("handshake failed")
        #expect(machine.filterFailed(failure, outputLeft: true) == .flush)
        #expect(machine.filterFailed)
        #expect(machine.state == .closingAfterFlush)
        #expect(!machine.isReading)
        #expect(machine.enqueue(count: 1, pending: 0) == .drop, "nothing more is encoded")
        #expect(machine.flushed(.transferred(7), wasPending: true, plaintextLeft: false) == .shutDownWrite)
        #expect(machine.closeReason == .transportFailed(failure))
    }

    @Test func aFailedFilterWithNothingToSendClosesAtOnce() {
        var machine = Self.started(filter: true)
        #expect(machine.filterFailed(TransportFailure("corrupt record"), outputLeft: false) == .terminate)
        #expect(machine.closeReason == .transportFailed(TransportFailure("corrupt record")))
    }

    private func lingering() -> Machine {
        var machine = Self.started()
        _ = machine.close(filterEstablished: true, outputEmpty: true)
        _ = machine.writeShutDown(succeeded: true, now: Self.start)
        return machine
    }
}
