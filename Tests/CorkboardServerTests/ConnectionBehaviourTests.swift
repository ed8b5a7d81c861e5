import Foundation
import TestSupport
import Testing

/// Keep-alive, pipelining, limits and timeouts over real sockets.
@Suite(.threadsOfTheirOwn) struct ConnectionBehaviourTests {
    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        let server = try TestServer()
        let client = try BlockingClient(port: server.port)
        for _ in 0..<20 {
            try client.send("GET /app.js HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try client.receiveResponse().status == 200)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try TestServer()
        let client = try BlockingClient(port: server.port)
        let targets = ["/app.js", "/healthz", "/missing", "/", "/app.js"]
        try client.send(targets.map { "GET \($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined())
        let statuses = try targets.map { _ in try client.receiveResponse().status }
        #expect(statuses == [200, 200, 404, 200, 200])
    }

    @Test func connectionCloseIsHonoured() throws {
        let server = try TestServer()
        let client = try BlockingClient(port: server.port)
        try client.send("GET /app.js HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let response = try client.receiveResponse()
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test func http10ClosesByDefault() throws {
        let server = try TestServer()
        let client = try BlockingClient(port: server.port)
        try client.send("GET /app.js HTTP/1.0\r\n\r\n")
        #expect(try client.receiveResponse().status == 200)
        #expect(client.isClosedByPeer())
    }

    @Test func requestsSentBeforeAHalfCloseAreAllAnswered() throws {
        let server = try TestServer()
        let client = try BlockingClient(port: server.port)
        try client.send("GET /app.js HTTP/1.1\r\nHost: t\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        client.finishSending()
        #expect(try client.receiveResponse().status == 200)
        #expect(try client.receiveResponse().status == 200)
        #expect(client.isClosedByPeer())
    }

    @Test func oversizedHeaderBlockIs431() throws {
        let server = try TestServer()
        let client = try BlockingClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "a", count: 17 * 1024))\r\n\r\n")
        #expect(try client.receiveResponse().status == 431)
        #expect(client.isClosedByPeer())
    }

    @Test func longURIIs414() throws {
        let server = try TestServer()
        #expect(try server.get("/" + String(repeating: "x", count: 9000)).status == 414)
    }

    @Test func oversizedBodyIs413() throws {
        let server = try TestServer { $0.http.parserLimits.maxBodyBytes = 1000 }
        let client = try BlockingClient(port: server.port)
        try client.send("POST /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n")
        #expect(try client.receiveResponse().status == 413)
        #expect(client.isClosedByPeer())
    }

    @Test func malformedRequestIs400AndCloses() throws {
        let server = try TestServer()
        let client = try BlockingClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: t\r\nBroken header\r\n\r\n")
        let response = try client.receiveResponse()
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/json")
        #expect(client.isClosedByPeer())
    }

    @Test func unsupportedMethodsAre405Or501() throws {
        let server = try TestServer()
        let post = try server.request("POST /app.js HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        #expect(try server.request("DELETE /healthz HTTP/1.1\r\nHost: t\r\n\r\n").status == 405)
        #expect(try server.request("BREW /pot HTTP/1.1\r\nHost: t\r\n\r\n").status == 501)
    }

    @Test func expectContinueGetsAnInterimResponse() throws {
        let server = try TestServer()
        let client = try BlockingClient(port: server.port)
        try client.send("POST /app.js HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
        #expect(try client.receiveResponse().status == 100)
        try client.send("ok")
        #expect(try client.receiveResponse().status == 405)
    }

    @Test func slowlorisIsClosedAfterTheHeaderTimeout() throws {
        let server = try TestServer { $0.http.headerTimeout = .milliseconds(400) }
        let client = try BlockingClient(port: server.port)
        // A header line every 100 ms keeps the connection busy but never finishes the head.
        // The deadline is the whole head's, not each read's: the answer comes long before the
        // trickle (10 s) would end, whatever the machine's load.
        try client.send("GET / HTTP/1.1\r\n")
        var sent = 1
        while sent < 100 && !client.waitUntilReadable(timeout: 0.1) {
            do { try client.send("X-\(sent): \(sent)\r\n") } catch { break }
            sent += 1
        }
        #expect(sent < 100, "the server was still waiting for the head after \(sent) lines")
        let response = try client.receiveResponse()
        #expect(response.status == 408)
        #expect(client.isClosedByPeer())
    }

    @Test func silentConnectionIsClosedAfterTheHeaderTimeout() throws {
        let server = try TestServer { $0.http.headerTimeout = .milliseconds(300) }
        let client = try BlockingClient(port: server.port)
        #expect(client.isClosedByPeer())
    }

    @Test func idleKeepAliveConnectionIsClosed() throws {
        let server = try TestServer { $0.http.idleTimeout = .milliseconds(300) }
        let client = try BlockingClient(port: server.port)
        try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.receiveResponse().status == 200)
        #expect(client.isClosedByPeer())
    }

    @Test func aClientThatNeverReadsDoesNotBlockOthers() throws {
        let server = try TestServer()
        let stalled = try BlockingClient(port: server.port)
        stalled.setReceiveBuffer(4096)
        // Ask for 16 MiB forty times over and never read a byte of it.
        let flood = String(repeating: "GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n", count: 40)
        DispatchQueue.global().async { try? stalled.send(flood) }
        usleep(200_000)
        // Were the server stuck behind the stalled client, these would time out (5 s each).
        for _ in 0..<10 {
            #expect(try server.get("/healthz").status == 200)
        }
        withExtendedLifetime(stalled) {}
    }
}
