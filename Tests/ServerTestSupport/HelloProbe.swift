import CorkboardWire
import Foundation
import TestSupport
import WebSocket

/// One `hello` on a WebSocket of its own, and what the server answers it: used by the suites of
/// signed tokens against a real `corkboard serve` (SignedTokenServeTests and its neighbours) and
/// by in-process ones (HostileUnicodeIdentityTests).
public enum HelloProbe {
    /// `hello` named `name` with `token` on `board`: the `error` the server answers and its close code and reason.
    public static func refusedHello(
        port: UInt16, board: String = "board", name: String = "Someone", token: String? = nil
    ) throws -> (ErrorMessage?, WebSocketClosePayload?) {
        let answer = try answerToHello(port: port, board: board, name: name, token: token)
        return (answer.error, answer.close)
    }

    /// What the server answers `hello` (sent behind `extraHeaders` in the handshake, such as a
    /// proxy's `X-Forwarded-For`): its `welcome`, or the `error` and the close that refuse it.
    public static func answerToHello(
        port: UInt16, board: String = "board", name: String = "Someone", token: String?, extraHeaders: String = ""
    ) throws -> (error: ErrorMessage?, welcome: Welcome?, close: WebSocketClosePayload?) {
        let socket = try WebSocketTestClient(port: port, extraHeaders: extraHeaders)
        let hello = Hello(board: board, name: name, token: token)
        try socket.send(text: String(decoding: try WireFormat.encode(ClientMessage.hello(hello)), as: UTF8.self))
        var error: ErrorMessage?
        for _ in 0..<10 {
            guard let frame = try socket.receiveFrame() else { break }
            if frame.opcode == .close { return (error, nil, try WebSocketClosePayload(parsing: frame.payload)) }
            switch try WireFormat.decodeServerMessage(Data(frame.payload)) {
            case .error(let message): error = message
            case .welcome(let welcome): return (nil, welcome, nil)
            default: break
            }
        }
        return (error, nil, nil)
    }
}
