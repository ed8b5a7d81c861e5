import CorkboardStore
import Foundation
import TestSupport
import Testing

@testable import CorkboardSQLite

/// Revocations outlive the process: a store opened again on the same folder (a restart) still
/// has them, so a revoked token is not let back in by restarting the server.
@Suite struct SQLiteRevocationTests {
    @Test func revocationsOutliveAReopen() throws {
        let folder = try TemporaryDirectory("corkboard-revocations")
        let revocation = TokenRevocation(
            .subject("user-7"), issuedBefore: Date(timeIntervalSince1970: 1_795_575_011), revokedAt: Date(timeIntervalSince1970: 1_795_575_010.5))
        let first = try Fixtures.open(folder)
        try wait { first.revoke(revocation, $0) }.get()
        first.close()
        let second = try Fixtures.open(folder)
        defer { second.close() }
        #expect(try wait { second.revocations($0) }.get() == [revocation])
    }
}
