import Dispatch
import Foundation
import Logging
import Testing
import TestSupport
@testable import CorkboardServer

@Suite struct GracefulShutdownTests {
    @Test func shutdownFinishesTheResponseInFlightThenCloses() throws {
        let server = try TestServer()
        let busy = try BlockingClient(port: server.port)
        busy.setReceiveBuffer(64 * 1024)
        // A 16 MiB response that the client has not read yet is still being written at shutdown.
        try busy.send("GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n")
        let idle = try BlockingClient(port: server.port)
        usleep(100_000)
        let finished = DispatchSemaphore(value: 0)
        server.server.shutdown { finished.signal() }
        #expect(idle.isClosedByPeer())
        let response = try busy.receiveResponse()
        #expect(response.status == 200)
        #expect(response.body.count == 16 * 1024 * 1024)
        #expect(response.header("Connection") == nil)
        #expect(busy.isClosedByPeer())
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(throws: BlockingClient.Failure.self) { try BlockingClient(port: server.port) }
    }
}
