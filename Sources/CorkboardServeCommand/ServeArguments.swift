import ArgumentParser
import CorkboardServer

/// Every option of the server's command line, each also read from the environment variable
/// named in its help: `corkboard serve`'s, and `corkboard-bench serve`'s, which runs the same
/// server with the benchmarks' test WebSockets added. Declared once here so that the two
/// cannot drift apart and a benchmark measures the server as it is deployed.
public struct ServeArguments: ParsableArguments {
    /// What `--help` says under the options of either `serve`.
    public static let discussion = "Every option can also be set with the environment variable named in its help; an option on the command line wins."

    @Option(help: "Address to listen on: a host name, an IPv4 or an IPv6 address (env: CORKBOARD_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "TCP port; 0 picks a free one (env: CORKBOARD_PORT; default 8080).")
    var port: UInt16?

    @Option(
        help:
            "Serve HTTPS and wss:// with this certificate chain (PEM, the server's certificate first); needs --tls-key. Reloaded on SIGHUP (env: CORKBOARD_TLS_CERT)."
    )
    var tlsCert: String?

    @Option(help: "The private key of --tls-cert (PEM, not encrypted). Reloaded on SIGHUP (env: CORKBOARD_TLS_KEY).")
    var tlsKey: String?

    @Option(help: "Folder of the browser client; '' serves the API only, without pages (env: CORKBOARD_WEB_ROOT; default web).")
    var webRoot: String?

    @Option(help: "Folder for the server's data (env: CORKBOARD_DATA; default ./data).")
    var data: String?

    @Option(help: "I/O loops to spread connections over (env: CORKBOARD_LOOPS; default: one per two cores).")
    var loops: Int?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env: CORKBOARD_LOG_LEVEL; default info).")
    var logLevel: String?

    @Option(help: "text or json (one object per line: ts, level, label, message, metadata) (env: CORKBOARD_LOG_FORMAT; default text).")
    var logFormat: String?

    @Option(
        help:
            "on or off: a line per HTTP request (method, path, status, bytes, duration_ms, remote) on the corkboard.access logger, at info (env: CORKBOARD_ACCESS_LOG; default on)."
    )
    var accessLog: String?

    @Option(help: "Largest WebSocket message in bytes; larger ones close the connection with 1009 (env: CORKBOARD_MAX_MESSAGE_BYTES; default 1048576).")
    var maxMessageBytes: Int?

    @Option(help: "Comma-separated origins whose pages may open WebSockets and call /api (CORS); others get 403. Unset: any (env: CORKBOARD_ALLOWED_ORIGINS).")
    var allowedOrigins: String?

    @Option(
        help:
            "permessage-deflate: memory (no context takeover, small windows, compress broadcasts once), speed (full windows and context: best ratio, ~100 KiB per connection once it has compressed) or off (env: CORKBOARD_DEFLATE; default memory)."
    )
    var deflate: String?

    @Option(help: "Smallest message in bytes worth compressing (env: CORKBOARD_DEFLATE_THRESHOLD; default 128).")
    var deflateThreshold: Int?

    @Option(
        help:
            "Where boards are kept: sqlite (corkboard.sqlite in the data folder), postgres (shared by several nodes; needs --database-url) or memory (gone when the server stops) (env: CORKBOARD_STORE; default sqlite)."
    )
    var store: String?

    @Option(help: "The PostgreSQL database of --store postgres: a postgres:// URL or libpq connection string (env: CORKBOARD_DATABASE_URL).")
    var databaseUrl: String?

    @Option(
        help:
            "SQLite durability: full (fsync at every commit: survives power loss) or normal (survives a crash of the server, not of the machine) (env: CORKBOARD_SYNC; default full)."
    )
    var sync: String?

    @Option(
        help:
            "JSON file of tokens and the role each grants, per board or on all (\"boards\": \"*\"; see docs/security.md); read again on SIGHUP. Without it and without a token secret or key: open mode, everyone is owner (env: CORKBOARD_TOKENS)."
    )
    var tokens: String?

    @Option(
        help:
            "Secret (at least 32 bytes) of signed per-user tokens: HS256 JWTs minted by your app's backend with sub, name, boards, role, exp (see docs/security.md). Prefer --token-secret-file: a command line is visible to other users (env: CORKBOARD_TOKEN_SECRET)."
    )
    var tokenSecret: String?

