import CorkboardHub
import CorkboardModel
import CorkboardStore
import Foundation
import HTTP
import Logging
import Sockets
import TestSupport
import Testing

@testable import CorkboardServer

/// Every route's access (docs/protocol.md#8-http-api), route by route over the router's real
/// routes, on a server with a token file: the access each route needs is written here, not read
/// from the code, so a route that loses its declared `RouteAccess` (or gets a weaker one) fails,
/// and a route added without an entry here fails `everyRouteIsListedWithTheAccessItNeeds`.
@Suite(.threadsOfTheirOwn, .runningTimeLimit(.minutes(5))) struct RouteAccessTests {
    enum Need {
        /// Anyone, with a token or without.
        case open
        /// Any valid token.
        case holder
        /// An owner of every board.
        case administrator
        /// A token that may read `/metrics`.
        case metricsReader
        /// Any role on the board the path names.
        case boardMember
        /// An owner of the board the path (or `POST /api/boards`' body) names.
        case boardOwner
    }

    static let needs: [String: Need] = [
        "GET /api/openapi.json": .open,
        "GET /api/admin/access": .open,
        "GET /api/admin/overview": .administrator,
        "POST /api/admin/drain": .administrator,
        "DELETE /api/admin/drain": .administrator,
        "GET /api/revocations": .administrator,
        "POST /api/revocations": .administrator,
        "DELETE /api/revocations": .administrator,
        "GET /api/webhooks": .administrator,
        "POST /api/webhooks": .administrator,
        "GET /api/webhooks/{id}": .administrator,
        "DELETE /api/webhooks/{id}": .administrator,
        "GET /api/boards": .holder,
        "POST /api/boards": .boardOwner,
        "GET /api/boards/{id}": .boardMember,
        "PATCH /api/boards/{id}": .boardOwner,
        "DELETE /api/boards/{id}": .boardOwner,
        "GET /api/boards/{id}/ops": .boardMember,
        "POST /api/boards/{id}/ops": .boardMember,
        "GET /api/boards/{id}/events": .boardMember,
        "GET /api/boards/{id}/archive": .boardOwner,
        "PUT /api/boards/{id}/archive": .boardOwner,
        "GET /metrics": .metricsReader,
    ]

    static let owner = "owner-token"
    static let demoOwner = "demo-owner-token"
    static let demoViewer = "demo-viewer-token"
    /// An editor of another board only.
    static let stranger = "stranger-token"

    static func server() throws -> TestServer {
        try TestServer { configuration in
            configuration.createsDemoBoard = true
            configuration.access = ServerAccess(
                file: try! TokenFile(grants: [
                    TokenFile.Grant(token: owner, role: .owner, boards: .all, name: "Olive"),
                    TokenFile.Grant(token: demoOwner, role: .owner, boards: ["demo"], name: "Bo"),
                    TokenFile.Grant(token: demoViewer, role: .viewer, boards: ["demo"], name: "Vi"),
                    TokenFile.Grant(token: stranger, role: .editor, boards: ["elsewhere"], name: "Sam"),
                ]), signed: nil)
        }
    }

    /// The routes the server adds (without the `HEAD` twin of each `GET`, nor `OPTIONS`), as `METHOD pattern`.
    static func servedRoutes() -> Set<String> {
        var logger = Logger(label: "route-access-test")
        logger.logLevel = .critical
        let router = Routes.make(
            configuration: ServerConfiguration(), staticFiles: nil, hub: Hub(store: MemoryStore(), logger: logger), metrics: ServerMetrics(),
            traffic: TrafficCounters(), readiness: Readiness())
        return Set(
            router.served.filter { ($0.pattern.hasPrefix("/api/") || $0.pattern == "/metrics") && $0.method != .HEAD && $0.method != .OPTIONS }
                .map { "\($0.method.rawValue) \($0.pattern)" })
    }

    /// `route` on the demo board, with `token`; `POST /api/boards` with a body naming the demo
    /// board, since the board it creates is what its access is about.
    static func call(_ port: UInt16, _ route: String, token: String?) throws -> APIResponse {
        try call(port, route, headers: token.map { ["Authorization: Bearer \($0)"] } ?? [])
    }

    static func call(_ port: UInt16, _ route: String, headers: [String]) throws -> APIResponse {
        let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
        let target = parts[1].replacingOccurrences(of: "/api/webhooks/{id}", with: "/api/webhooks/w1")
            .replacingOccurrences(of: "{id}", with: "demo")
        let body = route == "POST /api/boards" ? #"{"id":"demo","title":"Demo","collections":[]}"# : ""
        return try BoardAPI(port: port).send(parts[0], target, headers: headers, body: body)
    }

    @Test func everyRouteIsListedWithTheAccessItNeeds() {
        let served = Self.servedRoutes()
        let listed = Set(Self.needs.keys)
        #expect(served.subtracting(listed).isEmpty, "served, with no access listed here: \(served.subtracting(listed).sorted())")
        #expect(listed.subtracting(served).isEmpty, "listed, not served: \(listed.subtracting(served).sorted())")
    }

    @Test func withoutAValidTokenOnlyTheOpenRoutesAnswer() throws {
        let server = try Self.server()
        for (route, need) in Self.needs.sorted(by: { $0.key < $1.key }) {
            for token in [nil, "not-a-token"] {
                let answer = try Self.call(server.port, route, token: token)
                if need == .open {
                    #expect(answer.status == 200, "\(route) with \(token ?? "no token"): \(answer)")
                } else {
                    #expect(answer.status == 401, "\(route) with \(token ?? "no token"): \(answer)")
                    #expect(answer.object?["error"] == "unauthorized", "\(route)")
                    let challenge = answer.http.header("WWW-Authenticate") ?? ""
                    #expect(challenge.hasPrefix("Bearer"), "\(route): \(challenge)")
                }
            }
            // A header of another form than Bearer is the request's fault, before any token is judged.
            if need != .open {
                let malformed = try Self.call(server.port, route, headers: ["Authorization: Basic b2xpdmU6c2VjcmV0"])
                #expect(malformed.status == 400, "\(route): \(malformed)")
            }
        }
    }

    @Test func aTokenWithoutTheRouteAccessIsRefused403() throws {
        let server = try Self.server()
        for (route, need) in Self.needs.sorted(by: { $0.key < $1.key }) {
            let refused: [String]
            switch need {
            case .open, .holder: refused = []
            case .administrator, .metricsReader: refused = [Self.demoOwner, Self.demoViewer, Self.stranger]
            case .boardMember: refused = [Self.stranger]
            case .boardOwner: refused = [Self.demoViewer, Self.stranger]
            }
            for token in refused {
                let answer = try Self.call(server.port, route, token: token)
                #expect(answer.status == 403, "\(route) with \(token): \(answer)")
                #expect(answer.object?["error"] == "forbidden", "\(route) with \(token)")
            }
        }
    }

    /// The least access each reading route needs is enough: no route asks for more than it declares.
    @Test func theLeastAccessARouteNeedsIsLetIn() throws {
        let server = try Self.server()
        // `…/events` is left out: let in, it streams until the reader goes.
        for (route, need) in Self.needs.sorted(by: { $0.key < $1.key }) where route.hasPrefix("GET ") && !route.hasSuffix("/events") {
            let least: String?
            switch need {
            case .open: least = nil
            case .holder: least = Self.stranger
            case .administrator, .metricsReader: least = Self.owner
            case .boardMember: least = Self.demoViewer
            case .boardOwner: least = Self.demoOwner
            }
            let answer = try Self.call(server.port, route, token: least)
            #expect(answer.status != 401 && answer.status != 403, "\(route) with \(least ?? "no token"): \(answer)")
        }
    }
}
