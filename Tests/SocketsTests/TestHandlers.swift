import Foundation
import Logging
import Synchronization

@testable import Sockets

/// Echoes what it reads and records how the connection ended. Touched on the loop, read by tests.
final class EchoHandler: ConnectionHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var reason: Connection.CloseReason?
    private(set) var sawEOF = false

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        connection.send(Array(bytes))
    }

    func connectionDidReadEOF(_ connection: Connection) {
        lock.withLock { sawEOF = true }
        connection.close()
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        lock.withLock { self.reason = reason }
    }

    var closeReason: Connection.CloseReason? { lock.withLock { reason } }
}

/// Counts what it reads and answers nothing (an answer to a peer that reset would reveal the
/// reset by itself). Touched on the loop, read by tests.
final class SilentRecorder: ConnectionHandler, @unchecked Sendable {
    private let state = Mutex<(bytes: Int, reason: Connection.CloseReason?)>((0, nil))

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        state.withLock { $0.bytes += bytes.count }
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        state.withLock { $0.reason = reason }
    }

    var received: Int { state.withLock { $0.bytes } }
    var closeReason: Connection.CloseReason? { state.withLock { $0.reason } }
}

/// Sends `chunkSize` bytes every 2 ms until the connection closes, as a stream of broadcasts would.
final class FloodHandler: ConnectionHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var reason: Connection.CloseReason?
    let chunk: ByteChunk

    init(chunkSize: Int) { chunk = ByteChunk([UInt8](repeating: 0x2A, count: chunkSize)) }

    func start(_ connection: Connection) {
        connection.loop.execute { self.pump(connection) }
    }

    private func pump(_ connection: Connection) {
        guard closeReason == nil else { return }
        connection.send(chunk)
        connection.loop.queue.asyncAfter(deadline: .now() + .milliseconds(2)) { self.pump(connection) }
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {}
    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        lock.withLock { self.reason = reason }
    }

    var closeReason: Connection.CloseReason? { lock.withLock { reason } }
}

let testLogger: Logger = {
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    return logger
}()

/// Answers "stream" with an endless body, each chunk queued as the last one drains (as a
/// streamed HTTP body is fed), and echoes anything else. Each chunk takes a millisecond to
/// make, as a large board's JSON does: a reader keeps up, so the socket never fills.
final class DrainFedStreamHandler: ConnectionHandler, @unchecked Sendable {
    private let chunk = ByteChunk([UInt8](repeating: 0x2E, count: 16 * 1024))
    /// Set on the loop when "stream" arrives; the loop alone touches it.
    private var streaming = false

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        guard Array(bytes) == Array("stream".utf8) else { return connection.send(Array(bytes)) }
        streaming = true
        connection.send(chunk)
    }

    func connectionDidDrain(_ connection: Connection) {
        guard streaming else { return }
        usleep(1000)
        connection.send(chunk)
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {}
}
