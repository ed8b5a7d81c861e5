import Testing

@testable import HTTP

/// Chunked request bodies (RFC 9112 §7.1), each parsed whole, split at every byte and byte by
/// byte (`parseEverySplit`): the same request or the same error every time.
@Suite struct ChunkedBodyDecoderTests {
    private static func post(_ chunked: String, extraHeaders: String = "") -> String {
        "POST /api HTTP/1.1\r\nHost: h\r\n\(extraHeaders)Transfer-Encoding: chunked\r\n\r\n" + chunked
    }

    private static let headers = ["Host: h", "Transfer-Encoding: chunked"]

    @Test func chunksAreJoinedIntoTheBody() {
        let result = parseEverySplit(Self.post("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"))
        #expect(result == [.request(method: "POST", target: "/api", headers: Self.headers, body: "hello world")])
    }

    @Test func sizesAreHexInEitherCaseAndExtensionsAndTrailersAreIgnored() {
        let body = String(repeating: "x", count: 26)
        let text = Self.post("1A;name=value;flag\r\n\(body)\r\n0 ;last\r\nTrailer-One: 1\r\nTrailer-Two: 2\r\n\r\n")
        #expect(parseEverySplit(text) == [.request(method: "POST", target: "/api", headers: Self.headers, body: body)])
        #expect(parseEverySplit(Self.post("1a\r\n\(body)\r\n0\r\n\r\n")).first == .request(method: "POST", target: "/api", headers: Self.headers, body: body))
    }

    @Test func anEmptyBodyIsTheLastChunkAlone() {
        #expect(parseEverySplit(Self.post("0\r\n\r\n")) == [.request(method: "POST", target: "/api", headers: Self.headers, body: "")])
    }

    @Test func aPipelinedRequestFollowsTheChunkedOne() {
        let text = Self.post("3\r\nabc\r\n0\r\n\r\n") + "GET /next HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(
            parseEverySplit(text) == [
                .request(method: "POST", target: "/api", headers: Self.headers, body: "abc"),
                .request(method: "GET", target: "/next", headers: ["Host: h"], body: ""),
            ])
    }

    @Test func expectContinueIsAnsweredBeforeTheFirstChunk() {
        let head = Array(Self.post("", extraHeaders: "Expect: 100-continue\r\n").utf8)
        let results = parse([head, Array("2\r\nok\r\n0\r\n\r\n".utf8)])
        #expect(results.first == .continueExpected)
        #expect(
            results.last == .request(method: "POST", target: "/api", headers: ["Host: h", "Expect: 100-continue", "Transfer-Encoding: chunked"], body: "ok"))
    }

    @Test(arguments: [
        ("zz\r\nab\r\n0\r\n\r\n", HTTPParseError.malformedChunkedBody), // not hex
        ("\r\nab\r\n0\r\n\r\n", .malformedChunkedBody), // no size
        ("2 x\r\nab\r\n0\r\n\r\n", .malformedChunkedBody), // garbage after the size
        ("2\r\nabc\r\n0\r\n\r\n", .malformedChunkedBody), // data longer than its size
        ("2\r\nab0\r\n\r\n", .malformedChunkedBody), // no CRLF after the data
        ("2\nab\r\n0\r\n\r\n", .malformedChunkedBody), // a bare LF in the framing
        ("2\r\nab\r\n0\r\nTrailer: x\n\r\n", .malformedChunkedBody), // a bare LF in a trailer
        ("-1\r\n", .malformedChunkedBody),
        ("1000000000000000\r\n", .bodyTooLarge), // 16 hex digits
        ("100001\r\n", .bodyTooLarge), // past the 1 MiB body limit at once
    ])
    func brokenFramingFails(chunked: String, expected: HTTPParseError) {
        #expect(parseEverySplit(Self.post(chunked)).last == .failed(expected))
    }

    @Test func theBodyLimitCountsEveryChunk() {
        let limits = HTTPRequestParser.Limits(maxBodyBytes: 10)
        #expect(
            parseEverySplit(Self.post("6\r\nabcdef\r\n4\r\nghij\r\n0\r\n\r\n"), limits: limits).last
                == .request(method: "POST", target: "/api", headers: Self.headers, body: "abcdefghij"))
        #expect(parseEverySplit(Self.post("6\r\nabcdef\r\n5\r\nghijk\r\n0\r\n\r\n"), limits: limits).last == .failed(.bodyTooLarge))
    }

    @Test func longFramingLinesAreRefused() {
        let extensions = String(repeating: ";e", count: ChunkedBodyDecoder.maxLineBytes)
        #expect(parse([Array(Self.post("1\(extensions)\r\na\r\n0\r\n\r\n").utf8)]).last == .failed(.malformedChunkedBody))
        let trailer = "T: " + String(repeating: "t", count: 20_000)
        #expect(parse([Array(Self.post("0\r\n\(trailer)\r\n\r\n").utf8)]).last == .failed(.malformedChunkedBody))
        let manyTrailers = String(repeating: "T: tttttttttttttttttttt\r\n", count: 1_000)
        #expect(parse([Array(Self.post("0\r\n\(manyTrailers)\r\n").utf8)]).last == .failed(.headerBlockTooLarge))
    }

    @Test func http10WithChunkedIsRefused() {
        #expect(parseEverySplit("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").last == .failed(.conflictingFraming))
    }
}
