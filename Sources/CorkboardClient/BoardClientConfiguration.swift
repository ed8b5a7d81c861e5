import CorkboardModel
import CorkboardWire
import Dispatch

/// Everything a ``BoardClient`` needs to know before it connects.
public struct BoardClientConfiguration: Sendable {
    /// Server host name or address (`127.0.0.1`, `::1`, `corkboard.local`).
    public var host: String
    public var port: UInt16
    /// The WebSocket path on the server (`/ws`); `socketTarget` adds the board to it.
    public var path: String
    /// The board to join, and the name others see in `peer.joined` and `drag`.
    public var board: String
    public var name: String
    /// The token of the server's token file, or a signed token; nil in open mode.
    public var token: String?
    /// Where fresh signed tokens come from (your app's backend): asked before every connect and
    /// before the token in force expires, which it then replaces over the open connection
    /// (docs/protocol.md#refreshing-the-token). It wins over `token`. A failure is retried with
    /// `tokenRetryBackoff` while the current token holds.
    public var tokenProvider: (@Sendable () async throws -> String)?
    public var tokenRetryBackoff = Backoff(initial: 1, maximum: 30)
    /// Join as an observer (docs/protocol.md#observers): follow the board without being
    /// shown to the others as a peer, and without operating or dragging.
    public var observes = false
    /// The form of drag batches to ask for (docs/protocol.md#compact-drags): compact by
    /// default, about a quarter of the bytes on a busy board, decoded into the same drag
    /// changes; `.full` asks for the long form.
    public var presence: PresenceForm = .compact
    /// The colour the others see this client in, a hue from 0 to 359 (docs/protocol.md#colours);
    /// nil: none. Another hue is refused by the server (`invalid`, close 1008).
    public var hue: Hue?
    /// Speak `wss://`: TLS, with the server's certificate checked against the system's CA
    /// store (and `trustedCAFile`) and against `host`. There is no way to turn the check off.
    public var usesTLS = false
    /// A PEM file of CA certificates to trust besides the system's: a private CA, or a
    /// self-signed server's own certificate.
    public var trustedCAFile: String?

    /// Offer permessage-deflate (the server accepts it unless started with `--deflate off`).
    public var offersDeflate = true
    /// Delays between reconnect attempts after the connection drops.
    public var reconnectBackoff = Backoff.reconnect
    /// Failed reconnect attempts in a row before the client gives up and closes (nil: never).
    /// The first join is a single attempt: `connect()` reports its failure at once.
    public var maximumReconnectAttempts: Int?
    /// How long one attempt may take from TCP connect to `welcome`, in seconds.
    public var joinTimeout: Double = 10

    /// Rejection codes answered by resending the same opId after a pause. `busy` and
    /// `locked` are not here by default: they last as long as someone's drag or lock, so
    /// the caller should decide (plan again, or wait for the unlock).
    public var retriedRejections: Set<RejectionCode> = [.rateLimited, .unavailable]
    /// Resends of one operation after such rejections before its rejection is returned.
    public var maximumRetries = 5
    public var retryBackoff = Backoff(initial: 0.2, maximum: 2)
    /// How long an operation may wait for its answer (nil: until the client closes). On
    /// timeout it returns `.unanswered(.timedOut)` and is no longer resent.
    public var operationTimeout: Double?

    /// Our opIds are `<prefix>-<n>`; the prefix is random so opIds never collide with other
    /// clients' (opIds must be unique on the board for all time: docs/protocol.md#4-operations).
    public var opIdPrefix: String
    /// How long a silent connection waits before pinging the server, and for the answer:
    /// how a half-open TCP connection (a vanished server) is noticed.
    public var pingInterval: DispatchTimeInterval = .seconds(15)
    public var pongTimeout: DispatchTimeInterval = .seconds(10)

    public init(
        host: String = "127.0.0.1", port: UInt16 = 8080, path: String = "/ws", board: String, name: String,
        token: String? = nil
    ) {
        self.host = host
        self.port = port
        self.path = path
        self.board = board
        self.name = name
        self.token = token
        opIdPrefix = Self.randomPrefix()
    }

    /// The client of the server at `address` (`ws://` or `wss://`).
    public init(address: ServerAddress, board: String, name: String, token: String? = nil) {
        self.init(host: address.host, port: address.port, path: address.path, board: board, name: name, token: token)
        usesTLS = address.usesTLS
    }

    /// The request target of the WebSocket handshake: the path with `board=ID` added to its
    /// query, so that a load balancer in front of several nodes can send every member of a
    /// board to the same node (docs/protocol.md#2-transport). The server reads the board from
    /// `hello`, not from here.
    public var socketTarget: String {
        let separator = path.contains("?") ? "&" : "?"
        return path + separator + "board=" + Self.queryEncoded(board)
    }

    /// A query value as JavaScript's `encodeURIComponent` writes it (the browser SDK and the
    /// Python example do the same): the balancer hashes the text as sent, so every client must
    /// send a board's id alike. Letters, digits and `-_.!~*'()` stay, every other byte is `%XX`.
    static func queryEncoded(_ value: String) -> String {
        var encoded = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                encoded.append(Character(UnicodeScalar(byte)))
            case _ where "-_.!~*'()".utf8.contains(byte):
                encoded.append(Character(UnicodeScalar(byte)))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    /// Six lower-case letters and digits: 2 billion prefixes, plenty for the bots of one board.
    public static func randomPrefix() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<6).map { _ in alphabet.randomElement()! })
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
