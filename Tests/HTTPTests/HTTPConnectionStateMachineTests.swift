import Dispatch
import Testing

@testable import HTTP

/// The HTTP connection's lifecycle driven directly: no socket, no timer, time as an argument.
@Suite struct HTTPConnectionStateMachineTests {
    typealias Machine = HTTPConnectionStateMachine

    @Test func aNewConnectionMustStartARequestWithinTheHeaderTimeout() {
        let driver = Driver()
        #expect(driver.machine.phase == .receivingHead)
        #expect(driver.machine.deadline == at(seconds: 10))
    }

    @Test func aRequestIsDeliveredAndWaitsForItsAnswerWithoutADeadline() {
        var driver = Driver()
        #expect(driver.receive("GET /a HTTP/1.1\r\nHost: x\r\n\r\n") == ["deliver GET /a #1"])
        #expect(driver.machine.phase == .handling(number: 1))
        #expect(driver.machine.deadline == nil)
        driver.now = at(seconds: 3600)
        #expect(driver.timerFires() == [])
    }

    @Test func aKeepAliveAnswerReturnsToIdleWithTheIdleTimeout() {
        var driver = Driver()
        _ = driver.receive(get("/a"))
        driver.now = at(seconds: 2)
        #expect(driver.respond(1) == ["respond keep-alive"])
        #expect(driver.machine.phase == .idle)
        #expect(driver.machine.deadline == at(seconds: 62))
    }

    @Test func pipelinedRequestsAreHandedOutOneAtATimeInOrder() {
        var driver = Driver()
        #expect(driver.receive(get("/a") + get("/b") + get("/c")) == ["deliver GET /a #1"])
        #expect(driver.respond(1) == ["respond keep-alive", "deliver GET /b #2"])
        #expect(driver.respond(2) == ["respond keep-alive", "deliver GET /c #3"])
        #expect(driver.respond(3) == ["respond keep-alive"])
        #expect(driver.machine.phase == .idle)
    }

    @Test func anAnswerToARequestNotInFlightIsIgnored() {
        var driver = Driver()
        _ = driver.receive(get("/a") + get("/b"))
        #expect(driver.respond(2) == [])
        #expect(driver.respond(1) == ["respond keep-alive", "deliver GET /b #2"])
        // The handler of the first request answers again: ignored by design.
        #expect(driver.respond(1) == [])
        #expect(driver.machine.phase == .handling(number: 2))
    }

    @Test func connectionCloseAndHTTP10CloseAfterTheAnswer() {
        for head in ["GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "GET / HTTP/1.0\r\n\r\n"] {
            var driver = Driver()
            #expect(driver.receive(head) == ["deliver GET / #1"])
            #expect(driver.respond(1) == ["respond close", "close"])
            #expect(driver.machine.phase == .closing(announced: true))
        }
    }

    @Test func theHeaderDeadlineRunsFromTheFirstByteAndATrickleDoesNotExtendIt() {
        var driver = Driver()
        _ = driver.receive(get("/a"))
        _ = driver.respond(1)
        driver.now = at(seconds: 5)
        #expect(driver.receive("GET /b HT") == [])
        #expect(driver.machine.phase == .receivingHead)
        #expect(driver.machine.deadline == at(seconds: 15))
        driver.now = at(seconds: 14)
        #expect(driver.receive("TP/1.1\r\nHo") == [])
        #expect(driver.machine.deadline == at(seconds: 15))
    }

    @Test func aHeadNotCompleteAtItsDeadlineGets408ThenClose() {
        var driver = Driver()
        _ = driver.receive("GET / HTTP/1.1\r\n")
        driver.now = at(seconds: 10) - .nanoseconds(1)
        #expect(driver.timerFires() == [])
        driver.now = at(seconds: 10)
        #expect(driver.timerFires() == ["408", "close"])
        #expect(driver.machine.phase == .closing(announced: true))
        // The close is bounded by the connection's linger; the machine has no deadline left.
        driver.now = at(seconds: 70)
        #expect(driver.timerFires() == [])
        #expect(driver.machine.deadline == nil)
    }

    @Test func aSilentNewConnectionGets408AtTheHeaderTimeout() {
        var driver = Driver()
        driver.now = at(seconds: 10)
        #expect(driver.timerFires() == ["408", "close"])
    }

    @Test func aBodyHasItsOwnDeadlineFromTheEndOfItsHead() {
        var driver = Driver()
        driver.now = at(seconds: 1)
        #expect(driver.receive("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab") == [])
        #expect(driver.machine.phase == .receivingBody)
        #expect(driver.machine.deadline == at(seconds: 31))
        driver.now = at(seconds: 31)
        #expect(driver.timerFires() == ["408", "close"])
    }