    @Option(
        help:
            "File of token secrets, one a line (several while rotating); read again on SIGHUP (env: CORKBOARD_TOKEN_SECRET_FILE)."
    )
    var tokenSecretFile: String?

    @Option(
        help:
            "File of revoked signed tokens, {\"revocations\":[{\"sub\":\"user\"},{\"jti\":\"token id\"}]}, beside those made with POST /api/revocations; read again on SIGHUP (env: CORKBOARD_REVOCATIONS)."
    )
    var revocations: String?

    @Option(
        help:
            "File of webhook endpoints, {\"webhooks\":[{\"id\":\"crm\",\"url\":\"https://…\",\"secret\":\"whsec_…\",\"boards\":[\"id\"]}]} (boards optional), beside those made with POST /api/webhooks; read again on SIGHUP (env: CORKBOARD_WEBHOOKS)."
    )
    var webhooks: String?

    @Option(
        help: "Longest wait, in seconds, between attempts of a webhook delivery that keeps failing (default 600; env: CORKBOARD_WEBHOOK_RETRY_MAX)."
    )
    var webhookRetryMax: Int?

    @Option(
        help:
            "File of PEM public keys (-----BEGIN PUBLIC KEY-----; RSA of 2048 bits or more, or EC P-256) checking RS256 and ES256 signed tokens minted with the private halves; read again on SIGHUP (env: CORKBOARD_TOKEN_PUBLIC_KEY_FILE)."
    )
    var tokenPublicKeyFile: String?

    @Option(
        help:
            "JWK Set file (RFC 7517: RSA and EC P-256 keys, each with a kid that tokens name) checking RS256 and ES256 signed tokens; read again on SIGHUP (env: CORKBOARD_TOKEN_JWKS_FILE)."
    )
    var tokenJwksFile: String?

    @Option(
        help:
            "Operations per second one connection (or one HTTP client address) may send; more are rejected rate-limited, to be retried. 0: no limit (env: CORKBOARD_OP_RATE; default 2000)."
    )
    var opRate: Int?

    @Option(
        help:
            "Bytes of operation messages per second one connection (or one HTTP client address) may send, in bursts of four seconds' worth; more are rejected rate-limited, to be retried. 0: no limit (env: CORKBOARD_OP_BYTE_RATE; default 1048576)."
    )
    var opByteRate: Int?

    @Option(
        help:
            "Presence messages per second of one connection handed to its board: more drag.over are coalesced, more drag.start rejected rate-limited; drag.end is always taken. 0: no limit (env: CORKBOARD_PRESENCE_RATE; default 60)."
    )
    var presenceRate: Int?

    @Option(
        help:
            "Refused hellos per second per client address (a bad or missing token, or no hello), in bursts of ten seconds' worth; beyond it that address's next connections are turned away unread (rate-limited, close 1013). Loopback peers are not counted. 0: no limit (env: CORKBOARD_REFUSED_HELLO_RATE; default 10)."
    )
    var refusedHelloRate: Int?

    @Option(
        help:
            "Items one drag.start may hold (more: rejected invalid), and items one connection's drag starts may name per second (more: rejected rate-limited). 0: no limit (env: CORKBOARD_MAX_DRAG_ITEMS; default 1000)."
    )
    var maxDragItems: Int?

    @Option(
        help:
            "Members from which a board's drag, drag.over and drag.cleared go out once per 50 ms tick as one drags message. 0: never batched (env: CORKBOARD_DRAG_BATCH_MEMBERS; default 50)."
    )
    var dragBatchMembers: Int?

    @Option(
        help:
            "Seconds one drag may hold its items, drag.over or not; then it is cleared for everyone, holder included, with reason expired. 0: no limit (env: CORKBOARD_MAX_DRAG_SECONDS; default 120)."
    )
    var maxDragSeconds: Int?

    @Option(help: "Connections held open at once; more are answered 503 and closed. 0: no limit (env: CORKBOARD_MAX_CONNECTIONS; default 20000).")
    var maxConnections: Int?

    @Option(
        help:
            "Connections from one client address; more are answered 503. Never applied to loopback clients. 0: off (env: CORKBOARD_MAX_CONNECTIONS_PER_IP; default off)."
    )
    var maxConnectionsPerIp: Int?

