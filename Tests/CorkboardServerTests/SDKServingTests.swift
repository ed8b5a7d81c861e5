import Foundation
import TestSupport
import Testing

/// The browser SDK at `/sdk/` (web/sdk/), over real sockets: a JavaScript module with
/// `no-cache` and an ETag (its path is not versioned), readable by the pages of
/// `--allowed-origins` as /api is, and by no other origin.
@Suite(.threadsOfTheirOwn) struct SDKServingTests {
    static let allowed = "https://app.example"
    let server: TestServer
    init() throws {
        server = try TestServer { configuration in
            configuration.webRoot = PythonTools.packageRoot + "/web"
            configuration.webSocket.allowedOrigins = [Self.allowed]
        }
    }

    @Test func theEntryIsAModuleRevalidatedByItsETag() throws {
        let response = try server.get("/sdk/corkboard.js")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("text/javascript") == true)
        #expect(response.header("Cache-Control") == "no-cache")
        #expect(response.text.contains("export function connect("))
        let tag = try #require(response.header("ETag"))
        #expect(try server.get("/sdk/corkboard.js", headers: "If-None-Match: \(tag)\r\n").status == 304)
    }

    @Test func everyModuleItImportsIsServed() throws {
        let folder = PythonTools.packageRoot + "/web/sdk"
        let modules = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".js") }
        #expect(modules.count >= 7)
        for module in modules {
            #expect(try server.get("/sdk/\(module)").status == 200, "/sdk/\(module)")
        }
    }

    @Test func anAllowedOriginMayReadIt() throws {
        let response = try server.get("/sdk/live.js", headers: "Origin: \(Self.allowed)\r\n")
        #expect(response.status == 200)
        #expect(response.header("Access-Control-Allow-Origin") == Self.allowed)
        #expect(response.header("Vary")?.contains("Origin") == true)
    }

    @Test func varyKeepsAcceptEncodingBesideOrigin() throws {
        let response = try server.get("/sdk/live.js", headers: "Origin: \(Self.allowed)\r\nAccept-Encoding: gzip\r\n")
        #expect(response.header("Content-Encoding") == "gzip")
        let vary = Set((response.header("Vary") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(vary == ["Accept-Encoding", "Origin"])
    }

    @Test func anotherOriginGetsNoPermission() throws {
        let response = try server.get("/sdk/live.js", headers: "Origin: https://elsewhere.example\r\n")
        #expect(response.status == 200)
        #expect(response.header("Access-Control-Allow-Origin") == nil)
    }

    @Test func noPathLeavesTheFolder() throws {
        #expect(try server.get("/sdk/..%2fboard.html").status == 404)
        #expect(try server.get("/sdk/no-such.js").status == 404)
    }
}
