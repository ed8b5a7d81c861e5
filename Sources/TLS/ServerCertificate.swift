import Sockets
import Synchronization

/// Where a server's certificate chain and private key are (PEM files).
public struct TLSCertificateFiles: Sendable, Hashable {
    public var certificate: String
    public var privateKey: String

    public init(certificate: String, privateKey: String) {
        self.certificate = certificate
        self.privateKey = privateKey
    }
}

/// The server's TLS context, reloadable from its files while the server runs (SIGHUP).
///
/// A reload builds a whole new context and swaps it in for the connections accepted after
/// it; the connections already open keep the context they were made with, so renewing a
/// certificate drops nobody. A reload that fails (a missing file, a key that does not match)
/// changes nothing: the server goes on with the context it had.
public final class ServerCertificate: Sendable {
    public let files: TLSCertificateFiles
    private let current: Mutex<TLSContext>

    /// Loads the files, or throws why they cannot be used.
    public init(files: TLSCertificateFiles) throws(TLSError) {
        self.files = files
        current = Mutex(try TLSContext.server(certificateFile: files.certificate, keyFile: files.privateKey))
    }

    /// Reads the files again. On success, new connections get the new certificate.
    public func reload() throws(TLSError) {
        let fresh = try TLSContext.server(certificateFile: files.certificate, keyFile: files.privateKey)
        current.withLock { $0 = fresh }
    }

    /// The context new connections are made with.
    public var context: TLSContext { current.withLock { $0 } }

    /// A fresh session with the current context, for each accepted connection.
    public var sessions: TransportFilterFactory {
        { [self] in try context.makeServerSession() }
    }
}
