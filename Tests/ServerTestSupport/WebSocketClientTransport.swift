import CorkboardModel
import CorkboardWire
@_exported import HubTestSupport
import TestSupport
import WebSocket

/// A `BoardTestClient` over a real WebSocket on `/ws`: pings are answered, a close frame is
/// answered and told with its code.
public final class WebSocketClientTransport: TestClientTransport {
    public let ws: WebSocketTestClient

    public init(ws: WebSocketTestClient) { self.ws = ws }

    /// Opens a WebSocket on `path` of the server on `port`, offering `subprotocol` (nil: none);
    /// throws unless the handshake is answered 101.
    public convenience init(port: UInt16, path: String = "/ws", subprotocol: String? = "corkboard.v1") throws {
        let ws = try WebSocketTestClient(port: port, path: path, extraHeaders: subprotocol.map { "Sec-WebSocket-Protocol: \($0)\r\n" } ?? "")
        guard ws.handshakeResponse.status == 101 else {
            throw HubTestFailure("handshake answered \(ws.handshakeResponse.status): \(ws.handshakeResponse.text)")
        }
        self.init(ws: ws)
    }

    public func send(text: String) throws { try ws.send(text: text) }

    public func receive() throws -> TestClientEvent {
        for _ in 0..<BoardTestClient.readBound {
            guard let frame = try ws.receiveFrame() else { return .closed(nil) }
            switch frame.opcode {
            case .ping: try ws.send(.pong, frame.payload)
            case .pong: continue
            case .close:
                let code = (try? WebSocketClosePayload(parsing: frame.payload))?.code
                try? ws.send(.close, frame.payload)
                return .closed(code)
            case .text: return .text(String(decoding: frame.payload, as: UTF8.self))
            default: throw HubTestFailure("unexpected \(frame.opcode) frame from the server")
            }
        }
        throw HubTestFailure("no text message within \(BoardTestClient.readBound) frames")
    }

    /// Close frame out, the server's close frame back, then EOF.
    public func close() throws {
        try ws.sendClose(.normal)
        for _ in 0..<BoardTestClient.readBound {
            if case .closed = try receive() { break }
        }
        _ = ws.socket.isClosedByPeer()
    }

    /// A TCP reset.
    public func drop() { ws.socket.reset() }
}

extension BoardTestClient {
    /// Connects to `/ws` of the server on `port` and joins `board`; `namingBoard` puts the board
    /// in the URL too (`/ws?board=ID`), as the real clients do for a balancer's board affinity.
    public convenience init(
        port: UInt16, board: String, name: String, token: String? = nil, resumeFrom previous: BoardTestClient? = nil,
        resume: ResumePoint? = nil, subprotocol: String? = "corkboard.v1", observe: Bool = false, namingBoard: Bool = false
    ) throws {
        let query = board.addingPercentEncoding(withAllowedCharacters: .alphanumerics).map { "?board=" + $0 } ?? ""
        try self.init(
            transport: WebSocketClientTransport(port: port, path: "/ws" + (namingBoard ? query : ""), subprotocol: subprotocol), board: board,
            name: name, token: token, resumeFrom: previous, resume: resume, observe: observe)
    }

    /// The WebSocket under this client.
    public var ws: WebSocketTestClient {
        guard let transport = transport as? WebSocketClientTransport else { preconditionFailure("\(name) is not on a WebSocket") }
        return transport.ws
    }
}
