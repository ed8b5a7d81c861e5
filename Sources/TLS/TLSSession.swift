import COpenSSL
import Glibc
import Sockets

/// One TLS session as a pure byte transform: an OpenSSL `SSL` between two memory BIOs.
/// Ciphertext received goes into one BIO, plaintext comes out of `SSL_read`; plaintext to
/// send goes into `SSL_write`, ciphertext comes out of the other BIO. The connection moves
/// the bytes to and from its socket, so a session knows nothing of descriptors, and a client
/// and a server session can talk to each other in memory.
///
/// With memory BIOs OpenSSL never blocks: `SSL_ERROR_WANT_READ` means "wait for the read
/// source to bring more ciphertext", and the output BIO grows instead of wanting to write
/// (the connection bounds what it encodes ahead of the socket).
///
/// Confinement: used on its connection's loop only (made on the accept queue, then handed over).
public final class TLSSession: TransportFilter, @unchecked Sendable {
    let ssl: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer
    /// Keeps the context (and its settings) for as long as the session.
    public let context: TLSContext

    public private(set) var isEstablished = false
    /// Set once: after a fatal error OpenSSL must not be called again for this session.
    public private(set) var failure: TransportFailure?
    private var peerClosed = false
    private var closeSent = false
    /// Whether anything was received yet: the first byte tells TLS from plain HTTP.
    private var receivedAny = false
    /// The plain-text answer to a plain HTTP request on the TLS port, sent before closing.
    private var plainReply: ByteChunk?

