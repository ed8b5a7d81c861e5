import CorkboardStore
import Foundation

/// Revocations in the `revocation` table; each change is announced on `corkboard_revocations`
/// from its own transaction (sent only if it commits), so every node, this one too, reads
/// them again within a notification's delay.
extension PostgresStore: TokenRevocationStore {
    public func revocations(_ completion: @escaping @Sendable (Result<[TokenRevocation], StoreError>) -> Void) {
        run([PostgresStatement("SELECT kind, value, issued_before, revoked_at FROM revocation ORDER BY kind, value")]) { result in
            completion(
                result.flatMap { groups in
                    Result { () throws(PostgresError) in
                        let rows = groups[0]
                        var revocations: [TokenRevocation] = []
                        for row in 0..<rows.count {
                            // A kind a later version wrote is not this version's to enforce or drop.
                            guard let target = TokenRevocation.target(kind: try rows.string(row, "kind"), value: try rows.string(row, "value"))
                            else { continue }
                            revocations.append(
                                TokenRevocation(
                                    target, issuedBeforeSeconds: try rows.optionalInt(row, "issued_before").map(Int64.init),
                                    revokedAtMilliseconds: Int64(try rows.int(row, "revoked_at"))))
                        }
                        return revocations
                    }.mapError { .unavailable("\($0)") }
                })
        }
    }

    public func revoke(_ revocation: TokenRevocation, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let statements = [
            PostgresStatement(
                """
                INSERT INTO revocation (kind, value, issued_before, revoked_at) VALUES ($1, $2, $3::bigint, $4::bigint)
                ON CONFLICT (kind, value) DO UPDATE SET issued_before = excluded.issued_before, revoked_at = excluded.revoked_at
                """,
                [
                    revocation.target.kind, revocation.target.value, revocation.issuedBeforeSeconds.map(String.init),
                    String(revocation.revokedAtMilliseconds),
                ]),
            PostgresStatement("SELECT pg_notify($1, '')", [Self.revocationsChannel]),
        ]
        run(statements) { result in completion(result.map { _ in () }) }
    }

    public func withdrawRevocation(
        of target: TokenRevocation.Target, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        let statements = [
            PostgresStatement(
                "WITH gone AS (DELETE FROM revocation WHERE kind = $1 AND value = $2 RETURNING kind) SELECT pg_notify($3, '') FROM gone",
                [target.kind, target.value, Self.revocationsChannel])
        ]
        run(statements) { result in completion(result.flatMap { $0[0].count == 1 ? .success(()) : .failure(.notFound) }) }
    }
}
