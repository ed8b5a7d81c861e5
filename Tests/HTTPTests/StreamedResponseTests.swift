import Dispatch
import Glibc
import HTTP
import Logging
import Sockets
import Synchronization
import TestSupport
import Testing

/// A server whose `/big` answers with a streamed body of `pieces` pieces, counting the
/// pieces it was asked for.
private final class StreamingServer: @unchecked Sendable {
    static let pieceSize = 64 * 1024
    let http: HTTPServer
    let port: UInt16
    let counters = TrafficCounters()
    let made = PieceCount()

    init(pieces: Int, outputBound: Int = 4 << 20, idleTimeout: DispatchTimeInterval = .seconds(60)) throws {
        var router = Router()
        let made = self.made
        router.add(.GET, "/big") { _, responder in
            let stream = HTTPBodyStream(length: pieces * Self.pieceSize) {
                var index = 0
                return {
                    guard index < pieces else { return nil }
                    defer { index += 1 }
                    made.value.add(1, ordering: .relaxed)
                    return [UInt8](repeating: UInt8(index % 251), count: Self.pieceSize)
                }
            }
            responder.respond(HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], stream: stream))
        }
        var configuration = HTTPServerConfiguration()
        configuration.idleTimeout = idleTimeout
        var logger = Logger(label: "stream-test")
        logger.logLevel = .critical
        http = HTTPServer(
            router: router, configuration: configuration, loops: IOLoopGroup(count: 1),
            connectionLimits: Connection.Limits(maxPendingOutput: outputBound), counters: counters, logger: logger)
        port = try http.start(host: "127.0.0.1", port: 0).port
    }

    deinit {
        let done = DispatchSemaphore(value: 0)
        http.shutdown(grace: .seconds(2)) { done.signal() }
        _ = done.wait(timeout: .now() + 3)
    }
}

/// Pieces a stream was asked for, from the loop that asks, read by the test.
private final class PieceCount: Sendable {
    let value = Atomic<Int>(0)
}

/// Streamed bodies over real sockets: made as the client reads them, whole for a client that
/// reads, and held back (then dropped) for one that does not.
@Suite(.threadsOfTheirOwn) struct StreamedResponseTests {
    @Test func aReaderGetsTheWholeBodyAndTheConnectionCarriesOn() throws {
        let server = try StreamingServer(pieces: 256)
        let client = try BlockingClient(port: server.port)
        try client.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\nGET /big HTTP/1.1\r\nHost: t\r\n\r\n")
        for _ in 0..<2 {
            let response = try client.receiveResponse()
            #expect(response.status == 200)
            #expect(response.header("Content-Length") == String(256 * StreamingServer.pieceSize))
            #expect(response.body.count == 256 * StreamingServer.pieceSize)
            let wrong = stride(from: 0, to: response.body.count, by: StreamingServer.pieceSize).first { offset in
                response.body[offset] != UInt8((offset / StreamingServer.pieceSize) % 251)
            }
            #expect(wrong == nil, "piece at \(wrong ?? 0) out of place")
        }
    }

    @Test func headSendsTheLengthAndMakesNoPiece() throws {
        let server = try StreamingServer(pieces: 8)
        let client = try BlockingClient(port: server.port)
        try client.send("HEAD /big HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try client.receiveResponse(bodyless: true)
        #expect(response.header("Content-Length") == String(8 * StreamingServer.pieceSize))
        #expect(server.made.value.load(ordering: .relaxed) == 0)
    }

    @Test func aClientThatStopsReadingStopsTheStreamAndIsDropped() throws {
        // 64 MiB of body; the client reads nothing.
        let pieces = 1024
        let server = try StreamingServer(pieces: pieces, outputBound: 256 * 1024, idleTimeout: .seconds(1))
        let client = try BlockingClient(port: server.port)
        client.setReceiveBuffer(4096)
        try client.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(eventually(timeout: 5) { server.made.value.load(ordering: .relaxed) > 0 }, "the response started")
        #expect(eventually(timeout: 15) { server.counters.reading.slowConsumersDropped == 1 }, "the client that reads nothing is dropped")
        #expect(server.http.connectionCount == 0)
        // What was made is what the socket buffers took plus a little ahead, not the body.
        let made = server.made.value.load(ordering: .relaxed)
        #expect(made < pieces / 8, "\(made) pieces of \(pieces) were made for a client that read nothing")
    }
}