    init(context: TLSContext, serverName: String?) throws(TLSError) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.pointer) else { throw .fromQueue("cannot create a TLS session") }
        guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw .fromQueue("cannot create the session's buffers")
        }
        // An empty input BIO means "more later" (retry), not end of stream.
        _ = corkboard_BIO_set_mem_eof_return(incoming, -1)
        // The SSL owns both BIOs from here on: SSL_free frees them.
        SSL_set_bio(ssl, incoming, outgoing)
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        self.context = context
        if let serverName {
            try expectServer(named: serverName)
            SSL_set_connect_state(ssl)
        } else {
            SSL_set_accept_state(ssl)
        }
    }

    deinit { SSL_free(ssl) }

    /// SNI, the identity the certificate must show, and our ALPN offer.
    private func expectServer(named name: String) throws(TLSError) {
        if Self.isIPAddress(name) {
            // RFC 6066: no IP literals in SNI; the certificate needs the address as an IP SAN.
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) == 1 else {
                throw .fromQueue("bad server address \(name)")
            }
        } else {
            SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
            guard corkboard_SSL_set_tlsext_host_name(ssl, name) == 1, SSL_set1_host(ssl, name) == 1 else {
                throw .fromQueue("bad server name \(name)")
            }
        }
        let offer: [UInt8] = [8] + Array("http/1.1".utf8)
        // The one OpenSSL call that returns 0 on success.
        guard SSL_set_alpn_protos(ssl, offer, UInt32(offer.count)) == 0 else { throw .fromQueue("ALPN offer") }
    }

    static func isIPAddress(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, text, &address) == 1 || inet_pton(AF_INET6, text, &address) == 1
    }

    // MARK: TransportFilter

    public func start() {
        _ = advanceHandshake()
    }

    public func receive(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, !bytes.isEmpty, var base = bytes.baseAddress else { return }
        if !receivedAny {
            receivedAny = true
            if context.role == .server, Self.startsPlainHTTP(bytes[0]) {
                plainReply = ByteChunk(Self.plainHTTPReply)
                fail(TransportFailure("plain HTTP sent to the TLS port"))
                return
            }
        }
        var left = bytes.count
        while left > 0 {
            // A memory BIO only refuses when out of memory.
            let written = BIO_write(incoming, base, Int32(min(left, Int(Int32.max))))
            guard written > 0 else {
                fail(TransportFailure("out of memory for received TLS records"))
                return
            }
            base += Int(written)
            left -= Int(written)
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportRead {
        if let failure { return .failed(failure) }
        if peerClosed { return .closed }
        if !isEstablished, let waiting = advanceHandshake() { return waiting }
        ERR_clear_error()
        let count = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if count > 0 { return .bytes(Int(count)) }
        switch SSL_get_error(ssl, count) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            // A partial record, or a record that held no data (a session ticket, a key update).
            return .needMore
        case SSL_ERROR_ZERO_RETURN:
            peerClosed = true
            return .closed
        case let code:
            return .failed(fail(describe(code, during: "read")))
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) -> TransportFailure? {
        if let failure { return failure }
        precondition(isEstablished, "TLS data written before the handshake finished")
        guard var base = bytes.baseAddress else { return nil }
        var left = bytes.count
        while left > 0 {
            ERR_clear_error()
            let written = SSL_write(ssl, base, Int32(min(left, Int(Int32.max))))
            if written > 0 {
                // Partial writes are on (SSL_MODE_ENABLE_PARTIAL_WRITE): write the rest.
                base += Int(written)
                left -= Int(written)
                continue
            }
            // With memory BIOs and no renegotiation nothing can make a write wait; anything
            // else is the end of the session.
            return fail(describe(SSL_get_error(ssl, written), during: "write"))
        }
        return nil
    }

    public func close() {
        guard failure == nil, isEstablished, !closeSent else { return }
        closeSent = true
        ERR_clear_error()
        // 0: our close_notify is written, the peer's has not come (we do not wait for it).
        let result = SSL_shutdown(ssl)
        if result < 0 {
            _ = SSL_get_error(ssl, result)
            ERR_clear_error()
        }
    }

    public func takeOutput() -> ByteChunk? {
        if let reply = plainReply {
            plainReply = nil
            return reply
        }
        let pending = Int(BIO_ctrl_pending(outgoing))
        guard pending > 0 else { return nil }
        var read: Int32 = 0
        let chunk = ByteChunk(count: pending) { buffer in
            read = BIO_read(outgoing, buffer.baseAddress, Int32(pending))
        }
        // A memory BIO hands over everything it holds.
        precondition(Int(read) == pending, "memory BIO returned \(read) of \(pending) bytes")
        return chunk
    }

    public var hasBufferedInput: Bool {
        failure == nil && !peerClosed && (SSL_has_pending(ssl) == 1 || BIO_ctrl_pending(incoming) > 0)
    }

    // MARK: Plain HTTP on the TLS port

    /// Every TLS stream starts with a record type (20–24) or an SSLv2 length (≥ 0x80); an
    /// ASCII capital starts a request line (`GET`, `POST`, …): someone typed http:// for
    /// https://. Telling them so, as nginx does, beats an empty reply.
    static func startsPlainHTTP(_ first: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) }

    static let plainHTTPReply: [UInt8] = {
        let body = "This port speaks HTTPS: use an https:// URL.\n"
        return Array(
            ("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body).utf8)
    }()

    // MARK: What was negotiated

    /// The ALPN protocol agreed on (`http/1.1`), nil when the client offered none.
    public var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// "TLSv1.3" or "TLSv1.2".
    public var protocolVersion: String { String(cString: SSL_get_version(ssl)) }

    // MARK: Handshake and failures

    /// Advances the handshake; nil once it is done, else what `read` should answer.
    private func advanceHandshake() -> TransportRead? {
        guard failure == nil else { return failure.map { .failed($0) } }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isEstablished = true
            return nil
        }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .needMore
        case let code:
            return .failed(fail(describe(code, during: "handshake")))
        }
    }

    @discardableResult
    private func fail(_ reason: TransportFailure) -> TransportFailure {
        if failure == nil { failure = reason }
        return failure!
    }

    /// One line for a failed call: the certificate check's verdict when that is what failed
    /// (a client's view of an untrusted server), else OpenSSL's reason.
    private func describe(_ code: Int32, during step: String) -> TransportFailure {
        let reason = OpenSSLErrors.take()
        // With SSL_VERIFY_PEER a failed check always ends the handshake, so a bad verdict is the
        // reason (without it, a test's unverified client, the verdict is only informative).
        if context.role == .client, SSL_get_verify_mode(ssl) & SSL_VERIFY_PEER != 0 {
            let verdict = SSL_get_verify_result(ssl)
            if verdict != X509_V_OK {
                return TransportFailure("TLS certificate verification failed: \(String(cString: X509_verify_cert_error_string(verdict)))")
            }
        }
        switch code {
        case SSL_ERROR_SSL:
            return TransportFailure("TLS \(step) failed: \(reason ?? "protocol error")")
        case SSL_ERROR_SYSCALL:
            return TransportFailure("TLS \(step) failed: \(reason ?? "unexpected end of data")")
        default:
            return TransportFailure("TLS \(step) failed: OpenSSL error \(code)\(reason.map { ": \($0)" } ?? "")")
        }
    }
}
