import Synchronization
import Testing

@testable import CorkboardPostgres

/// A database that is not there yet is a line every few seconds, not a silent wait until
/// the start gives up; the line names where, never with whose password.
@Suite(.threadsOfTheirOwn) struct PostgresWaitingTests {
    @Test func openSaysWhatItWaitsFor() throws {
        let lines = Mutex<[String]>([])
        // Port 1 on loopback: nothing listens, every attempt is refused.
        var configuration = PostgresStore.Configuration(url: "postgres://corkboard:secret@127.0.0.1:1/corkboard", connectTimeout: 1, startupTimeout: 2)
        configuration.waitingNoticeInterval = 0.5
        configuration.waiting = { line in lines.withLock { $0.append(line) } }
        #expect(throws: PostgresStoreError.self) { try PostgresStore.open(configuration) }
        let written = lines.withLock { $0 }
        #expect(written.count >= 2)
        #expect(written.count <= 4)
        for line in written {
            #expect(line.hasPrefix("waiting for PostgreSQL at 127.0.0.1:1: "))
            #expect(!line.contains("secret"))
        }
    }

    @Test(arguments: [
        ("postgres://user:pw@db.internal:5433/corkboard?sslmode=require", "db.internal:5433"),
        ("postgresql://db/corkboard", "db:5432"),
        ("postgres://user@[::1]:6000/x", "[::1]:6000"),
        ("postgres:///corkboard", "localhost:5432"),
        ("host=10.0.0.5 port=5999 dbname=corkboard password=pw", "10.0.0.5:5999"),
        ("dbname=corkboard", "localhost:5432"),
    ])
    func targetsAreHostAndPortOnly(url: String, expected: String) {
        #expect(PostgresTarget.describe(url) == expected)
    }
}
