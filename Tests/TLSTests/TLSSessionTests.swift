import COpenSSL
import Foundation
import Sockets
import Testing

@testable import TLS

/// A client and a server session in memory: no sockets, every byte moved by the test.
@Suite struct TLSSessionTests {
    let certificates: Certificates

    init() throws {
        certificates = try Certificates()
    }

    @Test func handshakeAgreesOnTLS13AndHTTP11() throws {
        let pair = try certificates.pair()
        #expect(!pair.client.isEstablished && !pair.server.isEstablished)
        pair.handshake()
        #expect(pair.client.isEstablished && pair.server.isEstablished)
        #expect(pair.clientEnd == nil && pair.serverEnd == nil)
        #expect(pair.client.protocolVersion == "TLSv1.3")
        #expect(pair.client.negotiatedProtocol == "http/1.1")
        #expect(pair.server.negotiatedProtocol == "http/1.1")
    }

    @Test func tls12IsStillAccepted() throws {
        let client = try TLSContext(role: .client, maximumVersion: TLS1_2_VERSION)
        let pair = SessionPair(
            client: try client.makeClientSession(serverName: "localhost"),
            server: try certificates.serverContext().makeServerSession())
        pair.handshake()
        #expect(pair.server.isEstablished && pair.server.protocolVersion == "TLSv1.2")
        #expect(pair.server.negotiatedProtocol == "http/1.1")
    }

