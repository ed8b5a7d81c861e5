import CorkboardHub
import HTTP

/// Who an HTTP request's `Authorization: Bearer <token>` says its sender is
/// (docs/protocol.md#8-http-api): no token where one is needed, or one that proves nothing
/// (unknown, expired, badly signed), is 401 with `WWW-Authenticate: Bearer` (RFC 6750 §3);
/// a valid token without access is the caller's 403 (`RouteAccess` says which access a route needs).
enum HTTPAuthorization {
    /// A caller the policy in force knows: the token's holder, and the token (nil without one, in open mode).
    struct Caller: Sendable {
        let holder: TokenHolder
        let token: String?
    }

    /// The request's caller under the policy in force now, or the 401 (or 400) that refuses it.
    static func caller(_ request: HTTPRequest, hub: Hub) -> AccessOutcome<Caller> {
        bearerToken(request).flatMap { token in
            switch hub.access.judge(token: token, checkingLifetime: true) {
            case .holder(let holder):
                .granted(Caller(holder: holder, token: token))
            case .missing:
                .refused(unauthorized("a token is needed: Authorization: Bearer <token>", challenge: "Bearer"))
            case .refused(let reason):
                .refused(unauthorized(reason, challenge: #"Bearer error="invalid_token""#))
            }
        }
    }

    /// The token of `Authorization: Bearer <token>` (nil without the header), or the 400 that
    /// refuses a header of another form.
    static func bearerToken(_ request: HTTPRequest) -> AccessOutcome<String?> {
        guard let header = request.headers["Authorization"] else { return .granted(nil) }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return .refused(.error(.badRequest, "Authorization must be \"Bearer <token>\""))
        }
        return .granted(String(parts[1]).trimmingOWS())
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