    @Test func aBodyThatArrivesInTimeIsDeliveredWhole() {
        var driver = Driver()
        _ = driver.receive("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
        #expect(driver.receive("cd") == ["deliver POST /p #1 body 4"])
    }

    @Test func expectContinueIsAnsweredBeforeTheBodyComes() {
        var driver = Driver()
        #expect(driver.receive("PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n") == ["100"])
        #expect(driver.machine.phase == .receivingBody)
        #expect(driver.receive("ok") == ["deliver PUT / #1 body 2"])
    }

    @Test func anIdleConnectionIsClosedAtTheIdleTimeoutWithout408() {
        var driver = Driver()
        _ = driver.receive(get("/"))
        _ = driver.respond(1)
        driver.now = at(seconds: 60)
        #expect(driver.timerFires() == ["close"])
    }

    @Test func aClientThatReadsSlowlyGetsAnotherPeriodAndOneThatReadsNothingIsDropped() {
        var driver = Driver()
        _ = driver.receive(get("/"))
        driver.output = .init(pending: 500_000, written: 100)
        _ = driver.respond(1)
        driver.now = at(seconds: 60)
        driver.output = .init(pending: 400_000, written: 100_100)
        #expect(driver.timerFires() == [])
        #expect(driver.machine.deadline == at(seconds: 120))
        driver.now = at(seconds: 120)
        #expect(driver.timerFires() == ["drop slow consumer"])
        #expect(driver.machine.deadline == nil)
    }

    @Test func pipelinedRequestsWaitWhileTooMuchOutputIsUnwritten() {
        var driver = Driver()
        _ = driver.receive(get("/a") + get("/b"))
        driver.output.pending = 256 * 1024 + 1
        #expect(driver.respond(1) == ["respond keep-alive", "pause reading"])
        #expect(driver.receive("") == [])
        driver.output.pending = 0
        #expect(driver.drained() == ["resume reading", "deliver GET /b #2"])
        #expect(driver.drained() == [])
    }

    @Test func requestsSentBeforeTheFINAreAnsweredThenTheConnectionCloses() {
        var driver = Driver()
        _ = driver.receive(get("/a") + get("/b"))
        driver.machine.readEOF()
        #expect(driver.respond(1) == ["respond close", "close"])
    }

    @Test func aFINBetweenRequestsCloses() {
        var driver = Driver()
        _ = driver.receive(get("/a"))
        _ = driver.respond(1)
        driver.machine.readEOF()
        #expect(driver.run(nil) == ["close"])
    }

    @Test func aMalformedRequestIsRejectedThenClosed() {
        var driver = Driver()
        #expect(driver.receive("BROKEN\r\n\r\n") == ["reject malformedRequestLine", "close"])
        #expect(driver.receive(get("/")) == [])
    }

    @Test func shutdownClosesAnIdleConnectionAtOnce() {
        for bytes in ["", "GET / HT"] {
            var driver = Driver()
            _ = driver.receive(bytes)
            #expect(driver.shutdown() == ["close"])
            #expect(driver.shutdown() == [])
        }
    }

    @Test func shutdownLetsTheRequestInFlightFinishWithoutKeepAlive() {
        var driver = Driver()
        _ = driver.receive(get("/a") + get("/b"))
        #expect(driver.shutdown() == [])
        #expect(driver.respond(1) == ["respond close", "close"])
    }

    @Test func aStreamedBodyIsFedAsTheSocketDrainsThenTheNextRequestIsRead() {
        var driver = Driver()
        _ = driver.receive(get("/a") + get("/b"))
        driver.now = at(seconds: 1)
        #expect(driver.respond(1, streamsBody: true) == ["respond keep-alive streamed"])
        #expect(driver.machine.phase == .writing(keepAlive: true))
        #expect(driver.machine.deadline == at(seconds: 61))
        #expect(driver.drained() == ["feed body"])
        driver.machine.bodyFinished(now: driver.now, output: driver.output)
        #expect(driver.run(nil) == ["deliver GET /b #2"])
    }

    @Test func shutdownWhileABodyStreamsClosesAfterIt() {
        var driver = Driver()
        _ = driver.receive(get("/a"))
        _ = driver.respond(1, streamsBody: true)
        #expect(driver.shutdown() == [])
        driver.machine.bodyFinished(now: driver.now, output: driver.output)
        #expect(driver.run(nil) == ["close"])
    }

    @Test func aStreamedBodyThatReadsNothingForAnIdleTimeoutIsDropped() {
        var driver = Driver()
        _ = driver.receive(get("/a"))
        _ = driver.respond(1, streamsBody: true)
        driver.now = at(seconds: 60)
        #expect(driver.timerFires() == ["drop slow consumer"])
        #expect(driver.drained() == [])
    }

    @Test func aStreamedBodyOfTheWrongLengthAborts() {
        var driver = Driver()
        _ = driver.receive(get("/a"))
        _ = driver.respond(1, streamsBody: true)
        #expect(driver.machine.bodyBroken().summary == "abort")
        #expect(driver.drained() == [])
    }

    @Test func anUpgradeHandsOverTheBytesBehindTheRequestAndEndsEveryDeadline() {
        var driver = Driver()
        _ = driver.receive(get("/ws") + "x")
        #expect(driver.machine.switchProtocols(number: 2) == nil)
        let upgrade = driver.machine.switchProtocols(number: 1)
        #expect(upgrade == .init(resumeReading: false, shutDown: false, leftover: [0x78]))
        #expect(driver.machine.phase == .upgraded)
        #expect(driver.machine.deadline == nil)
        // From now on the new protocol owns the connection: the machine ignores everything.
        #expect(driver.receive(get("/late")) == [])
        #expect(driver.respond(1) == [])
        #expect(driver.shutdown() == [])
        #expect(driver.drained() == [])
        #expect(driver.machine.switchProtocols(number: 1) == nil)
    }

    @Test func anUpgradeDuringShutdownTellsTheNewProtocolToWindDown() {
        var driver = Driver()
        _ = driver.receive(get("/ws"))
        _ = driver.shutdown()
        #expect(driver.machine.switchProtocols(number: 1)?.shutDown == true)
    }

    @Test func nothingHappensOnceClosed() {
        var driver = Driver()
        _ = driver.receive(get("/a"))
        driver.machine.closed()
        #expect(driver.machine.deadline == nil)
        #expect(driver.respond(1) == [])
        #expect(driver.machine.switchProtocols(number: 1) == nil)
        #expect(driver.receive(get("/b")) == [])
        #expect(driver.shutdown() == [])
        driver.now = at(seconds: 100)
        #expect(driver.timerFires() == [])
    }
}

// MARK: Driving the machine

private let start = DispatchTime(uptimeNanoseconds: 1_000_000_000)

private func at(seconds: Int) -> DispatchTime { start + .seconds(seconds) }

private func get(_ path: String) -> String { "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n" }

/// The machine with the shell's loop: each event's action, then `next` until nil, as text.
private struct Driver {
    var machine = HTTPConnectionStateMachine(configuration: HTTPServerConfiguration(), now: start)
    var now = start
    var output = HTTPConnectionStateMachine.Output()
    /// Whether each request delivered allows keep-alive, as the shell reads it from the request.
    var keepAliveAsked: [Int: Bool] = [:]