    @Test(arguments: [[1], [7, 1, 13], [517, 3], [4093, 16_389, 2]])
    func dataCrossesBothWaysInOddChunks(chunkSizes: [Int]) throws {
        let pair = try certificates.pair(chunkSizes: chunkSizes, readSize: 333)
        pair.handshake()
        var random = SystemRandomNumberGenerator()
        let up = (0..<120_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let down = (0..<90_001).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(SessionPair.write(up, through: pair.client, pieces: [1, 1000, 16_385, 70_000, 3]) == nil)
        #expect(SessionPair.write(down, through: pair.server, pieces: [65_536, 17, 2]) == nil)
        pair.exchange()
        #expect(pair.serverReceived.count == up.count)
        #expect(pair.serverReceived == up ? true : false, "the bytes differ")
        #expect(pair.clientReceived.count == down.count)
        #expect(pair.clientReceived == down ? true : false, "the bytes differ")
        #expect(pair.clientEnd == nil && pair.serverEnd == nil)
    }

    @Test func dataSentRightAfterTheClientsHandshakeTravelsWithItsFinished() throws {
        // What a WebSocket client does: its upgrade request goes out as soon as it can.
        let pair = try certificates.pair()
        pair.client.start()
        pair.move(from: pair.client, to: pair.server)
        pair.move(from: pair.server, to: pair.client)
        #expect(pair.client.isEstablished && !pair.server.isEstablished)
        #expect(SessionPair.write(Array("GET / HTTP/1.1\r\n\r\n".utf8), through: pair.client, pieces: [100]) == nil)
        pair.exchange()
        #expect(pair.server.isEstablished)
        #expect(String(decoding: pair.serverReceived, as: UTF8.self) == "GET / HTTP/1.1\r\n\r\n")
    }

    @Test func closeNotifyEndsThePeersData() throws {
        let pair = try certificates.pair()
        pair.handshake()
        #expect(SessionPair.write(Array("last words".utf8), through: pair.client, pieces: [4]) == nil)
        pair.client.close()
        pair.exchange()
        #expect(String(decoding: pair.serverReceived, as: UTF8.self) == "last words")
        #expect(pair.serverEnd == .closed)
        // The server answers with its own close_notify.
        pair.server.close()
        pair.exchange()
        #expect(pair.clientEnd == .closed)
        // Closing twice sends nothing more.
        pair.server.close()
        #expect(pair.server.takeOutput() == nil)
    }

    @Test(arguments: ["\u{16}\u{03}\u{01}\u{00}\u{05}hello", "\0\0\0\0\0\0\0\0\0\0"])
    func aGarbageClientHelloIsACleanFailure(garbage: String) throws {
        let server = try certificates.serverContext().makeServerSession()
        Array(garbage.utf8).withUnsafeBytes { server.receive($0) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 1)
        defer { buffer.deallocate() }
        let result = server.read(into: buffer)
        let reason = try #require(result.failureText)
        #expect(reason.hasPrefix("TLS handshake failed: "))
        #expect(server.takeOutput().map { Array($0.bytes) } != TLSSession.plainHTTPReply)
        #expect(!server.isEstablished)
        // Once failed, it stays failed, and nothing else can be done with it.
        #expect(server.read(into: buffer) == result)
        Array("more".utf8).withUnsafeBytes { server.receive($0) }
        #expect(server.read(into: buffer) == result)
        server.close()
        #expect(!server.hasBufferedInput)
    }

    /// Someone typed http:// for https://: a plain 400 says so (as nginx does), not an empty
    /// reply; the session then stays failed. Any request line counts, in any split.
    @Test(arguments: [["GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"], ["P", "OST / HTTP/1.1\r\n"], ["OPTIONS * HTTP/1.1\r\n"]])
    func plainHTTPGetsAPlainBadRequest(pieces: [String]) throws {
        let server = try certificates.serverContext().makeServerSession()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        for piece in pieces {
            Array(piece.utf8).withUnsafeBytes { server.receive($0) }
            #expect(server.read(into: buffer).failureText == "plain HTTP sent to the TLS port")
        }
        let reply = try #require(server.takeOutput().map { String(decoding: $0.bytes, as: UTF8.self) })
        #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(reply.contains("\r\nConnection: close\r\n"))
        #expect(reply.hasSuffix("\r\n\r\nThis port speaks HTTPS: use an https:// URL.\n"))
        #expect(server.takeOutput()?.count == nil)
    }

    /// A client session never answers so: its first bytes are the server's, and TLS.
    @Test func onlyAServerAnswersPlainHTTP() throws {
        let client = try certificates.trustingClient().makeClientSession(serverName: "localhost")
        client.start()
        _ = client.takeOutput()
        Array("HTTP/1.1 200 OK\r\n\r\n".utf8).withUnsafeBytes { client.receive($0) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        #expect(client.read(into: buffer).failureText?.hasPrefix("TLS handshake failed: ") == true)
    }

    @Test func aTLS11OnlyClientIsRefused() throws {
        // Security level 0 lets this client offer TLS 1.1 at all (OpenSSL 3 refuses it otherwise).
        let old = try TLSContext(
            role: .client, minimumVersion: TLS1_1_VERSION, maximumVersion: TLS1_1_VERSION,
            ciphers: "DEFAULT:@SECLEVEL=0")
        let pair = SessionPair(
            client: try old.makeClientSession(serverName: "localhost"),
            server: try certificates.serverContext().makeServerSession())
        pair.handshake()
        #expect(!pair.server.isEstablished && !pair.client.isEstablished)
        #expect(pair.serverEnd?.failureText == "TLS handshake failed: unsupported protocol")
        // The server's protocol_version alert reached the client.
        #expect(pair.clientEnd?.failureText?.contains("protocol version") == true)
    }

    @Test func aClientWithoutALPNIsServed() throws {
        let pair = try certificates.pair()
        #expect(SSL_set_alpn_protos(pair.client.ssl, nil, 0) == 0)
        pair.handshake()
        #expect(pair.server.isEstablished)
        #expect(pair.server.negotiatedProtocol == nil)
    }

    @Test func aClientOfferingOnlyH2IsRefused() throws {
        let pair = try certificates.pair()
        let h2: [UInt8] = [2] + Array("h2".utf8)
        #expect(SSL_set_alpn_protos(pair.client.ssl, h2, UInt32(h2.count)) == 0)
        pair.handshake()
        #expect(!pair.server.isEstablished)
        #expect(pair.serverEnd?.failureText?.contains("no application protocol") == true)
        #expect(pair.clientEnd?.failureText?.contains("no application protocol") == true)
    }

    @Test func anUntrustedServerFailsVerification() throws {
        let pair = SessionPair(
            client: try TLSContext.client().makeClientSession(serverName: "localhost"),
            server: try certificates.serverContext().makeServerSession())
        pair.handshake()
        #expect(!pair.client.isEstablished)
        #expect(pair.clientEnd?.failureText == "TLS certificate verification failed: self-signed certificate")
        // The client's alert tells the server why.
        #expect(pair.serverEnd?.failureText?.contains("unknown ca") == true)
    }

    @Test(arguments: [("example.org", "hostname mismatch"), ("127.0.0.2", "IP address mismatch")])
    func theCertificateMustNameTheServer(name: String, verdict: String) throws {
        let pair = SessionPair(
            client: try certificates.trustingClient().makeClientSession(serverName: name),
            server: try certificates.serverContext().makeServerSession())
        pair.handshake()
        #expect(pair.clientEnd?.failureText == "TLS certificate verification failed: \(verdict)")
    }

    @Test(arguments: ["localhost", "127.0.0.1"])
    func aTrustedServerIsVerifiedByNameOrAddress(name: String) throws {
        let pair = SessionPair(
            client: try certificates.trustingClient().makeClientSession(serverName: name),
            server: try certificates.serverContext().makeServerSession())
        pair.handshake()
        #expect(pair.client.isEstablished && pair.clientEnd == nil)
    }

    @Test func renegotiationIsRefused() throws {
        // TLS 1.3 has no renegotiation; a TLS 1.2 client asks for one after the handshake.
        let old = try TLSContext(role: .client, maximumVersion: TLS1_2_VERSION)
        let pair = SessionPair(
            client: try old.makeClientSession(serverName: "localhost"),
            server: try certificates.serverContext().makeServerSession())
        pair.handshake()
        #expect(pair.server.isEstablished)
        _ = SSL_clear_options(pair.client.ssl, corkboard_SSL_OP_NO_RENEGOTIATION())
        #expect(SSL_renegotiate(pair.client.ssl) == 1)
        #expect(SSL_do_handshake(pair.client.ssl) <= 0) // its hello is out; it waits for an answer
        ERR_clear_error()
        pair.exchange()
        // The server answered no_renegotiation; OpenSSL's client then gives up with a fatal
        // alert, which ends the server's session cleanly: a failure to report, never a crash.
        #expect(pair.clientEnd?.failureText == "TLS read failed: no renegotiation")
        #expect(pair.serverEnd?.failureText == "TLS read failed: sslv3 alert handshake failure")
        #expect(SSL_renegotiate_pending(pair.server.ssl) == 0)
    }
}
