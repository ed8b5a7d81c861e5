import Dispatch
import Foundation
import Logging
import TestSupport
import Testing

@testable import CorkboardServer

@Suite(.threadsOfTheirOwn) struct GracefulShutdownTests {
    @Test func shutdownFinishesTheResponseInFlightThenCloses() throws {
        let server = try TestServer()
        // Generous timeouts: a debug build on a loaded machine takes seconds over 16 MiB.
        let busy = try BlockingClient(port: server.port, timeout: 30)
        busy.setReceiveBuffer(64 * 1024)
        // A 16 MiB response that the client has not read yet is still being written at shutdown.
        try busy.send("GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n")
        let idle = try BlockingClient(port: server.port, timeout: 30)
        // Shut down only once the response has begun: a request still unread then is not in
        // flight, and its connection is closed like the idle one.
        #expect(busy.waitUntilReadable())
        #expect(try server.get("/healthz").status == 200) // `idle` is accepted by now too
        let finished = DispatchSemaphore(value: 0)
        server.server.shutdown { finished.signal() }
        #expect(idle.isClosedByPeer())
        let response = try busy.receiveResponse()
        #expect(response.status == 200)
        #expect(response.body.count == 16 * 1024 * 1024)
        #expect(response.header("Connection") == nil)
        #expect(busy.isClosedByPeer())
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(throws: BlockingClient.Failure.self) { try BlockingClient(port: server.port) }
    }
}
