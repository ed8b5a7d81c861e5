import Testing

@testable import HTTP

@Suite struct HTTPHeadersTests {
    @Test func namesCompareCaseInsensitively() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        #expect(headers["content-type"] == "text/plain")
        headers.set("CONTENT-TYPE", "text/html")
        #expect(headers.values("Content-Type") == ["text/html"])
    }

    @Test func tokensSpanFieldsAndCommas() {
        var headers = HTTPHeaders()
        headers.add("Connection", "keep-alive, Upgrade")
        headers.add("connection", " close ")
        #expect(headers.tokens("Connection") == ["keep-alive", "upgrade", "close"])
    }

    @Test func keepAliveDefaultsByVersion() {
        #expect(HTTPRequest(method: .GET, target: "/").keepAlive)
        #expect(!HTTPRequest(method: .GET, target: "/", headers: ["Connection": "close"]).keepAlive)
        #expect(!HTTPRequest(method: .GET, target: "/", version: .http1_0).keepAlive)
        #expect(HTTPRequest(method: .GET, target: "/", version: .http1_0, headers: ["Connection": "Keep-Alive"]).keepAlive)
    }

    @Test func pathAndQuery() {
        let request = HTTPRequest(method: .GET, target: "/api/boards/x/ops?since=4&name=a+b%21")
        #expect(request.path == "/api/boards/x/ops")
        #expect(request.queryItems == ["since": "4", "name": "a b!"])
    }
}
