import CorkboardHub
import HTTP

/// What a 429 tells its client (docs/protocol.md#conventions): `Retry-After`, and the
/// `RateLimit-Policy` and `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers (-10),
/// structured-field lists with one item per rate the caller is held to:
///
///     RateLimit-Policy: "ops";q=2000;w=1, "op-bytes";q=4194304;w=4;qu="content-bytes"
///     RateLimit: "ops";r=0;t=1, "op-bytes";r=4190000;t=1
///
/// `q` is a full bucket, `w` the seconds an empty one takes to fill, `r` what the caller may
/// spend now and `t` the seconds until its bucket is full again.
enum RateLimitFields {
    /// The header names a page must be allowed to read (`Access-Control-Expose-Headers`).
    static let exposed = ["Retry-After", "RateLimit-Policy", "RateLimit"]

    /// `response`, and if it is a 429, for `caller`: `Retry-After` and, when the hub has rates,
    /// their fields.
    static func added(to response: HTTPResponse, hub: Hub, caller: String) -> HTTPResponse {
        guard response.status == .tooManyRequests else { return response }
        var response = response
        let quotas = hub.httpOperationQuotas(caller: caller)
        // A whole second always refills at least one token of any rate.
        response.headers.set("Retry-After", "1")
        guard !quotas.isEmpty else { return response }
        response.headers.set("RateLimit-Policy", quotas.map(policy).joined(separator: ", "))
        response.headers.set("RateLimit", quotas.map(state).joined(separator: ", "))
        return response
    }

    static func policy(_ quota: RateQuota) -> String {
        let unit = quota.unit == "requests" ? "" : #";qu="\#(quota.unit)""#
        return #""\#(quota.name)";q=\#(quota.quota);w=\#(quota.window)"# + unit
    }

    static func state(_ quota: RateQuota) -> String {
        #""\#(quota.name)";r=\#(quota.remaining);t=\#(quota.reset)"#
    }
}
