import Foundation
import Sockets
import TestSupport

@testable import TLS

/// A client and a server session talking in memory: ciphertext is moved between them by
/// hand, in chunks of a chosen size, and the plaintext each one decodes is collected.
final class SessionPair {
    let client: TLSSession
    let server: TLSSession
    /// Ciphertext is handed over this many bytes at a time (cycling through the sizes).
    var chunkSizes: [Int]
    /// Decoded plaintext is read into a buffer this large.
    var readSize: Int
    private var chunkIndex = 0
    private(set) var clientReceived: [UInt8] = []
    private(set) var serverReceived: [UInt8] = []
    private(set) var clientEnd: TransportRead?
    private(set) var serverEnd: TransportRead?

    init(client: TLSSession, server: TLSSession, chunkSizes: [Int] = [16 * 1024], readSize: Int = 64 * 1024) {
        self.client = client
        self.server = server
        self.chunkSizes = chunkSizes
        self.readSize = readSize
    }

    /// Starts the client and exchanges messages until neither side has anything left to say.
    func handshake() {
        client.start()
        exchange()
    }

    /// Moves bytes both ways until both are quiet (bounded: a loop here is a bug).
    func exchange() {
        for _ in 0..<1000 {
            let moved = move(from: client, to: server) + move(from: server, to: client)
            if moved == 0 { return }
        }
        fatalError("the sessions never went quiet")
    }

    /// Hands `from`'s output to `to` and reads what `to` decodes; returns the bytes moved.
    @discardableResult
    func move(from sender: TLSSession, to receiver: TLSSession) -> Int {
        var moved = 0
        while let chunk = sender.takeOutput() {
            var offset = 0
            while offset < chunk.count {
                let size = min(chunkSizes[chunkIndex % chunkSizes.count], chunk.count - offset)
                chunkIndex += 1
                receiver.receive(UnsafeRawBufferPointer(start: chunk.base + offset, count: size))
                offset += size
                drain(receiver)
            }
            moved += chunk.count
        }
        drain(receiver)
        return moved
    }

    /// Reads everything `session` can decode now.
    private func drain(_ session: TLSSession) {
        let isServer = session === server
        guard (isServer ? serverEnd : clientEnd) == nil else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let result = session.read(into: buffer)
            switch result {
            case .bytes(let count):
                if isServer { serverReceived += buffer[0..<count] } else { clientReceived += buffer[0..<count] }
            case .needMore:
                return
            case .closed, .failed:
                if isServer { serverEnd = result } else { clientEnd = result }
                return
            }
        }
    }

    /// Writes `bytes` through `session` in pieces of the given sizes (cycling).
    static func write(_ bytes: [UInt8], through session: TLSSession, pieces: [Int]) -> TransportFailure? {
        var offset = 0
        var index = 0
        while offset < bytes.count {
            let size = min(pieces[index % pieces.count], bytes.count - offset)
            index += 1
            let failure = bytes[offset..<(offset + size)].withUnsafeBytes { session.write($0) }
            if let failure { return failure }
            offset += size
        }
        return nil
    }
}

/// Two self-signed certificates in a temporary folder (removed with it), made per test.
final class Certificates {
    let folder: TemporaryDirectory
    let main: TestCertificate
    let other: TestCertificate

    init() throws {
        folder = try TemporaryDirectory("corkboard-tls")
        main = try TestCertificate.make(in: folder.path, name: "main", serial: "A1")
        other = try TestCertificate.make(in: folder.path, name: "other", serial: "B2")
    }

    func serverContext(_ certificate: TestCertificate? = nil) throws -> TLSContext {
        let certificate = certificate ?? main
        return try TLSContext.server(certificateFile: certificate.certificatePath, keyFile: certificate.keyPath)
    }

    /// A client that trusts `main` (and the system's CAs).
    func trustingClient() throws -> TLSContext {
        try TLSContext.client(trustedCAFile: main.certificatePath)
    }

    /// A client session to 127.0.0.1 that trusts `main`, and a server session with `main`.
    func pair(chunkSizes: [Int] = [16 * 1024], readSize: Int = 64 * 1024) throws -> SessionPair {
        SessionPair(
            client: try trustingClient().makeClientSession(serverName: "127.0.0.1"),
            server: try serverContext().makeServerSession(), chunkSizes: chunkSizes, readSize: readSize)
    }
}

extension TransportRead {
    var failureText: String? {
        if case .failed(let failure) = self { return failure.description }
        return nil
    }
}
