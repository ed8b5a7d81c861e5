import Foundation
import TestSupport
import Testing

/// The browser SDK at `/sdk/` and `/sdk/v1/` (web/sdk/), over real sockets: a JavaScript module
/// with `no-cache` and an ETag (the server's current SDK, whichever path), readable by a page of
/// any origin (one that `--allowed-origins` does not list must load it to be told so).
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

    @Test(arguments: [Self.allowed, "https://elsewhere.example"])
    func anyOriginMayReadIt(_ origin: String) throws {
        let response = try server.get("/sdk/live.js", headers: "Origin: \(origin)\r\nAccept-Encoding: gzip\r\n")
        #expect(response.status == 200)
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        #expect(response.header("Content-Encoding") == "gzip")
        // The same answer for every origin: nothing to vary on but the encoding.
        #expect(response.header("Vary") == "Accept-Encoding")
    }

    @Test func noPathLeavesTheFolder() throws {
        #expect(try server.get("/sdk/..%2fboard.html").status == 404)
        #expect(try server.get("/sdk/no-such.js").status == 404)
        #expect(try server.get("/sdk/v1/..%2fboard.html").status == 404)
        #expect(try server.get("/sdk/v1/..%2f..%2fboard.html").status == 404)
        #expect(try server.get("/sdk/v1/.hidden").status == 404)
        #expect(try server.get("/sdk/v1/no-such.js").status == 404)
    }

    /// `/sdk/v1/` (the SDK of the `corkboard.v1` protocol) is the same folder: the same bytes,
    /// the same headers, the same ETag, for every module; a version the server has not is 404.
    @Test func theVersionedPathServesTheSameFiles() throws {
        let folder = PythonTools.packageRoot + "/web/sdk"
        let modules = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".js") }
        #expect(modules.contains("corkboard.js"))
        for module in modules {
            let plain = try server.get("/sdk/\(module)")
            let versioned = try server.get("/sdk/v1/\(module)")
            #expect(versioned.status == 200, "/sdk/v1/\(module)")
            #expect(versioned.text == plain.text, "/sdk/v1/\(module) differs from /sdk/\(module)")
            for name in ["Content-Type", "Cache-Control", "ETag", "X-Content-Type-Options"] {
                #expect(versioned.header(name) == plain.header(name), "/sdk/v1/\(module): \(name)")
            }
        }
        let tag = try #require(try server.get("/sdk/v1/corkboard.js").header("ETag"))
        #expect(try server.get("/sdk/v1/corkboard.js?x=1", headers: "If-None-Match: \(tag)\r\n").status == 304)
        #expect(try server.get("/sdk/v2/corkboard.js").status == 404)
    }

    @Test func theVersionedPathAnswersOriginsAsTheOtherDoes() throws {
        let other = try server.get("/sdk/v1/live.js", headers: "Origin: https://elsewhere.example\r\n")
        #expect(other.status == 200)
        #expect(other.header("Access-Control-Allow-Origin") == "*")
    }
}
