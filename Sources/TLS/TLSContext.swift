import COpenSSL
import Glibc

/// An OpenSSL `SSL_CTX`: the settings many sessions share (versions, certificate, trust).
/// TLS 1.2 and 1.3 only, ALPN `http/1.1`, no renegotiation.
///
/// Sendable: it is fully configured in `init` and only read afterwards (`SSL_new` takes a
/// reference under OpenSSL's own lock). Each session holds its own reference, so a context
/// replaced by a reload stays alive as long as a connection made with it.
public final class TLSContext: @unchecked Sendable {
    public enum Role: Sendable { case server, client }

    let pointer: OpaquePointer
    public let role: Role

    /// A server context from PEM files: the certificate chain (the server's certificate first,
    /// then intermediates) and its private key, which must match. Encrypted keys are refused.
    public static func server(certificateFile: String, keyFile: String) throws(TLSError) -> TLSContext {
        try readable(certificateFile, "certificate")
        try readable(keyFile, "private key")
        let context = try TLSContext(role: .server)
        guard SSL_CTX_use_certificate_chain_file(context.pointer, certificateFile) == 1 else {
            throw .fromQueue("certificate \(certificateFile) cannot be used")
        }
        let mismatch = TLSError("private key \(keyFile) does not belong to certificate \(certificateFile)")
        guard SSL_CTX_use_PrivateKey_file(context.pointer, keyFile, SSL_FILETYPE_PEM) == 1 else {
            // OpenSSL compares the key with the certificate already here.
            let reason = OpenSSLErrors.take() ?? "unknown error"
            if reason == "key values mismatch" { throw mismatch }
            throw TLSError("private key \(keyFile) cannot be used (it must be PEM, not encrypted): \(reason)")
        }
        guard SSL_CTX_check_private_key(context.pointer) == 1 else {
            ERR_clear_error()
            throw mismatch
        }
        return context
    }

    /// A client context that verifies servers: against the system's CA store and, when given,
    /// the CA certificates of `trustedCAFile` (PEM; a self-signed server's own certificate).
    public static func client(trustedCAFile: String? = nil) throws(TLSError) -> TLSContext {
        let context = try TLSContext(role: .client)
        // The system store may be missing (a minimal container); the CA file may still do.
        if SSL_CTX_set_default_verify_paths(context.pointer) != 1 { ERR_clear_error() }
        if let trustedCAFile {
            try readable(trustedCAFile, "CA file")
            guard SSL_CTX_load_verify_locations(context.pointer, trustedCAFile, nil) == 1 else {
                throw .fromQueue("CA file \(trustedCAFile) cannot be used")
            }
        }
        SSL_CTX_set_verify(context.pointer, SSL_VERIFY_PEER, nil)
        return context
    }

    /// The common settings. Tests lower the versions (or the security level, in `ciphers`) to
    /// play an old client; nothing else should.
    init(
        role: Role, minimumVersion: Int32 = TLS1_2_VERSION, maximumVersion: Int32 = 0,
        ciphers: String? = nil
    ) throws(TLSError) {
        ERR_clear_error()
        guard let pointer = SSL_CTX_new(role == .server ? TLS_server_method() : TLS_client_method()) else {
            throw .fromQueue("cannot create a TLS context")
        }
        self.pointer = pointer
        self.role = role
        guard corkboard_SSL_CTX_set_min_proto_version(pointer, minimumVersion) == 1,
            corkboard_SSL_CTX_set_max_proto_version(pointer, maximumVersion) == 1
        else {
            throw .fromQueue("cannot set the TLS versions")
        }
        if let ciphers, SSL_CTX_set_cipher_list(pointer, ciphers) != 1 {
            throw .fromQueue("cipher list \(ciphers)")
        }
        _ = SSL_CTX_set_options(pointer, corkboard_SSL_OP_NO_RENEGOTIATION())
        _ = corkboard_SSL_CTX_set_mode(pointer, corkboard_SSL_MODE_for_memory_bios())
        corkboard_SSL_CTX_refuse_passphrases(pointer)
        if role == .server { corkboard_SSL_CTX_select_http11(pointer) }
    }

    deinit { SSL_CTX_free(pointer) }

    /// A session that waits for a client's hello. Use on one connection's loop.
    public func makeServerSession() throws(TLSError) -> TLSSession {
        precondition(role == .server, "a client context cannot accept")
        return try TLSSession(context: self, serverName: nil)
    }

    /// A session that connects to `serverName` (a host name or an IP address): sent as SNI
    /// when it is a name, and checked against the server's certificate in either case.
    public func makeClientSession(serverName: String) throws(TLSError) -> TLSSession {
        precondition(role == .client, "a server context cannot connect")
        return try TLSSession(context: self, serverName: serverName)
    }

    /// A file OpenSSL is about to read, checked first so the error says what is wrong with it
    /// ("No such file or directory") rather than OpenSSL's "system library" line.
    private static func readable(_ path: String, _ what: String) throws(TLSError) {
        guard let file = fopen(path, "r") else {
            throw TLSError("\(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        fclose(file)
    }
}
