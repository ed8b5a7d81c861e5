import FlyingFox

/// FlyingFox's WebSocket upgrade has no subprotocol option: this wraps it and selects
/// `protocolName` in the 101 response when the client offers it (RFC 6455 §4.2.2).
struct SubprotocolSelecting: HTTPHandler {
    let protocolName: String
    let upgrade: WebSocketHTTPHandler

    init(_ protocolName: String, upgrade: WebSocketHTTPHandler) {
        self.protocolName = protocolName
        self.upgrade = upgrade
    }

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var response = try await upgrade.handleRequest(request)
        let header = HTTPHeader("Sec-WebSocket-Protocol")
        let offered = request.headers.values(for: header)
            .flatMap { $0.split(separator: ",") }
            .contains { $0.trimmingCharacters(in: .whitespaces) == protocolName }
        if response.statusCode == .switchingProtocols && offered {
            response.headers[header] = protocolName
        }
        return response
    }
}
