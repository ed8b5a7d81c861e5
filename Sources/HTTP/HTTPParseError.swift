/// Why a request could not be parsed. `status` is the one place that maps each to a response.
public enum HTTPParseError: Error, Equatable, Sendable {
    case malformedRequestLine
    case malformedHeader
    case invalidContentLength
    /// Both `Content-Length` and `Transfer-Encoding`: a request-smuggling shape.
    case conflictingFraming
    case missingHost
    case headerBlockTooLarge
    case tooManyHeaders
    case uriTooLong
    case bodyTooLarge
    case unsupportedVersion
    /// A `Transfer-Encoding` other than `chunked` alone (gzip, or chunked applied twice).
    case unsupportedTransferEncoding
    /// A chunked body whose framing is broken: a size that is not hex, a missing CRLF.
    case malformedChunkedBody
    case unsupportedExpectation

    public var status: HTTPStatus {
        switch self {
        case .malformedRequestLine, .malformedHeader, .invalidContentLength, .conflictingFraming, .missingHost, .malformedChunkedBody:
            return .badRequest
        case .headerBlockTooLarge, .tooManyHeaders: return .headerFieldsTooLarge
        case .uriTooLong: return .uriTooLong
        case .bodyTooLarge: return .contentTooLarge
        case .unsupportedVersion: return .versionNotSupported
        case .unsupportedTransferEncoding: return .notImplemented
        case .unsupportedExpectation: return .expectationFailed
        }
    }

    /// A short explanation for the response body.
    public var message: String {
        switch self {
        case .malformedRequestLine: return "malformed request line"
        case .malformedHeader: return "malformed header field"
        case .invalidContentLength: return "invalid Content-Length"
        case .conflictingFraming: return "Content-Length and Transfer-Encoding together"
        case .missingHost: return "HTTP/1.1 needs exactly one Host header"
        case .headerBlockTooLarge: return "header block too large"
        case .tooManyHeaders: return "too many header fields"
        case .uriTooLong: return "request target too long"
        case .bodyTooLarge: return "request body too large"
        case .unsupportedVersion: return "only HTTP/1.0 and HTTP/1.1 are served"
        case .unsupportedTransferEncoding: return "only Transfer-Encoding: chunked is supported"
        case .malformedChunkedBody: return "malformed chunked body"
        case .unsupportedExpectation: return "only Expect: 100-continue is supported"
        }
    }
}
