import Dispatch

/// One answered request as the router saw it, for per-route metrics: the route's pattern
/// (`/api/boards/{id}`), never the raw path, so that the series an observer keeps stay as few
/// as the routes whatever clients ask for. A request no route matched (the fallback: static
/// files, 404s) is `unmatched`; a method the server does not implement is `other`.
public struct RouteObservation: Sendable {
    /// The route of a request no pattern matched.
    public static let unmatched = "unmatched"
    /// The method of a request whose method is none the server implements (any token parses).
    public static let otherMethod = "other"

    public let method: String
    public let route: String
    public let status: Int
    /// From the router taking the request to the handler handing its answer over.
    public let seconds: Double
}

/// Told of every answer the router's handlers give (`Router.observer`); called on any thread.
public typealias RouteObserver = @Sendable (RouteObservation) -> Void

extension HTTPResponder {
    /// This responder, telling `observer` of the answer (or the upgrade) it hands over.
    func observed(by observer: @escaping RouteObserver, method: HTTPMethod, route: String) -> HTTPResponder {
        let started = DispatchTime.now().uptimeNanoseconds
        let method = HTTPMethod.known.contains(method) ? method.rawValue : RouteObservation.otherMethod
        @Sendable func tell(_ status: HTTPStatus) {
            let now = DispatchTime.now().uptimeNanoseconds
            let seconds = Double(now > started ? now - started : 0) / 1e9
            observer(RouteObservation(method: method, route: route, status: status.code, seconds: seconds))
        }
        return HTTPResponder(
            deliver: { response in
                tell(response.status)
                respond(response)
            },
            switchProtocols: { response, makeHandler, ifGone in
                tell(response.status)
                switchProtocols(response, makeHandler, ifGone)
            })
    }
}
