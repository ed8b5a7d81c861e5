import CorkboardStore
import Foundation
import GRDB

/// Revocations in the `revocation` table, read and written on the store's queue like boards.
extension SQLiteStore: TokenRevocationStore {
    public func revocations(_ completion: @escaping @Sendable (Result<[TokenRevocation], StoreError>) -> Void) {
        perform(writing: false, completion) { db in
            let rows = try Row.fetchAll(db, sql: "SELECT kind, value, issuedBefore, revokedAt FROM revocation ORDER BY kind, value")
            return .success(
                rows.compactMap { row in
                    // A kind a later version wrote is not this version's to enforce or drop.
                    guard let target = TokenRevocation.target(kind: row["kind"], value: row["value"]) else { return nil }
                    return TokenRevocation(target, issuedBeforeSeconds: row["issuedBefore"], revokedAtMilliseconds: row["revokedAt"])
                })
        }
    }

    public func revoke(_ revocation: TokenRevocation, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        perform(writing: true, completion) { db in
            try db.execute(
                sql: """
                    INSERT INTO revocation (kind, value, issuedBefore, revokedAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT (kind, value) DO UPDATE SET issuedBefore = excluded.issuedBefore, revokedAt = excluded.revokedAt
                    """,
                arguments: [revocation.target.kind, revocation.target.value, revocation.issuedBeforeSeconds, revocation.revokedAtMilliseconds])
            return .success(())
        }
    }

    public func withdrawRevocation(
        of target: TokenRevocation.Target, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        perform(writing: true, completion) { db in
            try db.execute(sql: "DELETE FROM revocation WHERE kind = ? AND value = ?", arguments: [target.kind, target.value])
            return db.changesCount == 1 ? .success(()) : .failure(.notFound)
        }
    }
}
