import CorkboardStore
import Foundation
import TestSupport
import Testing

@testable import CorkboardPostgres

/// A revocation made through one node is announced to every node sharing the database (itself
/// too), so each reads them again and sends the revoked members away; one taken back is
/// announced the same way, and taking back none announces nothing.
@Suite(.threadsOfTheirOwn) struct PostgresRevocationTests {
    @Test func everyNodeHearsOfEachChange() throws {
        let url = try TestDatabase.fresh()
        let (one, other) = (try TestDatabase.open(url), try TestDatabase.open(url))
        defer {
            one.close()
            other.close()
        }
        let heardByOne = try #require(one.observeListening())
        let heardByOther = try #require(other.observeListening())
        let revocation = TokenRevocation(.tokenID("t-1"), revokedAt: Date(timeIntervalSince1970: 1_795_575_010))
        try wait { one.revoke(revocation, $0) }.get()
        #expect(eventually(timeout: 10) { heardByOther.contains(.revocationsChanged) && heardByOne.contains(.revocationsChanged) })
        #expect(try wait { other.revocations($0) }.get() == [revocation])

        heardByOther.removeAll()
        #expect(wait { other.withdrawRevocation(of: .subject("t-1"), $0) }.failure == .notFound)
        try wait { other.withdrawRevocation(of: .tokenID("t-1"), $0) }.get()
        #expect(eventually(timeout: 10) { heardByOther.contains(.revocationsChanged) })
        #expect(try wait { one.revocations($0) }.get().isEmpty)
    }
}