    @Option(
        help:
            "Comma-separated CIDR blocks or addresses of the proxies in front (127.0.0.1/32,10.0.0.0/8,::1): from them, X-Forwarded-For names the client, whom the HTTP operation rates and the access log then go by (connection limits still count the proxy). Unset: none, every peer is the client (env: CORKBOARD_TRUSTED_PROXIES)."
    )
    var trustedProxies: String?

    @Option(help: "Boards the server holds; creating more is refused with 507. 0: no limit (env: CORKBOARD_MAX_BOARDS; default 10000).")
    var maxBoards: Int?

    @OptionGroup var boardLimits: BoardLimitOptions

    @Option(
        help:
            "About how many bytes of committed events each board keeps, in memory and in its stored log, beside the last 100,000 events; the oldest are folded into the snapshot beyond it (env: CORKBOARD_MAX_HISTORY_BYTES; default 67108864, at least 65536)."
    )
    var maxHistoryBytes: Int?

    @Option(help: "Unwritten bytes a client that does not read may hold before it is disconnected (env: CORKBOARD_MAX_OUTPUT_BYTES; default 4194304).")
    var maxOutputBytes: Int?

    @Option(
        help:
            "Seconds a connection has to send a complete request head, the WebSocket handshake included; then 408 (env: CORKBOARD_HANDSHAKE_TIMEOUT; default 10)."
    )
    var handshakeTimeout: Int?

    @Option(help: "Seconds a new WebSocket has to send hello; then error and close 1008 (env: CORKBOARD_HELLO_TIMEOUT; default 10).")
    var helloTimeout: Int?

    @Option(
        help:
            "Seconds an idle keep-alive HTTP connection stays open, and an HTTP client may take no byte of its response before it is dropped (env: CORKBOARD_IDLE_TIMEOUT; default 60)."
    )
    var idleTimeout: Int?

    @Option(
        help:
            "Seconds a graceful shutdown (SIGTERM) keeps serving with /readyz answering 503, so that a load balancer takes the node out before it stops accepting; also how long an owner's drain (POST /api/admin/drain) waits before sending the members elsewhere (env: CORKBOARD_DRAIN_SECONDS; default 0)."
    )
    var drainSeconds: Int?

    @Flag(help: "Do not create the demo board on a first start with an empty store (env: CORKBOARD_NO_DEMO=1).")
    var noDemo = false

    /// The options as given, for `ServeSettings` to complete from the environment and check.
    public var options: ServeOptions {
        var options = ServeOptions()
        options.host = host
        options.port = port
        options.tlsCert = tlsCert
        options.tlsKey = tlsKey
        options.webRoot = webRoot
        options.data = data
        options.loops = loops
        options.logLevel = logLevel
        options.logFormat = logFormat
        options.accessLog = accessLog
        options.maxMessageBytes = maxMessageBytes
        options.allowedOrigins = allowedOrigins
        options.deflate = deflate
        options.deflateThreshold = deflateThreshold
        options.store = store
        options.databaseURL = databaseUrl
        options.sync = sync
        options.tokens = tokens
        options.tokenSecret = tokenSecret
        options.tokenSecretFile = tokenSecretFile
        options.revocations = revocations
        options.webhooks = webhooks
        options.webhookRetryMax = webhookRetryMax
        options.tokenPublicKeyFile = tokenPublicKeyFile
        options.tokenJWKSFile = tokenJwksFile
        options.opRate = opRate
        options.opByteRate = opByteRate
        options.presenceRate = presenceRate
        options.refusedHelloRate = refusedHelloRate
        options.maxDragItems = maxDragItems
        options.dragBatchMembers = dragBatchMembers
        options.maxDragSeconds = maxDragSeconds
        options.maxConnections = maxConnections
        options.maxConnectionsPerIP = maxConnectionsPerIp
        options.trustedProxies = trustedProxies
        options.maxBoards = maxBoards
        options.boardLimits = boardLimits.values
        options.maxHistoryBytes = maxHistoryBytes
        options.maxOutputBytes = maxOutputBytes
        options.handshakeTimeout = handshakeTimeout
        options.helloTimeout = helloTimeout
        options.idleTimeout = idleTimeout
        options.drainSeconds = drainSeconds
        options.noDemo = noDemo
        return options
    }

    public init() {}
}
