/// What `corkboard serve` was told on its command line, option by option, as plain values:
/// nil (or false) where an option was not given, so that `ServeSettings` can fall back on
/// the environment variable, then on the default. The executable only fills this in.
public struct ServeOptions: Sendable {
    public var host: String?
    public var port: UInt16?
    public var tlsCert: String?
    public var tlsKey: String?
    public var webRoot: String?
    public var data: String?
    public var loops: Int?
    public var logLevel: String?
    public var logFormat: String?
    /// "on" or "off".
    public var accessLog: String?
    public var maxMessageBytes: Int?
    /// Comma-separated origins.
    public var allowedOrigins: String?
    public var deflate: String?
    public var deflateThreshold: Int?
    public var store: String?
    public var databaseURL: String?
    public var sync: String?
    /// The token file's path.
    public var tokens: String?
    public var tokenSecret: String?
    public var tokenSecretFile: String?
    public var revocations: String?
    public var webhooks: String?
    /// Seconds.
    public var webhookRetryMax: Int?
    public var tokenPublicKeyFile: String?
    public var tokenJWKSFile: String?
    public var opRate: Int?
    public var opByteRate: Int?
    public var presenceRate: Int?
    public var refusedHelloRate: Int?
    public var maxDragItems: Int?
    public var dragBatchMembers: Int?
    public var maxDragSeconds: Int?
    public var maxConnections: Int?
    public var maxConnectionsPerIP: Int?
    /// Comma-separated CIDR blocks or addresses.
    public var trustedProxies: String?
    public var maxBoards: Int?
    public var boardLimits = BoardLimitValues()
    public var maxHistoryBytes: Int?
    public var maxOutputBytes: Int?
    public var handshakeTimeout: Int?
    public var helloTimeout: Int?
    public var idleTimeout: Int?
    public var drainSeconds: Int?
    public var noDemo = false

    public init() {}
}
