import CorkboardModel
import CorkboardWire
import WebSocket

/// A hub with one board that a test's clients join, whatever carries them: a `MemoryLink`
/// straight into the hub (`MemoryHub`) or a WebSocket to a real server (ServerTestSupport's
/// `HubFixture`). A suite that holds for both is written once against this and run over both
/// (CorkboardServerTests' `HubHarness`).
public protocol HubUnderTest: BoardHost {
    /// The board the hub was given.
    var board: Board { get }
    /// The board's document as the hub created it (seq 0).
    var created: BoardDocument { get }
    /// A new connection to the hub that has not said `hello` yet.
    func newConnection(_ name: String) throws -> any TestClientTransport
}

extension HubUnderTest {
    /// A new connection that joins the board with `hello` (see `BoardTestClient.init`).
    public func join(
        _ name: String, token: String? = nil, resumeFrom previous: BoardTestClient? = nil, resume: ResumePoint? = nil, observe: Bool = false,
        presence: PresenceForm = .full, hue: Hue? = nil
    ) throws -> BoardTestClient {
        try BoardTestClient(
            transport: newConnection(name), board: board.id, name: name, token: token, resumeFrom: previous, resume: resume, observe: observe,
            presence: presence, hue: hue)
    }

    /// Ada and Bob on the board, each aware of the other (Ada has read Bob's `peer.joined`).
    public func joinAdaAndBob() throws -> (ada: BoardTestClient, bob: BoardTestClient) {
        let ada = try join("Ada")
        let bob = try join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        return (ada, bob)
    }
}

extension TestClientTransport {
    /// Sends one client message as its JSON text.
    public func send(_ message: ClientMessage) throws {
        try send(text: String(decoding: try WireFormat.encode(message), as: UTF8.self))
    }

    /// The next message, decoded: for a connection read raw, without a `BoardTestClient`'s replica.
    /// Throws when the connection ended instead.
    public func receiveMessage() throws -> ServerMessage {
        switch try receive() {
        case .text(let text): try decodeServerText(text)
        case .closed(let code): throw HubTestFailure("the connection ended (\(code.map(\.description) ?? "no close code")) instead of a message")
        }
    }

    /// Reads past any text to the hub's close and returns its code (nil: the connection ended
    /// without one).
    public func receiveClose() throws -> WebSocketCloseCode? {
        for _ in 0..<BoardTestClient.readBound {
            if case .closed(let code) = try receive() { return code }
        }
        throw HubTestFailure("no close within \(BoardTestClient.readBound) messages")
    }
}