    mutating func run(_ first: HTTPConnectionStateMachine.Action?) -> [String] {
        var actions: [String] = []
        var action = first ?? machine.next(now: now, output: output)
        while let current = action {
            if case .deliver(let request, let number) = current { keepAliveAsked[number] = request.keepAlive }
            actions.append(current.summary)
            action = machine.next(now: now, output: output)
        }
        return actions
    }

    mutating func receive(_ text: String) -> [String] {
        machine.received(Array(text.utf8))
        return run(nil)
    }

    mutating func respond(_ number: Int, streamsBody: Bool = false) -> [String] {
        let keepAlive = keepAliveAsked[number] ?? true
        // A response not taken is not sent: nothing follows from it either.
        guard let response = machine.responseReady(number: number, keepAliveAsked: keepAlive, streamsBody: streamsBody, now: now, output: output)
        else { return [] }
        return ["respond " + (response.keepAlive ? "keep-alive" : "close") + (response.streamsBody ? " streamed" : "")] + run(nil)
    }

    mutating func drained() -> [String] {
        let action = machine.drained()
        guard action != nil else { return [] }
        return run(action)
    }

    mutating func shutdown() -> [String] { run(machine.shutdownRequested(now: now, output: output)) }

    mutating func timerFires() -> [String] { run(machine.deadlinePassed(now: now, output: output)) }
}

extension HTTPConnectionStateMachine.Action {
    fileprivate var summary: String {
        switch self {
        case .sendContinue: "100"
        case .deliver(let request, let number):
            "deliver \(request.method.rawValue) \(request.target) #\(number)" + (request.body.isEmpty ? "" : " body \(request.body.count)")
        case .pauseReading: "pause reading"
        case .resumeReading: "resume reading"
        case .feedBody: "feed body"
        case .reject(let error): "reject \(error)"
        case .requestTimedOut: "408"
        case .close: "close"
        case .dropSlowConsumer: "drop slow consumer"
        case .abort: "abort"
        }
    }
}
