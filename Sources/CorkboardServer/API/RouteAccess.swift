import CorkboardHub
import HTTP

/// What a route needs of its caller, declared where the route is added (`APIRouteTable.add`)
/// and established by the route wrapper before the handler runs. The handler is given what was
/// established (`Grant`: the token's holder, the board and the role on it…), so no handler can
/// forget the check and none repeats it (docs/protocol.md#8-http-api: 400 for an
/// `Authorization` of another form than Bearer, 401 without a valid token where one is needed,
/// 403 for a token without the access).
struct RouteAccess<Grant: Sendable>: Sendable {
    /// The grant, or the answer that refuses the request: a function of the request and the
    /// access policy in force when it arrives (it changes when the token file is reloaded).
    let establish: @Sendable (HTTPRequest, Hub) -> AccessOutcome<Grant>

    /// `handler` behind this access: a refused request is answered here and never reaches it.
    func guarding(hub: Hub, _ handler: @escaping APIHandler<Grant>) -> HTTPHandler {
        { request, responder in
            switch establish(request, hub) {
            case .granted(let grant): handler(request, grant, responder)
            case .refused(let refusal): responder.respond(refusal)
            }
        }
    }
}

/// A route's handler: the request, what its `RouteAccess` established, and where to answer.
typealias APIHandler<Grant> = @Sendable (HTTPRequest, Grant, HTTPResponder) -> Void

/// What checking a request's access came to.
enum AccessOutcome<Grant> {
    case granted(Grant)
    /// The 400, 401 or 403 to answer instead of running the handler.
    case refused(HTTPResponse)

    func flatMap<Other>(_ transform: (Grant) -> AccessOutcome<Other>) -> AccessOutcome<Other> {
        switch self {
        case .granted(let grant): transform(grant)
        case .refused(let refusal): .refused(refusal)
        }
    }
}

extension RouteAccess where Grant == Void {
    /// Anyone, with a token or without: no token is looked at.
    static var open: RouteAccess { RouteAccess { _, _ in .granted(()) } }
}

extension RouteAccess where Grant == TokenHolder {
    /// Any valid token (everyone, in open mode): its holder.
    static var holder: RouteAccess {
        RouteAccess { request, hub in HTTPAuthorization.caller(request, hub: hub).flatMap { .granted($0.holder) } }
    }

    /// An owner of every board (`"boards": "*"`: who revokes tokens, makes webhooks and uses the
    /// admin API, each of which reaches every board); any other valid token gets 403 `refusal`.
    static func administrator(refusal: String) -> RouteAccess {
        RouteAccess { request, hub in
            HTTPAuthorization.caller(request, hub: hub).flatMap { caller in
                caller.holder.isAdministrator ? .granted(caller.holder) : .refused(.error(.forbidden, refusal))
            }
        }
    }

    /// A token that may read the figures of every board (`/metrics`): an owner of every board's,
    /// or one with `"metrics": true`; any other valid token gets 403 `refusal`.
    static func metricsReader(refusal: String) -> RouteAccess {
        RouteAccess { request, hub in
            HTTPAuthorization.caller(request, hub: hub).flatMap { caller in
                caller.holder.mayReadMetrics ? .granted(caller.holder) : .refused(.error(.forbidden, refusal))
            }
        }
    }
}
