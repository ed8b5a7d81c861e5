import CorkboardHub
import CorkboardModel
import CorkboardSQLite
import Dispatch
import HTTP
import Sockets
import TLS
import WebSocket
import WebSocketDeflate

/// Everything `corkboard serve` can be told, with the defaults a local user wants.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port: UInt16 = 8080
    /// Serve HTTPS and wss:// with this certificate and key (PEM; `--tls-cert`, `--tls-key`),
    /// reloaded on SIGHUP. Nil: plain HTTP.
    public var tls: TLSCertificateFiles?
    /// The folder the browser client is served from; nil (`--web-root ''`): an API-only node,
    /// with no pages and no static files.
    public var webRoot: String? = "web"
    /// Where the embedded store keeps its files.
    public var dataDirectory = "./data"
    /// I/O loops (serial queues) connections are spread over: one per two cores. The other
    /// half is for the rooms (resolving, encoding), the store and the kernel's side of the
    /// sockets; and the fewer loops a board's members are spread over, the more of a
    /// round's broadcasts leave in one write per socket (docs/benchmarks.md: on two cores,
    /// one loop carries 10,000 fan-out clients where two carried 7,000).
    public var loopCount = max(1, System.coreCount / 2)
    /// Where the loops' timers take their time from (HTTP timeouts, WebSocket liveness, the
    /// hello deadline, lingering closes): the system's clock, or a test's that it advances.
    public var loopClock: any LoopClock = SystemLoopClock()
    public var http = HTTPServerConfiguration()
    /// WebSocket limits, timeouts and the Origin allow-list (subprotocol `corkboard.v1` is always offered).
    public var webSocket: WebSocketOptions = {
        var options = WebSocketOptions()
        options.subprotocols = ["corkboard.v1"]
        options.extensions = DeflateNegotiator(configuration: DeflateConfiguration())
        return options
    }()

    /// permessage-deflate: `memory` (the default), `speed` or `off`, and the smallest message
    /// worth compressing. Setting it replaces the negotiator in `webSocket`.
    public var deflate: DeflateConfiguration {
        get { (webSocket.extensions as? DeflateNegotiator)?.configuration ?? DeflateConfiguration(mode: .off) }
        set { webSocket.extensions = newValue.mode == .off ? nil : DeflateNegotiator(configuration: newValue) }
    }
    /// Where boards and their logs are kept: SQLite in `dataDirectory` unless told otherwise.
    public var store: StoreKind = .sqlite
    /// How hard the SQLite store pushes each commit to the disk (`--sync`; see docs/storage.md).
    public var sync: SyncMode = .full
    /// The PostgreSQL database of `store == .postgres` (`--database-url`, a `postgres://` URL
    /// or libpq connection string).
    public var databaseURL: String?
    /// Who may do what: open mode (everyone is owner) unless a token file is given.
    public var access: AccessPolicy = OpenAccess()
    /// A token file (`--tokens`): when set (or a token secret is), `access` is read from it at start, and again by
    /// `CorkboardServer.reload()` (SIGHUP), which disconnects the members it no longer admits.
    public var tokenFile: String?
    /// Secrets of signed per-user tokens (`--token-secret`): HS256 JWTs minted by the app's backend
    /// (which may sign RS256 or ES256 instead, see `tokenPublicKeyFile` and `tokenJWKSFile`).
    public var tokenSecrets: [String] = []
    /// A file of such secrets, one a line (`--token-secret-file`), read at start and again on SIGHUP.
    public var tokenSecretFile: String?
    /// A file of revocations of signed tokens (`--revocations`), read at start and again on
    /// SIGHUP, in force beside those made over the API (docs/security.md#revoking-tokens).
    public var revocationsFile: String?
    /// A file of webhook endpoints (`--webhooks`), read at start and again on SIGHUP, delivered
    /// beside those made over the API (docs/integrations.md#webhooks).
    public var webhooksFile: String?
    /// How webhooks are delivered: the retry backoff (`--webhook-retry-max`), the attempt timeout.
    public var webhooks = WebhookSettings()
    /// PEM public keys (RSA, EC P-256) of RS256 and ES256 signed tokens (`--token-public-key-file`), read at start and on SIGHUP.
    public var tokenPublicKeyFile: String?
    /// A JWK Set (RFC 7517) of such keys, picked by `kid` (`--token-jwks-file`), read at start and on SIGHUP.
    public var tokenJWKSFile: String?
    /// Creates the board `demo` on start when the store holds no board yet (`--no-demo` turns it off).
    public var createsDemoBoard = true
    /// The collaboration hub's settings: hello and drag timeouts, kept history, rate limits.
    public var hub = HubConfiguration()
    /// Unwritten bytes a slow reader may hold before it is disconnected (WebSocket: the TCP
    /// connection is dropped, the client sees 1006).
    public var maxPendingOutput = 4 * 1024 * 1024
    /// A line per answered HTTP request on the `corkboard.access` logger, at info (`--access-log`).
    public var accessLog = true
    /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxies`): for a request
    /// from one of them, the HTTP operation rates and the access log go by the forwarded
    /// client. Connection limits still count the peer. Empty (the default): none.
    public var trustedProxies = TrustedProxies()
    /// How long a graceful shutdown keeps serving, `/readyz` answering 503, before it stops
    /// accepting (`--drain-seconds`): the time a load balancer needs to take the node out.
    public var drainDelay: DispatchTimeInterval = .seconds(0)
    /// Heartbeat and reconnect advice of event streams (`GET /api/boards/{id}/events`).
    public var eventStream = EventStreamSettings()
    /// How long a graceful shutdown waits for requests in flight.
    public var shutdownGrace: DispatchTimeInterval = .seconds(10)

    public init() {}
}

/// The kinds of store `corkboard serve --store` offers.
public enum StoreKind: String, Sendable, CaseIterable {
    /// SQLite in the data directory (`corkboard.sqlite`): durable, one server per directory.
    case sqlite
    /// Boards live in this process only and are gone when it stops: for tests and demos.
    case memory
    /// PostgreSQL at `databaseURL`, shared by every node pointed at it (docs/storage.md).
    case postgres
}
