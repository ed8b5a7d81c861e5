import Testing

@testable import HTTP

@Suite struct HTTPResponseTests {
    private func wire(_ response: HTTPResponse, head: Bool = false, keepAlive: Bool = true) -> String {
        String(decoding: response.serialized(headRequest: head, keepAlive: keepAlive).array, as: UTF8.self)
    }

    @Test func statusLineHeadersAndBody() {
        let text = wire(.text(.ok, "hi"))
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("Content-Type: text/plain; charset=utf-8\r\n"))
        #expect(text.contains("Content-Length: 2\r\n"))
        #expect(text.contains("\r\nDate: "))
        #expect(text.hasSuffix("\r\n\r\nhi"))
        #expect(!text.contains("Connection:"))
    }

    @Test func headKeepsTheLengthButNotTheBody() {
        let text = wire(.text(.ok, "hello"), head: true)
        #expect(text.contains("Content-Length: 5\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
    }

    @Test func notModifiedHasNoBodyOrLength() {
        let text = wire(HTTPResponse(status: .notModified, headers: ["ETag": "\"x\""], body: [1, 2, 3]))
        #expect(!text.contains("Content-Length"))
        #expect(text.hasSuffix("\r\n\r\n"))
    }

    @Test func closingResponsesSaySo() {
        #expect(wire(.text(.badRequest, "no"), keepAlive: false).contains("Connection: close\r\n"))
    }

    @Test func errorBodiesAreJSON() {
        let response = HTTPResponse.error(.notFound, "no \"such\" board")
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":"not found","message":"no \"such\" board"}"#)
    }

    @Test func dateIsIMFFixdate() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func jsonQuoting() {
        #expect(JSONString.quote("a\u{1}\n\\") == #""a\u0001\n\\""#)
    }
}
