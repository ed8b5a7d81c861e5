import CorkboardModel
import CorkboardStore
import Foundation
import TestSupport
import Testing

/// Every store keeps revocations of signed tokens (docs/security.md#revoking-tokens): made,
/// listed, replaced by a later one of the same target, taken back, and not confused across
/// kinds (a user and a token id spelled alike are two revocations).
@Suite(.threadsOfTheirOwn) struct RevocationContractTests {
    static let retention = LogRetention(retained: 100)

    static func revocations(_ store: any BoardStore) throws -> [TokenRevocation] {
        let keeping = try #require(store as? any TokenRevocationStore)
        return try wait { keeping.revocations($0) }.get().sorted { ($0.target.kind, $0.target.value) < ($1.target.kind, $1.target.value) }
    }

    static func revoke(_ store: any BoardStore, _ revocation: TokenRevocation) throws {
        let keeping = try #require(store as? any TokenRevocationStore)
        try wait { keeping.revoke(revocation, $0) }.get()
    }

    static func withdraw(_ store: any BoardStore, _ target: TokenRevocation.Target) throws -> Result<Void, StoreError> {
        let keeping = try #require(store as? any TokenRevocationStore)
        return wait { keeping.withdrawRevocation(of: target, $0) }
    }

    /// Whole milliseconds and seconds, as every store keeps them.
    static let revokedAt = Date(timeIntervalSince1970: 1_795_575_010.123)
    static let issuedBefore = Date(timeIntervalSince1970: 1_795_575_011)

    @Test(arguments: StoreFactory.all) func revocationsAreKeptReplacedAndTakenBack(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        #expect(try Self.revocations(store).isEmpty)

        let user = TokenRevocation(.subject("user-7"), issuedBefore: Self.issuedBefore, revokedAt: Self.revokedAt)
        let everyToken = TokenRevocation(.subject("Ada \"the\" Łovelace 😀"), revokedAt: Self.revokedAt)
        let token = TokenRevocation(.tokenID("user-7"), revokedAt: Self.revokedAt)
        for revocation in [user, everyToken, token] { try Self.revoke(store, revocation) }
        #expect(try Self.revocations(store) == [token, everyToken, user])

        // A second revocation of one user replaces the first: the later moment counts.
        let later = TokenRevocation(.subject("user-7"), issuedBefore: Self.issuedBefore + 60, revokedAt: Self.revokedAt + 60)
        try Self.revoke(store, later)
        #expect(try Self.revocations(store) == [token, everyToken, later])

        try Self.withdraw(store, .subject("user-7")).get()
        #expect(try Self.revocations(store) == [token, everyToken])
        #expect(try Self.withdraw(store, .subject("user-7")).failure == .notFound)
        #expect(try Self.withdraw(store, .tokenID("nobody")).failure == .notFound)
    }
}
