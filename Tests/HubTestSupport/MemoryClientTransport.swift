import CorkboardHub
import WebSocket

/// A `BoardTestClient`'s end of a `MemoryLink`: what the hub sends is read from the link,
/// and a close is told as the WebSocket close the server would send (docs/protocol.md#close-codes).
public final class MemoryClientTransport: TestClientTransport {
    public let link: MemoryLink
    /// Seconds one read waits, as a socket client's receive timeout.
    let timeout: Double

    public init(link: MemoryLink, timeout: Double = 5) {
        self.link = link
        self.timeout = timeout
    }

    public func send(text: String) throws { link.receive(text) }

    public func receive() throws -> TestClientEvent {
        switch link.nextOutput(timeout: timeout) {
        case nil: throw HubTestFailure("nothing from the hub within \(timeout) s")
        case .text(let text): .text(text)
        case .closed(let code, _): .closed(WebSocketCloseCode(rawValue: code.rawValue))
        case .dropped: .closed(nil)
        }
    }

    public func close() throws { link.disconnect() }

    public func drop() { link.disconnect() }
}
