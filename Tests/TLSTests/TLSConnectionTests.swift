import Dispatch
import Foundation
import Logging
import Sockets
import Synchronization
import TestSupport
import Testing

@testable import TLS

/// TLS on real sockets: `TCPServer` with server sessions, `Connector` with client sessions,
/// the connection's filter in between (decoding after reads, encoding at flushes).
@Suite(.threadsOfTheirOwn) struct TLSConnectionTests {
    let certificates: Certificates
    let loops = IOLoopGroup(count: 2)

    init() throws {
        certificates = try Certificates()
    }

    private func startServer(make: @escaping @Sendable (Connection) -> ConnectionHandler) throws -> (TCPServer, UInt16, ServerCertificate) {
        let certificate = try ServerCertificate(
            files: TLSCertificateFiles(
                certificate: certificates.main.certificatePath, privateKey: certificates.main.keyPath))
        let server = TCPServer(loops: loops, transport: certificate.sessions, logger: Logger(label: "tls-test"))
        let address = try server.start(host: "127.0.0.1", port: 0, makeHandler: make)
        return (server, address.port, certificate)
    }

    /// Connects with TLS and starts `recorder` on the connection.
    private func connect(port: UInt16, context: TLSContext, serverName: String = "127.0.0.1", recorder: Recorder) async throws -> Connection {
        try await withCheckedThrowingContinuation { continuation in
            Connector.connect(
                host: "127.0.0.1", port: port, loop: loops.next(),
                transport: { try context.makeClientSession(serverName: serverName) }
            ) { result in
                if case .success(let connection) = result { connection.start(handler: recorder) }
                continuation.resume(with: result)
            }
        }
    }

    @Test func largeTransfersEchoWholeAndInOrder() async throws {
        let (server, port, _) = try startServer { _ in Echo() }
        let recorder = Recorder()
        let client = try await connect(port: port, context: try certificates.trustingClient(), recorder: recorder)
        // Sends of many sizes: small ones share records, large ones are encoded a slice at a time.
        var payload: [UInt8] = []
        var size = 1
        while payload.count < 3_000_000 {
            let piece = (0..<size).map { UInt8(truncatingIfNeeded: payload.count &+ $0 &* 31) }
            payload += piece
            client.send(piece)
            size = size >= 700_000 ? 3 : size * 7 + 1
        }
        let total = payload.count
        #expect(try await BlockingWork { eventually(timeout: 30) { recorder.received.count >= total } }.value)
        #expect(recorder.received.count == payload.count)
        #expect(recorder.received == payload ? true : false, "the bytes differ")
        client.close()
        withExtendedLifetime(server) {}
    }

    @Test func decodedBytesHeldDuringAPauseAreDeliveredOnResume() async throws {
        // The server pauses after every read: records already decoded (or still in the
        // session's buffer) must come out on resume although the socket has nothing new.
        let serverSide = Recorder(pausesAfterEachRead: true)
        let (server, port, _) = try startServer { _ in serverSide }
        let client = try await connect(port: port, context: try certificates.trustingClient(), recorder: Recorder())
        let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        client.send(payload)
        #expect(try await BlockingWork { eventually(timeout: 20) { serverSide.received.count >= payload.count } }.value)
        #expect(serverSide.received == payload ? true : false, "the bytes differ")
        #expect(serverSide.reads > 5)
        client.close()
        withExtendedLifetime(server) {}
    }

    @Test func closeNotifyReachesThePeerAsTheEndOfItsData() async throws {
        let serverSide = Recorder()
        let (server, port, _) = try startServer { _ in serverSide }
        let clientSide = Recorder()
        let client = try await connect(port: port, context: try certificates.trustingClient(), recorder: clientSide)
        client.send(Array("bye".utf8))
        // Once the handshake is done (a close before it drops what waits for it).
        #expect(try await BlockingWork { eventually(timeout: 10) { serverSide.received == Array("bye".utf8) } }.value)
        client.close()
        #expect(try await BlockingWork { eventually(timeout: 10) { serverSide.closeReason != nil } }.value)
        #expect(serverSide.received == Array("bye".utf8))
        #expect(serverSide.sawEndOfData)
        // Its close_notify, not a bare FIN, ended the stream: the filter reported the end first.
        #expect(serverSide.closeReason == .peerClosed)
        #expect(try await BlockingWork { eventually(timeout: 10) { clientSide.closeReason != nil } }.value)
        #expect(clientSide.closeReason == .local)
        withExtendedLifetime(server) {}
    }

    @Test func anUntrustedServerClosesTheClientWithTheReason() async throws {
        let (server, port, _) = try startServer { _ in Echo() }
        let clientSide = Recorder()
        let client = try await connect(port: port, context: try TLSContext.client(), recorder: clientSide)
        client.send(Array("never sent".utf8))
        #expect(try await BlockingWork { eventually(timeout: 10) { clientSide.closeReason != nil } }.value)
        #expect(clientSide.closeReason == .transportFailed(TransportFailure("TLS certificate verification failed: self-signed certificate")))
        #expect(clientSide.received.isEmpty)
        #expect(try await BlockingWork { eventually(timeout: 10) { server.counters.reading.transportFailures == 1 } }.value)
        withExtendedLifetime(server) {}
    }

