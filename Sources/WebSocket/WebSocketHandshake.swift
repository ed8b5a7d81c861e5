import COpenSSL
import Foundation
import HTTP

/// The server side of the opening handshake (RFC 6455 §4.2).
public enum WebSocketHandshake {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// What a valid upgrade request agreed on.
    public struct Accepted: Sendable {
        public let response: HTTPResponse
        public let subprotocol: String?
        /// Builds the connection's compression when an extension was negotiated.
        public let makeCompression: (@Sendable () -> WebSocketMessageCompression)?
    }

    /// Checks an upgrade request; on success, the `101 Switching Protocols` response,
    /// otherwise the error response to send instead (and the connection stays HTTP).
    public static func accept(_ request: HTTPRequest, options: WebSocketOptions) -> Result<Accepted, HTTPFailure> {
        guard request.headers.tokens("Upgrade").contains("websocket") else {
            var response = HTTPResponse.error(.upgradeRequired, "this endpoint speaks WebSocket only")
            response.headers.add("Upgrade", "websocket")
            response.headers.add("Sec-WebSocket-Version", "13")
            return .failure(HTTPFailure(response))
        }
        guard request.method == .GET, request.version == .http1_1 else {
            return .failure(HTTPFailure(.error(.badRequest, "a WebSocket handshake is a GET over HTTP/1.1")))
        }
        guard request.headers.tokens("Connection").contains("upgrade") else {
            return .failure(HTTPFailure(.error(.badRequest, "Connection must include Upgrade")))
        }
        guard request.headers.values("Sec-WebSocket-Version") == ["13"] else {
            var response = HTTPResponse.error(.upgradeRequired, "only WebSocket version 13 is supported")
            response.headers.add("Sec-WebSocket-Version", "13")
            return .failure(HTTPFailure(response))
        }
        guard let key = request.headers["Sec-WebSocket-Key"], request.headers.values("Sec-WebSocket-Key").count == 1,
            let decoded = Data(base64Encoded: key), decoded.count == 16
        else {
            return .failure(HTTPFailure(.error(.badRequest, "Sec-WebSocket-Key must be 16 bytes in base64")))
        }
        if let allowed = options.allowedOrigins, let origin = request.headers["Origin"], !allowed.contains(origin) {
            return .failure(HTTPFailure(.error(.forbidden, "origin \(origin) is not allowed")))
        }
        var headers: HTTPHeaders = [
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Accept": acceptValue(for: key),
        ]
        // Offered in the client's order of preference; we take the first we speak.
        let offered = request.headers.list("Sec-WebSocket-Protocol")
        let subprotocol = offered.first { options.subprotocols.contains($0) }
        if let subprotocol { headers.add("Sec-WebSocket-Protocol", subprotocol) }
        var makeCompression: (@Sendable () -> WebSocketMessageCompression)?
        if let negotiator = options.extensions,
            let accepted = negotiator.accept(offers: WebSocketExtensionOffer.parse(request.headers.values("Sec-WebSocket-Extensions")))
        {
            headers.add("Sec-WebSocket-Extensions", accepted.responseHeader)
            makeCompression = accepted.makeCompression
        }
        return .success(
            Accepted(
                response: HTTPResponse(status: .switchingProtocols, headers: headers), subprotocol: subprotocol,
                makeCompression: makeCompression))
    }

    /// base64(SHA-1(key + GUID)): proves the server read this handshake (RFC 6455 §4.2.2).
    public static func acceptValue(for key: String) -> String {
        let input = Array((key + guid).utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = input.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha1(), nil)
        }
        return Data(digest[0..<Int(length)]).base64EncodedString()
    }
}

/// An HTTP response that refuses a handshake.
public struct HTTPFailure: Error, Sendable {
    public let response: HTTPResponse
    public init(_ response: HTTPResponse) { self.response = response }
}
