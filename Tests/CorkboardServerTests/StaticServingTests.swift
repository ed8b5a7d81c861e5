import TestSupport
import Testing

/// The static part of the server, over real sockets.
@Suite(.threadsOfTheirOwn) struct StaticServingTests {
    let server: TestServer
    init() throws { server = try TestServer() }

    @Test func rootServesTheIndexPage() throws {
        let response = try server.get("/")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(response.text == TestServer.page)
    }

    @Test func conditionalGetGives304() throws {
        let first = try server.get("/app.js")
        let tag = try #require(first.header("ETag"))
        let second = try server.get("/app.js", headers: "If-None-Match: \(tag)\r\n")
        #expect(second.status == 304)
        #expect(second.body.isEmpty)
        #expect(second.header("ETag") == tag)
    }

    @Test func headHasHeadersAndNoBody() throws {
        let client = try BlockingClient(port: server.port)
        try client.send("HEAD / HTTP/1.1\r\nHost: t\r\n\r\nGET /app.js HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try client.receiveResponse(bodyless: true)
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == String(TestServer.page.utf8.count))
        // The next response starts right where the headers ended: no body was sent for HEAD.
        #expect(try client.receiveResponse().text == "console.log('corkboard');")
    }

    @Test func gzipIsNegotiated() throws {
        let response = try server.get("/", headers: "Accept-Encoding: gzip, deflate\r\n")
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(response.body.starts(with: [0x1f, 0x8b]))
    }

    @Test func missingFilesAre404() throws {
        #expect(try server.get("/nope.html").status == 404)
    }

    @Test(arguments: [
        "/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd",
        "/%2E%2E%2F%2E%2E%2Fetc/passwd", "//etc/passwd", "/etc/passwd", "/..\\..\\etc\\passwd",
    ])
    func traversalAttemptsAre404(target: String) throws {
        let response = try server.get(target)
        #expect(response.status == 404)
        #expect(!response.text.contains("root:"))
    }

    @Test func healthz() throws {
        let response = try server.get("/healthz")
        #expect(response.status == 200)
        #expect(response.text == #"{"status":"ok"}"#)
    }
}
