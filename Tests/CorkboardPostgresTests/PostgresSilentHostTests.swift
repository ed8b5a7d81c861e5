import Glibc
import Synchronization
import TestSupport
import Testing

@testable import CorkboardPostgres

/// A primary whose machine is gone answers nothing: libpq, connecting asynchronously, waits on
/// it until the connection's deadline and never tries the next host of the URL by itself. The
/// attempt after one that ran out of time starts at the next host, so a URL naming a dead
/// primary first and the promoted standby second still connects.
@Suite(.threadsOfTheirOwn) struct PostgresSilentHostTests {
    @Test func anAttemptThatRanOutOfTimeOnASilentHostIsFollowedByOneStartingAtTheNext() throws {
        let database = try PostgresCluster.shared()
        // Accepts connections (the kernel completes the handshake) and never answers a byte.
        let silent = try listenOnLoopback(backlog: 16)
        defer { close(silent.descriptor) }
        let url =
            "postgresql://\(PostgresCluster.user)@127.0.0.1:\(silent.port),127.0.0.1:\(database.port)/\(PostgresCluster.user)?target_session_attrs=read-write"
        let connection = PostgresConnection(settings: .init(url: url, connectTimeout: 1), label: "test.silent-first")
        defer { connection.close() }
        let states = Mutex<[PostgresConnection.State]>([])
        connection.onState = { state in states.withLock { $0.append(state) } }
        connection.start()

        #expect(eventually(timeout: 15) { states.withLock { $0.contains(.ready) } })
        let seen = states.withLock { $0 }
        #expect(seen.first == .lost("no connection within 1.0 s; the next attempt starts at host 2 of 2"), "\(seen)")
        let answer = try wait { connection.execute([PostgresStatement("SELECT inet_server_port() AS port")], $0) }.get()
        #expect(try answer[0].int(0, "port") == Int(database.port))
    }
}
