import CorkboardHub
import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation
import HTTP
import Logging
import Sockets
import TestSupport
import Testing

@testable import CorkboardServer

/// The OpenAPI 3.1 description served at `GET /api/openapi.json`: it names exactly the paths
/// and methods the server serves (docs/protocol.md#8-http-api). schemathesis driving a real
/// `corkboard serve` from it is OpenAPISchemathesisTests' (CorkboardEndToEndTests).
@Suite(.threadsOfTheirOwn) struct OpenAPITests {
    /// Every `/api` route the server adds (the API's and `GET /api`'s), as `METHOD path`: a route
    /// added without its description in the document fails `theDocumentNamesEveryRouteTheServerServes`.
    static func servedRoutes() -> Set<String> {
        var logger = Logger(label: "openapi-test")
        logger.logLevel = .critical
        let hub = Hub(store: MemoryStore(), logger: logger)
        let router = Routes.make(
            configuration: ServerConfiguration(), staticFiles: nil, hub: hub, metrics: ServerMetrics(), traffic: TrafficCounters(),
            readiness: Readiness())
        return Set(router.served.filter { $0.pattern.hasPrefix("/api") }.map { "\($0.method.rawValue) \($0.pattern)" })
    }

    static func documentedRoutes(_ document: JSONObject) throws -> Set<String> {
        var routes: Set<String> = []
        for (path, item) in try #require(document["paths"]?.objectValue) {
            for method in (item.objectValue ?? [:]).keys where method != "parameters" { routes.insert("\(method.uppercased()) \(path)") }
        }
        return routes
    }

    @Test func theDocumentNamesEveryRouteTheServerServes() throws {
        let server = try TestServer()
        let document = try #require(try BoardAPI(port: server.port).get("/api/openapi.json").object)
        let served = Self.servedRoutes()
        let documented = try Self.documentedRoutes(document)
        #expect(served.subtracting(documented).isEmpty, "served, not in the document: \(served.subtracting(documented).sorted())")
        #expect(documented.subtracting(served).isEmpty, "in the document, not served: \(documented.subtracting(served).sorted())")
    }

    @Test func theDocumentNamesEveryPathWithTheMethodsTheServerAllows() throws {
        let server = try TestServer()
        let api = BoardAPI(port: server.port)
        let response = try api.get("/api/openapi.json")
        #expect(response.status == 200)
        #expect(response.http.header("Content-Type") == "application/json")
        let document = try #require(response.object)
        #expect(document["openapi"] == "3.1.0")
        // The document describes this server's API: its version is the server's (docs/versioning.md).
        #expect(document["info"]?.objectValue?["version"] == .string(CorkboardVersion.current))
        let paths = try #require(document["paths"]?.objectValue)
        #expect(paths.count >= 7)
        for (path, item) in paths {
            let documented = Set((item.objectValue ?? [:]).keys.filter { $0 != "parameters" }.map { $0.uppercased() })
            // The server's own list, from the path's OPTIONS.
            let served = try api.send("OPTIONS", path.replacingOccurrences(of: "{id}", with: "demo")).http.header("Allow") ?? ""
            #expect(documented == Set(served.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }), "\(path)")
        }
        // Every reference leads somewhere.
        var references: [String] = []
        Self.collectReferences(.object(document), into: &references)
        #expect(!references.isEmpty)
        for reference in references {
            let names = reference.split(separator: "/").dropFirst().map(String.init)
            let target = names.reduce(JSONValue.object(document) as JSONValue?) { $0?.objectValue?[$1] }
            #expect(target != nil, "\(reference) leads nowhere")
        }
    }

    /// The conventions (docs/protocol.md#conventions) in the document: every operation lists the
    /// 400 an unknown query parameter gets, every one taking a body the 413 of one too large,
    /// every 429 its Retry-After and RateLimit headers, and the lists their limit and cursor.
    @Test func everyOperationListsTheStatusesOfTheConventions() throws {
        let server = try TestServer()
        let document = try #require(try BoardAPI(port: server.port).get("/api/openapi.json").object)
        for (path, item) in try #require(document["paths"]?.objectValue) {
            for (method, operation) in item.objectValue ?? [:] where !["parameters", "options"].contains(method) {
                let fields = try #require(operation.objectValue)
                let responses = fields["responses"]?.objectValue ?? [:]
                #expect(responses["400"] != nil, "\(method.uppercased()) \(path) does not list 400")
                if fields["requestBody"] != nil { #expect(responses["413"] != nil, "\(method.uppercased()) \(path) does not list 413") }
                if let tooMany = responses["429"]?.objectValue {
                    let headers = Set((tooMany["headers"]?.objectValue ?? [:]).keys)
                    #expect(headers.isSuperset(of: ["Retry-After", "RateLimit-Policy", "RateLimit"]), "\(method.uppercased()) \(path): \(headers)")
                }
            }
        }
        for path in ["/api/boards", "/api/revocations"] {
            let listing = document["paths"]?.objectValue?[path]?.objectValue?["get"]?.objectValue?["parameters"]
            guard case .array(let parameters)? = listing else {
                Issue.record("\(path) has no parameters")
                continue
            }
            #expect(
                Set(parameters.compactMap { $0.objectValue?["$ref"]?.stringValue })
                    == ["#/components/parameters/Limit", "#/components/parameters/Cursor"], "\(path)")
        }
    }

    /// What client generators need (issue #35: `openapi-python-client` wrote invalid Python for a
    /// `const` without a `type`): every `const` is typed, and every operation that takes a token
    /// lists the 401 a missing or invalid one gets (all but `GET /api`, which any page may read,
    /// and `GET /api/admin/access`, which answers 200 whatever the token, saying what it is).
    @Test func everyConstIsTypedAndEveryOperationThatTakesATokenLists401() throws {
        let server = try TestServer()
        let document = try #require(try BoardAPI(port: server.port).get("/api/openapi.json").object)
        var untyped: [String] = []
        Self.collectUntypedConstants(.object(document), at: "#", into: &untyped)
        #expect(untyped.isEmpty, "a const without a type: \(untyped)")
        for (path, item) in try #require(document["paths"]?.objectValue) where !["/api", "/api/admin/access"].contains(path) {
            for (method, operation) in item.objectValue ?? [:] where !["parameters", "head", "options"].contains(method) {
                let responses = operation.objectValue?["responses"]?.objectValue ?? [:]
                #expect(responses["401"] != nil, "\(method.uppercased()) \(path) does not list 401")
            }
        }
    }

    static func collectUntypedConstants(_ value: JSONValue, at path: String, into found: inout [String]) {
        switch value {
        case .object(let object):
            if object["const"] != nil, object["type"] == nil { found.append(path) }
            for (key, member) in object { collectUntypedConstants(member, at: path + "/" + key, into: &found) }
        case .array(let values):
            for (index, member) in values.enumerated() { collectUntypedConstants(member, at: path + "/\(index)", into: &found) }
        default:
            break
        }
    }

    /// A board id with `%`, `/` and a space is one path segment once percent-encoded, as the
    /// document's `{id}` says (schemathesis cannot check this one: see OpenAPISchemathesisTests).
    @Test func anIdWithReservedCharactersIsAddressedPercentEncoded() throws {
        let fixture = try HubFixture(board: Board(id: "a%2F/b c", title: "Odd", collections: []))
        #expect(try fixture.api.get("/api/boards/a%252F%2Fb%20c").decode(BoardDocument.self).board.id == "a%2F/b c")
        #expect(try fixture.api.delete("/api/boards/a%252F%2Fb%20c").status == 204)
    }

    static func collectReferences(_ value: JSONValue, into references: inout [String]) {
        switch value {
        case .object(let object):
            if case .string(let reference)? = object["$ref"] { references.append(reference) }
            for child in object.values { collectReferences(child, into: &references) }
        case .array(let array):
            for child in array { collectReferences(child, into: &references) }
        default:
            break
        }
    }
}
