import CorkboardHub
import HTTP

/// Who an HTTP request's `Authorization: Bearer <token>` says its sender is
/// (docs/protocol.md#8-http-api): no token where one is needed, or one that proves nothing
/// (unknown, expired, badly signed), is 401 with `WWW-Authenticate: Bearer` (RFC 6750 §3);
/// a valid token without access is the caller's 403.
enum HTTPAuthorization {
    /// The holder of the request's token under the policy in force now, or nil after answering 401 (or 400).
    static func holder(_ request: HTTPRequest, hub: Hub, _ responder: HTTPResponder) -> TokenHolder? {
        guard let token = BoardAPI.bearerToken(request, responder) else { return nil }
        switch hub.access.judge(token: token, checkingLifetime: true) {
        case .holder(let holder):
            return holder
        case .missing:
            responder.respond(unauthorized("a token is needed: Authorization: Bearer <token>", challenge: "Bearer"))
        case .refused(let reason):
            responder.respond(unauthorized(reason, challenge: #"Bearer error="invalid_token""#))
        }
        return nil
    }

    /// Whether the request's token is an owner's of every board (who revokes tokens, makes
    /// webhooks and uses the admin API: each reaches every board), after answering 401 without a
    /// valid token and 403 with `refusal` for any other token.
    static func administrator(_ request: HTTPRequest, hub: Hub, refusal: String, _ responder: HTTPResponder) -> Bool {
        guard let holder = holder(request, hub: hub, responder) else { return false }
        guard holder.isAdministrator else {
            responder.respond(.error(.forbidden, refusal))
            return false
        }
        return true
    }

    private static func unauthorized(_ message: String, challenge: String) -> HTTPResponse {
        var response = HTTPResponse.error(.unauthorized, message)
        response.headers.set("WWW-Authenticate", challenge)
        return response
    }
}

extension TokenHolder {
    /// An owner of every board (`"boards": "*"`).
    var isAdministrator: Bool { role == .owner && boards == .all }
}
