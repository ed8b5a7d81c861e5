import CorkboardModel

/// Any access policy, with the names its holders go by held to `Limits.nameProblem` (at most
/// `Limits.maximumNameBytes`, no NUL; docs/protocol.md#3-joining): a valid token whose `sub`,
/// `name` or grant name breaks it is refused as a token that proves nothing (`unauthorized`, HTTP 401), since each of them is
/// copied into every event (`by`) or every peer listing its holder makes.
///
/// Kept apart from the policies themselves (the token file, signed tokens), so that every
/// policy the hub is given is bounded the same way, a reloaded one too.
struct NameBoundAccess: AccessPolicy {
    let policy: any AccessPolicy

    init(_ policy: any AccessPolicy) {
        // Wrapping twice would judge names twice: unwrap a policy that is one already.
        self.policy = (policy as? NameBoundAccess)?.policy ?? policy
    }

    func judge(token: String?, checkingLifetime: Bool) -> TokenJudgement {
        let judgement = policy.judge(token: token, checkingLifetime: checkingLifetime)
        guard let holder = judgement.holder, let reason = Self.refusal(of: holder) else { return judgement }
        return .refused(reason)
    }

    /// Why `holder`'s names are refused; nil when they fit.
    static func refusal(of holder: TokenHolder) -> String? {
        let names = [("sub", holder.subject), ("name", holder.name), ("grant name", holder.grantName), ("jti", holder.tokenID)]
        for case (let claim, let value?) in names {
            if let problem = Limits.nameProblem(value) { return "the token's \(claim) \(problem)" }
        }
        return nil
    }
}
