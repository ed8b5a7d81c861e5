import Dispatch

/// The hub's end of one member's connection: everything rooms and sessions need of a
/// transport, and nothing more. In the server a WebSocket is one (CorkboardServer adapts
/// `WebSocketConnection`); the hub's tests drive sessions through links in memory.
///
/// What a link promises the hub: any thread may call it; messages go out in the order they
/// were sent, and none after `close`; the session behind it hears of the end once
/// (`HubSession.linkClosed`), whoever ended it; and a member that reads too slowly is
/// dropped by the link (its unread output is bounded), never waited for by the room.
public protocol MemberLink: AnyObject, Sendable {
    /// Sends one server message, already JSON text, to this member alone.
    func send(text: String)

    /// `send(text:)` of a message written as UTF-8 bytes (a `welcome`): a transport that sends
    /// bytes takes them as they are, without a `String` made of them first.
    func send(utf8 text: [UInt8])

    /// Sends one message to many members, all of this type: the fan-out path of every
    /// commit and presence change, which the hub encodes to JSON once per message and hands
    /// over once, so that the transport can also frame it once for all of them.
    static func broadcast(text: String, to links: [any MemberLink])

    /// Runs `work` once everything sent so far has been written (at once when nothing waits);
    /// dropped if the link ends first. A resume replay sends its next piece from here.
    func whenDrained(_ work: @escaping @Sendable () -> Void)

    /// The unread output, in bytes, the link holds for this member before it drops it as a
    /// slow consumer. A replay piece is at most half of it.
    var outputBound: Int { get }

    /// Ends the connection with the protocol's close `code` (docs/protocol.md#close-codes) and a short reason.
    func close(_ code: MemberClose, reason: String)

    /// Asks the transport to hold what it would write now until the returned release runs
    /// (from any thread): called with an operation just read, released once the room has
    /// broadcast its `committed`, so that the broadcast leaves with the rest of that output,
    /// several frames in one write (`IOLoop.holdOutput`). The transport bounds the hold
    /// itself, so a release that never comes delays nothing for long. Nil: nothing is held.
    func holdWrites() -> (@Sendable () -> Void)?

    /// Runs `work` after `delay` on the serial queue the member's session is called on. The
    /// session reckons `delay` by the hub's clock (`HubConfiguration.clock`: a token's expiry,
    /// a coalesced `drag.over`); a link under a hub whose clock a test advances schedules on
    /// that clock too (`MemoryLink` in Tests/HubTestSupport does), the server's on its loop.
    func schedule(after delay: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void)
}

/// Why the hub ends a member's connection: the close codes of docs/protocol.md#close-codes (WebSocket close codes
/// in the server, which is why they carry those numbers).
public enum MemberClose: UInt16, Sendable, Hashable {
    /// Refused for good: a bad or late `hello`, a token that is not (or no longer) valid.
    case policyViolation = 1008
    /// Going away: this node is draining (an operator asked); join again, through the load
    /// balancer, on another node.
    case goingAway = 1001
    /// Join again: the member's role changed, or the board reloaded.
    case serviceRestart = 1012
    /// Try again later: the board cannot be loaded now, or a resume fell behind the history.
    case tryAgainLater = 1013
    /// The member's token expired and was not refreshed: get a new one and join again.
    case tokenExpired = 4001
}

extension MemberLink {
    public func send(utf8 text: [UInt8]) {
        send(text: String(decoding: text, as: UTF8.self))
    }

    /// A transport that writes each message as it comes holds nothing.
    public func holdWrites() -> (@Sendable () -> Void)? { nil }
}

extension [any MemberLink] {
    /// Sends `text` to every link, with one `broadcast` per type of link (in the server there
    /// are two: WebSockets and event streams), so each transport frames it once.
    func broadcast(_ text: String) {
        guard let first = self.first else { return }
        let kind = type(of: first)
        guard contains(where: { type(of: $0) != kind }) else { return kind.broadcast(text: text, to: self) }
        var byKind: [ObjectIdentifier: [any MemberLink]] = [:]
        for link in self { byKind[ObjectIdentifier(type(of: link)), default: []].append(link) }
        for links in byKind.values { type(of: links[0]).broadcast(text: text, to: links) }
    }
}