    @Test func aPlainTextClientIsClosedAndCounted() async throws {
        let (server, port, _) = try startServer { _ in Echo() }
        let closedByPeer = try await BlockingWork { () throws -> Bool in
            let client = try BlockingClient(port: port)
            try client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            return client.isClosedByPeer()
        }.value
        #expect(closedByPeer)
        #expect(try await BlockingWork { eventually(timeout: 10) { server.counters.reading.transportFailures == 1 } }.value)
        #expect(server.counters.reading.open == 0)
        withExtendedLifetime(server) {}
    }

    @Test func aReloadServesNewConnectionsWithTheNewCertificateAndKeepsTheOpenOnes() async throws {
        let (server, port, certificate) = try startServer { _ in Echo() }
        let before = Recorder()
        let old = try await connect(port: port, context: try certificates.trustingClient(), recorder: before)
        old.send(Array("one".utf8))
        #expect(try await BlockingWork { eventually(timeout: 10) { before.received.count == 3 } }.value)

        // Replace the files with the other certificate and reload.
        let original = certificates.folder.path + "/original.crt"
        try FileManager.default.copyItem(atPath: certificates.main.certificatePath, toPath: original)
        try replace(certificates.main.certificatePath, with: certificates.other.certificatePath)
        try replace(certificates.main.keyPath, with: certificates.other.keyPath)
        try certificate.reload()

        // New connections get the new certificate: trusting only the old one no longer works.
        let refused = Recorder()
        _ = try await connect(port: port, context: try TLSContext.client(trustedCAFile: original), recorder: refused)
        #expect(try await BlockingWork { eventually(timeout: 10) { refused.closeReason != nil } }.value)
        #expect(refused.closeReason == .transportFailed(TransportFailure("TLS certificate verification failed: self-signed certificate")))
        try await expectEcho(port: port, trusting: certificates.other.certificatePath)

        // The connection made before the reload goes on with its session.
        old.send(Array("two".utf8))
        #expect(try await BlockingWork { eventually(timeout: 10) { before.received.count == 6 } }.value)
        #expect(before.received == Array("onetwo".utf8))
        #expect(before.closeReason == nil)

        // A reload from a broken file fails and keeps the certificate in use.
        try "not a certificate".write(toFile: certificates.main.certificatePath, atomically: true, encoding: .utf8)
        #expect(throws: TLSError.self) { try certificate.reload() }
        do {
            try certificate.reload()
        } catch {
            #expect(error.description.contains("no start line"))
        }
        try await expectEcho(port: port, trusting: certificates.other.certificatePath)
        old.close()
        withExtendedLifetime(server) {}
    }

    private func replace(_ path: String, with source: String) throws {
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: source, toPath: path)
    }

    /// A new connection that trusts `caFile` gets its bytes echoed.
    private func expectEcho(port: UInt16, trusting caFile: String) async throws {
        let recorder = Recorder()
        let connection = try await connect(port: port, context: try TLSContext.client(trustedCAFile: caFile), recorder: recorder)
        connection.send(Array("ping".utf8))
        #expect(try await BlockingWork { eventually(timeout: 10) { recorder.received.count == 4 || recorder.closeReason != nil } }.value)
        #expect(recorder.received == Array("ping".utf8))
        connection.close()
    }
}

/// Echoes every byte back.
final class Echo: ConnectionHandler, @unchecked Sendable {
    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) { connection.send(ByteChunk(bytes)) }
    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {}
}

/// Collects what a connection receives and how it ends; optionally pauses after each read
/// and resumes a little later (backpressure). Its state is read from the test's thread.
final class Recorder: ConnectionHandler, @unchecked Sendable {
    private struct State {
        var received: [UInt8] = []
        var reads = 0
        var sawEndOfData = false
        var closeReason: Connection.CloseReason?
    }
    private let state = Mutex(State())
    private let pausesAfterEachRead: Bool

    init(pausesAfterEachRead: Bool = false) {
        self.pausesAfterEachRead = pausesAfterEachRead
    }

    var received: [UInt8] { state.withLock { $0.received } }
    var reads: Int { state.withLock { $0.reads } }
    var sawEndOfData: Bool { state.withLock { $0.sawEndOfData } }
    var closeReason: Connection.CloseReason? { state.withLock { $0.closeReason } }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        state.withLock {
            $0.received += bytes
            $0.reads += 1
        }
        guard pausesAfterEachRead else { return }
        connection.pauseReading()
        connection.loop.queue.asyncAfter(deadline: .now() + .milliseconds(5)) { connection.resumeReading() }
    }

    func connectionDidReadEOF(_ connection: Connection) {
        state.withLock { $0.sawEndOfData = true }
        connection.close()
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        state.withLock { $0.closeReason = reason }
    }
}
