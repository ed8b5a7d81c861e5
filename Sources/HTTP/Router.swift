import Sockets

/// Answers one request, exactly once, from any thread: at once for simple routes, later for
/// routes that wait on something (a board's sequencer, the store).
public typealias HTTPHandler = @Sendable (HTTPRequest, HTTPResponder) -> Void

/// How a handler answers its request.
public struct HTTPResponder: Sendable {
    let deliver: @Sendable (HTTPResponse) -> Void
    let switchProtocols: @Sendable (HTTPResponse, @escaping ProtocolSwitch, @escaping @Sendable () -> Void) -> Void

    public init(
        deliver: @escaping @Sendable (HTTPResponse) -> Void,
        switchProtocols: @escaping @Sendable (HTTPResponse, @escaping ProtocolSwitch, @escaping @Sendable () -> Void) -> Void = {
            _, _, gone in gone()
        }
    ) {
        self.deliver = deliver
        self.switchProtocols = switchProtocols
    }

    public func respond(_ response: HTTPResponse) { deliver(response) }

    /// Sends `response` (normally `101 Switching Protocols`), then hands the connection to the
    /// handler `makeHandler` returns; bytes the client sent right after the request reach it
    /// as its first read. When the connection can no longer be taken over (the client left while
    /// the handler waited), `ifGone` runs instead, on any thread: a handler that holds a
    /// resource for the connection (an event stream's place in a board) lets go of it there.
    public func upgrade(
        _ response: HTTPResponse, to makeHandler: @escaping ProtocolSwitch, ifGone: @escaping @Sendable () -> Void = {}
    ) {
        switchProtocols(response, makeHandler, ifGone)
    }
}

/// Builds the protocol handler that takes a connection over after an upgrade; runs on its loop.
public typealias ProtocolSwitch = @Sendable (Connection) -> ConnectionHandler

/// Routes by method and path. Patterns are literal segments and `{name}` captures:
/// `/api/boards/{id}/ops`. A path that matches with another method gets 405 with `Allow`;
/// a method the server does not implement at all gets 501; anything else goes to `fallback`.
public struct Router: Sendable {
    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: String
        let segments: [Substring]
        let handler: HTTPHandler
    }

    private var routes: [Route] = []
    private let fallback: HTTPHandler
    /// Told of every answer, with the pattern of the route that gave it (per-route metrics).
    public var observer: RouteObserver?

    public init(fallback: @escaping HTTPHandler = { _, responder in responder.respond(.error(.notFound, "not found")) }) {
        self.fallback = fallback
    }

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler) {
        routes.append(Route(method: method, pattern: pattern, segments: pattern.split(separator: "/"), handler: handler))
        // HEAD is served wherever GET is, with the body left out by the connection.
        if method == .GET { routes.append(Route(method: .HEAD, pattern: pattern, segments: pattern.split(separator: "/"), handler: handler)) }
    }

    /// Every method and pattern served, in the order added: what a description of the routes
    /// (an OpenAPI document) must name.
    public var served: [(method: HTTPMethod, pattern: String)] { routes.map { ($0.method, $0.pattern) } }

    /// A method no route serves on a path that some route serves is 405 with `Allow`, whatever
    /// the method (TRACE, QUERY, a token of the client's own): the client learns what the path
    /// takes. Elsewhere an unknown method is 501, and a known one goes to the fallback.
    public func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        let path = request.path.split(separator: "/")
        var allowed: [HTTPMethod] = []
        // The first pattern the path matched, whatever its method: a 405's route.
        var matched: String?
        for route in routes {
            guard let parameters = match(route.segments, path) else { continue }
            if route.method == request.method {
                var request = request
                request.pathParameters = parameters
                route.handler(request, observed(responder, request, route: route.pattern))
                return
            }
            matched = matched ?? route.pattern
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        let responder = observed(responder, request, route: matched ?? RouteObservation.unmatched)
        if allowed.isEmpty {
            guard HTTPMethod.known.contains(request.method) else {
                return responder.respond(.error(.notImplemented, "method \(request.method) is not implemented"))
            }
            fallback(request, responder)
        } else {
            var response = HTTPResponse.error(.methodNotAllowed, "\(request.method) is not allowed here")
            response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            responder.respond(response)
        }
    }

    private func observed(_ responder: HTTPResponder, _ request: HTTPRequest, route: String) -> HTTPResponder {
        observer.map { responder.observed(by: $0, method: request.method, route: route) } ?? responder
    }

    private func match(_ pattern: [Substring], _ path: [Substring]) -> [String: String]? {
        guard pattern.count == path.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, actual) in zip(pattern, path) {
            if expected.first == "{" && expected.last == "}" {
                guard let value = PercentDecoding.decode(actual), !value.isEmpty else { return nil }
                parameters[String(expected.dropFirst().dropLast())] = value
            } else if expected != actual {
                return nil
            }
        }
        return parameters
    }
}
