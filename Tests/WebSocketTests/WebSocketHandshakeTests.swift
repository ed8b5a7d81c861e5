import Testing

@testable import HTTP
@testable import WebSocket

@Suite struct WebSocketHandshakeTests {
    private func request(_ headers: HTTPHeaders, method: HTTPMethod = .GET) -> HTTPRequest {
        HTTPRequest(method: method, target: "/ws", headers: headers)
    }

    private var valid: HTTPHeaders {
        [
            "Host": "h", "Upgrade": "websocket", "Connection": "keep-alive, Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
        ]
    }

    private func status(_ headers: HTTPHeaders, options: WebSocketOptions = .init(), method: HTTPMethod = .GET) -> Int {
        switch WebSocketHandshake.accept(request(headers, method: method), options: options) {
        case .success(let accepted): return accepted.response.status.code
        case .failure(let failure): return failure.response.status.code
        }
    }

    @Test func acceptValueFromRFC6455() {
        #expect(WebSocketHandshake.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func validRequestIsSwitched() throws {
        let accepted = try WebSocketHandshake.accept(request(valid), options: .init()).get()
        #expect(accepted.response.status.code == 101)
        #expect(accepted.response.headers["Upgrade"] == "websocket")
        #expect(accepted.response.headers["Connection"] == "Upgrade")
        #expect(accepted.response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(accepted.response.headers["Sec-WebSocket-Protocol"] == nil)
    }

    @Test func plainGetIs426WithUpgradeAdvice() {
        guard case .failure(let failure) = WebSocketHandshake.accept(request(["Host": "h"]), options: .init()) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.response.status.code == 426)
        #expect(failure.response.headers["Upgrade"] == "websocket")
    }

    @Test func otherVersionsAre426WithTheSupportedOne() {
        var headers = valid
        headers.set("Sec-WebSocket-Version", "8")
        guard case .failure(let failure) = WebSocketHandshake.accept(request(headers), options: .init()) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.response.status.code == 426)
        #expect(failure.response.headers["Sec-WebSocket-Version"] == "13")
    }

    @Test func badRequestsAre400() {
        var noConnection = valid
        noConnection.set("Connection", "keep-alive")
        #expect(status(noConnection) == 400)
        var noKey = valid
        noKey.remove("Sec-WebSocket-Key")
        #expect(status(noKey) == 400)
        var shortKey = valid
        shortKey.set("Sec-WebSocket-Key", "c2hvcnQ=")
        #expect(status(shortKey) == 400)
        var notBase64 = valid
        notBase64.set("Sec-WebSocket-Key", "!!!!!!!!!!!!!!!!!!!!!!!=")
        #expect(status(notBase64) == 400)
        #expect(status(valid, method: .POST) == 400)
    }

    @Test func subprotocolIsTheFirstOfferedThatWeSpeak() throws {
        var options = WebSocketOptions()
        options.subprotocols = ["corkboard.v1"]
        var headers = valid
        headers.add("Sec-WebSocket-Protocol", "chat, corkboard.v1")
        let accepted = try WebSocketHandshake.accept(request(headers), options: options).get()
        #expect(accepted.subprotocol == "corkboard.v1")
        #expect(accepted.response.headers["Sec-WebSocket-Protocol"] == "corkboard.v1")
        var other = valid
        other.add("Sec-WebSocket-Protocol", "chat")
        // None of ours offered: accepted all the same, with no subprotocol.
        let none = try WebSocketHandshake.accept(request(other), options: options).get()
        #expect(none.subprotocol == nil)
        #expect(none.response.headers["Sec-WebSocket-Protocol"] == nil)
    }

    @Test func originAllowList() {
        var options = WebSocketOptions()
        options.allowedOrigins = ["https://board.example"]
        var allowed = valid
        allowed.add("Origin", "https://board.example")
        #expect(status(allowed, options: options) == 101)
        var foreign = valid
        foreign.add("Origin", "https://evil.example")
        #expect(status(foreign, options: options) == 403)
        // Bots send no Origin and are not browsers: the allow-list does not concern them.
        #expect(status(valid, options: options) == 101)
    }
}
