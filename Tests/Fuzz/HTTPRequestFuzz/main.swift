// libFuzzer target: the HTTP/1.1 request parser (HTTPRequestParser, HTTPHeadParser).
//
// Input: one choice byte, then the bytes a client sends. Bit 7 of the choice selects small
// limits (so the too-large paths are reachable in short inputs); the rest seeds how the bytes
// are cut into reads.
//
// Invariants beyond "does not crash":
// - the same bytes fed whole and fed in pieces give the same requests and the same verdict
//   (error or not), so no state depends on where a read ended;
// - every request re-serialised and parsed again is the same request;
// - parsed fields carry no CR, LF or other control bytes, and a body has its Content-Length.
import HTTP

/// What the differential and round-trip checks compare (HTTPRequest is not Equatable).
struct ParsedRequest: Equatable {
    var method: String
    var target: String
    var version: String
    var headers: [String]
    var body: [UInt8]

    init(_ request: HTTPRequest) {
        method = request.method.rawValue
        target = request.target
        version = request.version.description
        headers = request.headers.map { "\($0.name): \($0.value)" }
        body = request.body
    }
}

struct ParseResult: Equatable {
    var requests: [ParsedRequest] = []
    var failed = false
}

func parse(_ reads: [ArraySlice<UInt8>], limits: HTTPRequestParser.Limits) -> (ParseResult, [HTTPRequest]) {
    var parser = HTTPRequestParser(limits: limits)
    var result = ParseResult()
    var requests: [HTTPRequest] = []
    outer: for read in reads {
        parser.append(read)
        var events = 0
        while true {
            // A read yields at most one event per byte (plus one): a bound against a parser loop.
            events += 1
            check(events <= read.count + 2, "the parser kept producing events without consuming bytes")
            do {
                guard let event = try parser.next() else { break }
                if case .request(let request) = event {
                    requests.append(request)
                    result.requests.append(ParsedRequest(request))
                }
            } catch {
                check(parser.bufferedByteCount >= 0, "negative buffer")
                result.failed = true
                break outer
            }
        }
    }
    return (result, requests)
}

/// The request as a client would send it again.
func serialize(_ request: HTTPRequest) -> [UInt8] {
    var text = "\(request.method.rawValue) \(request.target) \(request.version)\r\n"
    for field in request.headers { text += "\(field.name): \(field.value)\r\n" }
    text += "\r\n"
    return Array(text.utf8) + request.body
}

func checkFields(_ request: HTTPRequest) {
    check(request.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "target has a space or control byte")
    for field in request.headers {
        check(!field.name.isEmpty && !field.name.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: ":") }, "bad header name \(field.name.debugDescription)")
        check(!field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "header value with CR/LF/NUL")
        check(field.value.first != " " && field.value.last != " ", "header value not trimmed")
    }
    if request.headers.contains("Content-Length") {
        let length = request.headers.tokens("Content-Length").first ?? ""
        check(Int(length) == request.body.count, "body of \(request.body.count) bytes for Content-Length \(length)")
    } else {
        check(request.body.isEmpty, "body without Content-Length")
    }
    // Derived views must not trap either.
    _ = request.path
    _ = request.query
    _ = request.queryItems
    _ = request.keepAlive
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = input.takeChoice()
    let limits =
        choice & 0x80 != 0
        ? HTTPRequestParser.Limits(maxHeaderBytes: 512, maxURILength: 128, maxBodyBytes: 256, maxHeaderCount: 8)
        : HTTPRequestParser.Limits()

    let (whole, requests) = parse([input.bytes[...]], limits: limits)
    let (cut, _) = parse(pieces(of: input.bytes, seed: choice, maximum: 1 + Int(choice & 0x3F)), limits: limits)
    check(whole == cut, "whole \(whole) but in pieces \(cut)")

    for request in requests {
        checkFields(request)
        let (again, _) = parse([serialize(request)[...]], limits: HTTPRequestParser.Limits())
        check(
            !again.failed && again.requests == [ParsedRequest(request)],
            "re-serialised \(ParsedRequest(request)) parsed as \(again)")
    }
    return 0
}
