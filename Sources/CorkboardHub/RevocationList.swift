import CorkboardStore
import Foundation

/// The revocations in force, looked up by a token's holder in constant time: those kept in the
/// store (made over the API, shared by every node) and those of the revocations file.
public struct RevocationList: Sendable, Equatable {
    /// By `sub`: the second before which its tokens were issued to be refused; `.distantFuture`
    /// for every token of it.
    private var subjects: [String: Date] = [:]
    private var tokenIDs: Set<String> = []

    public init(_ revocations: [TokenRevocation] = []) {
        for revocation in revocations {
            switch revocation.target {
            case .subject(let subject):
                // Two revocations of one user: the one that refuses more counts.
                let before = revocation.issuedBefore ?? .distantFuture
                subjects[subject] = max(subjects[subject] ?? .distantPast, before)
            case .tokenID(let id):
                tokenIDs.insert(id)
            }
        }
    }

    public var isEmpty: Bool { subjects.isEmpty && tokenIDs.isEmpty }

    /// Whether `holder`'s token is revoked: its `jti` is, or its user's tokens issued before its
    /// `iat` are (a token without `iat` counts as issued before any revocation of its user).
    public func revokes(_ holder: TokenHolder) -> Bool {
        if let id = holder.tokenID, tokenIDs.contains(id) { return true }
        guard let subject = holder.subject, let before = subjects[subject] else { return false }
        guard let issuedAt = holder.issuedAt else { return true }
        return issuedAt < before
    }

    /// Both lists' revocations in force at once.
    func merged(with other: RevocationList) -> RevocationList {
        var merged = self
        for (subject, before) in other.subjects { merged.subjects[subject] = max(merged.subjects[subject] ?? .distantPast, before) }
        merged.tokenIDs.formUnion(other.tokenIDs)
        return merged
    }
}

/// Any access policy with the revocations in force applied: a revoked token proves nothing
/// (`the token was revoked`), at `hello`, at every HTTP request, and when the members' tokens
/// are judged again after a change (they are then disconnected).
struct RevocationCheckedAccess: AccessPolicy {
    let policy: any AccessPolicy
    let revoked: RevocationList

    func judge(token: String?, checkingLifetime: Bool) -> TokenJudgement {
        let judgement = policy.judge(token: token, checkingLifetime: checkingLifetime)
        guard let holder = judgement.holder, revoked.revokes(holder) else { return judgement }
        return .refused(Self.refusal)
    }

    static let refusal = "the token was revoked"
}
