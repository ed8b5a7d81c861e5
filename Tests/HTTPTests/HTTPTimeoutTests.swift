import Dispatch
import HTTP
import Logging
import Sockets
import TestSupport
import Testing

/// The header and idle timeouts over real sockets, in virtual time: the server's loop runs on
/// a `ManualLoopClock`, so a deadline is met to the nanosecond, with no sleep. Each step waits
/// for an answer that shows the server has read what was sent before the clock moves on.
@Suite(.threadsOfTheirOwn) struct HTTPTimeoutTests {
    private final class Server {
        let http: HTTPServer
        let port: UInt16

        init(clock: ManualLoopClock) throws {
            var router = Router()
            router.add(.GET, "/a") { _, responder in responder.respond(HTTPResponse(status: .ok, body: Array("a".utf8))) }
            router.add(.GET, "/b") { _, responder in responder.respond(HTTPResponse(status: .ok, body: Array("b".utf8))) }
            var configuration = HTTPServerConfiguration()
            configuration.headerTimeout = .seconds(10)
            configuration.idleTimeout = .seconds(60)
            var logger = Logger(label: "http-timeout-test")
            logger.logLevel = .critical
            http = HTTPServer(router: router, configuration: configuration, loops: IOLoopGroup(count: 1, clock: clock), logger: logger)
            port = try http.start(host: "127.0.0.1", port: 0).port
        }

        deinit {
            let done = DispatchSemaphore(value: 0)
            http.shutdown(grace: .seconds(2)) { done.signal() }
            _ = done.wait(timeout: .now() + 3)
        }
    }

    private static let justUnder = DispatchTimeInterval.nanoseconds(10_000_000_000 - 1)

    @Test func aHeadMustBeCompleteWithinTheHeaderTimeoutFromItsFirstByte() throws {
        let clock = ManualLoopClock()
        let server = try Server(clock: clock)
        let punctual = try BlockingClient(port: server.port)
        let late = try BlockingClient(port: server.port)
        for client in [punctual, late] {
            // The answer to /a shows the first bytes of /b were read behind it (same turn of the loop).
            try client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHo")
            #expect(try client.receiveResponse().body == Array("a".utf8))
        }
        clock.advance(by: Self.justUnder)
        try punctual.send("st: x\r\n\r\n")
        #expect(try punctual.receiveResponse().status == 200)
        clock.advance(by: .nanoseconds(1))
        let timedOut = try late.receiveResponse()
        #expect(timedOut.status == 408)
        #expect(timedOut.header("Connection") == "close")
        #expect(late.isClosedByPeer())
    }

    @Test func anIdleKeepAliveConnectionIsClosedAtTheIdleTimeoutWithoutAnAnswer() throws {
        let clock = ManualLoopClock()
        let server = try Server(clock: clock)
        let client = try BlockingClient(port: server.port)
        try client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.receiveResponse().status == 200)
        clock.advance(by: .nanoseconds(60_000_000_000 - 1))
        try client.send("GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.receiveResponse().status == 200, "still open a nanosecond before the idle timeout")
        clock.advance(by: .seconds(60))
        #expect(try client.receiveUntilClosed().isEmpty, "closed without a 408")
    }
}
