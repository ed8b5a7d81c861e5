import CorkboardModel
import CorkboardWire
import Foundation

/// What a joined member's token proved (`HubSession`): the board it joined, and the holder and
/// role the token it holds now gave (the room keeps the token itself, to judge it again).
struct Credentials {
    var role: Role
    /// Who the token says the member is and until when, boxed: nil for a token that says
    /// neither (a token file's grant without a name), and a session holds 8 bytes here instead
    /// of a whole `TokenHolder` (over a hundred). The board is its room's.
    var claims: TokenClaims?

    init(holder: TokenHolder, role: Role) {
        self.role = role
        claims = TokenClaims(holder)
    }

    var expires: Date? { claims?.expires }
}

/// The parts of a `TokenHolder` a live connection keeps: what a refreshed token must say again
/// (the same user), and the expiry.
final class TokenClaims {
    let subject: String?
    let name: String?
    let grantName: String?
    let expires: Date?

    /// Nil when the holder claims none of them.
    init?(_ holder: TokenHolder) {
        guard holder.subject != nil || holder.name != nil || holder.grantName != nil || holder.expires != nil else { return nil }
        subject = holder.subject
        name = holder.name
        grantName = holder.grantName
        expires = holder.expires
    }
}

/// A live connection's token: refreshed over the socket (`token`), and the connection closed
/// 4001 once it expires unrefreshed (docs/protocol.md#refreshing-the-token).
extension HubSession {
    /// Takes `token` as the connection's if it proves the same user with the same role on the
    /// board; otherwise keeps the one it has and says why (`token.refused`).
    func refreshToken(_ token: String, room: BoardRoom) {
        guard let current = credentials else { return }
        switch verdict(on: token, replacing: current, board: room.id) {
        case .refused(let refusal):
            link.send(.tokenRefused(refusal))
        case .accepted(let holder):
            credentials?.claims = TokenClaims(holder)
            room.replaceToken(of: key, with: token)
            scheduleExpiryCheck()
            link.send(.tokenAccepted(expiresAt: holder.expires.map(BoardRoom.milliseconds)))
        }
    }

    private enum RefreshVerdict {
        case accepted(TokenHolder)
        case refused(ErrorMessage)
    }

    /// Whether `token` may replace the current one, and what it proves.
    private func verdict(on token: String, replacing current: Credentials, board: String) -> RefreshVerdict {
        // Judging a token costs a signature check: paced with the operations.
        guard takeOperationToken() else {
            return .refused(ErrorMessage(code: .rateLimited, message: "token refreshes beyond the operation rate; send it again shortly"))
        }
        let holder: TokenHolder
        switch hub.access.judge(token: token, checkingLifetime: true) {
        case .holder(let valid): holder = valid
        case .missing: return .refused(ErrorMessage(code: .unauthorized, message: "a token is needed"))
        case .refused(let reason): return .refused(ErrorMessage(code: .unauthorized, message: reason))
        }
        guard let role = holder.role(on: board) else {
            return .refused(ErrorMessage(code: .forbidden, message: "the token is not valid for board \"\(board)\""))
        }
        // Who the member is shows in every listing and in each event's `by`: a connection
        // stays one user's, as it stays one board's.
        let old = current.claims
        guard holder.subject == old?.subject, holder.name == old?.name, holder.grantName == old?.grantName else {
            return .refused(ErrorMessage(code: .forbidden, message: "the token is another user's; join again with it"))
        }
        guard role == current.role else {
            return .refused(ErrorMessage(code: .forbidden, message: "the token grants another role (\(role.rawValue)); join again with it"))
        }
        return .accepted(holder)
    }

    /// Schedules the check that closes the connection once the token held now has expired
    /// (and its grace gone by); a refresh schedules another, and this one then does nothing.
    func scheduleExpiryCheck() {
        expiryCheck += 1
        guard let deadline = expiryDeadline else { return }
        let check = expiryCheck
        let delay = max(0, deadline.timeIntervalSince(hub.clock.wallTime()))
        // Whole milliseconds, bounded: a token valid for years must not overflow the interval.
        let milliseconds = Int(min(delay, 365 * 86_400) * 1000) + 1
        link.schedule(after: .milliseconds(milliseconds)) { [weak self] in self?.checkExpiry(check) }
    }

    /// When the connection is closed unless its token is refreshed: the token's `exp` and the grace.
    private var expiryDeadline: Date? {
        credentials?.expires?.addingTimeInterval(hub.configuration.tokenExpiryGrace)
    }

    private func checkExpiry(_ check: Int) {
        guard check == expiryCheck, case .joined(let room) = phase, let deadline = expiryDeadline,
            let expires = credentials?.expires
        else { return }
        // Scheduled early (a capped delay, a clock that moved): look again then.
        guard hub.clock.wallTime() >= deadline else { return scheduleExpiryCheck() }
        phase = .closed
        room.leave(key)
        BoardRoom.refuse(link, .unauthorized, "the token expired at \(expires.formatted(.iso8601))", close: .tokenExpired)
    }
}
