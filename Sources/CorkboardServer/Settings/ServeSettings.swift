import CorkboardHub
import CorkboardSQLite
import Foundation
import Logging
import TLS
import WebSocketDeflate

/// Everything `corkboard serve` runs with, from its options and the environment: each
/// setting is the option's value, else its CORKBOARD_ variable's, else the default of
/// `ServerConfiguration` (and of the hub and HTTP settings within it). Values that mean
/// nothing are refused with a `ServeSettingError` naming the option, before anything starts.
public struct ServeSettings: Sendable {
    public var configuration: ServerConfiguration
    /// Messages below it are not logged (`--log-level`, default info).
    public var logLevel: Logger.Level
    /// How log lines are written (`--log-format`, default text).
    public var logFormat: LogFormat

    /// The smallest values the server can work with.
    public static let minimumMessageBytes = 125
    public static let minimumHistoryBytes = 64 * 1024
    public static let minimumOutputBytes = 64 * 1024

    public init(options: ServeOptions, environment: EnvironmentSettings) throws(ServeSettingError) {
        let values = SettingValues(environment: environment)
        var settings = ServerConfiguration()
        settings.host = values.string(options.host, "CORKBOARD_HOST") ?? settings.host
        settings.port = try values.integer(options.port, "CORKBOARD_PORT") ?? settings.port
        switch (values.string(options.tlsCert, "CORKBOARD_TLS_CERT"), values.string(options.tlsKey, "CORKBOARD_TLS_KEY")) {
        case (let certificate?, let key?): settings.tls = TLSCertificateFiles(certificate: certificate, privateKey: key)
        case (nil, nil): settings.tls = nil
        case (_?, nil): throw .certificateWithoutKey
        case (nil, _?): throw .keyWithoutCertificate
        }
        // Empty, as an option or a variable, serves the API only (every other empty variable is unset).
        if let webRoot = options.webRoot ?? values.environment.value("CORKBOARD_WEB_ROOT") { settings.webRoot = webRoot.isEmpty ? nil : webRoot }
        settings.dataDirectory = values.string(options.data, "CORKBOARD_DATA") ?? settings.dataDirectory
        settings.loopCount = try values.integer(options.loops, "CORKBOARD_LOOPS") ?? settings.loopCount
        settings.webSocket.maxMessageSize =
            try values.integer(options.maxMessageBytes, "CORKBOARD_MAX_MESSAGE_BYTES")
            ?? settings.webSocket.maxMessageSize
        if let origins = values.string(options.allowedOrigins, "CORKBOARD_ALLOWED_ORIGINS") {
            settings.webSocket.allowedOrigins = Set(origins.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }

        let deflateName = values.string(options.deflate, "CORKBOARD_DEFLATE") ?? DeflateConfiguration().mode.rawValue
        guard let deflateMode = DeflateConfiguration.Mode(rawValue: deflateName) else { throw .unknownDeflateMode(deflateName) }
        let threshold = try values.integer(options.deflateThreshold, "CORKBOARD_DEFLATE_THRESHOLD") ?? DeflateConfiguration().minimumSize
        settings.deflate = DeflateConfiguration(mode: deflateMode, minimumSize: threshold)

        let storeName = values.string(options.store, "CORKBOARD_STORE") ?? settings.store.rawValue
        guard let store = StoreKind(rawValue: storeName) else { throw .unknownStore(storeName) }
        settings.store = store
        settings.databaseURL = values.string(options.databaseURL, "CORKBOARD_DATABASE_URL")
        if store == .postgres && settings.databaseURL == nil { throw .postgresWithoutDatabaseURL }
        let syncName = values.string(options.sync, "CORKBOARD_SYNC") ?? settings.sync.rawValue
        guard let sync = SyncMode(rawValue: syncName) else { throw .unknownSyncMode(syncName) }
        settings.sync = sync

        // Read (and refused, exit 1) when the server starts, and again on SIGHUP.
        settings.tokenFile = values.string(options.tokens, "CORKBOARD_TOKENS")
        settings.tokenSecrets = values.string(options.tokenSecret, "CORKBOARD_TOKEN_SECRET").map { [$0] } ?? []
        settings.tokenSecretFile = values.string(options.tokenSecretFile, "CORKBOARD_TOKEN_SECRET_FILE")
        settings.revocationsFile = values.string(options.revocations, "CORKBOARD_REVOCATIONS")
        settings.tokenPublicKeyFile = values.string(options.tokenPublicKeyFile, "CORKBOARD_TOKEN_PUBLIC_KEY_FILE")
        settings.tokenJWKSFile = values.string(options.tokenJWKSFile, "CORKBOARD_TOKEN_JWKS_FILE")
        settings.webhooksFile = values.string(options.webhooks, "CORKBOARD_WEBHOOKS")
        if let seconds = try values.integer(options.webhookRetryMax, "CORKBOARD_WEBHOOK_RETRY_MAX") {
            try values.require(seconds, atLeast: 1, "--webhook-retry-max")
            settings.webhooks.backoff.maximum = Double(seconds)
        }

        settings.http.admission.maxConnections = try values.limit(
            values.integer(options.maxConnections, "CORKBOARD_MAX_CONNECTIONS"), "--max-connections",
            default: settings.http.admission.maxConnections)
        settings.http.admission.maxConnectionsPerAddress = try values.limit(
            values.integer(options.maxConnectionsPerIP, "CORKBOARD_MAX_CONNECTIONS_PER_IP"), "--max-connections-per-ip",
            default: settings.http.admission.maxConnectionsPerAddress)
        if let proxies = values.string(options.trustedProxies, "CORKBOARD_TRUSTED_PROXIES") {
            do {
                settings.trustedProxies = try TrustedProxies(parsing: proxies)
            } catch {
                throw .malformedTrustedProxy(error.item)
            }
        }
        settings.hub.maxBoards = try values.limit(
            values.integer(options.maxBoards, "CORKBOARD_MAX_BOARDS"), "--max-boards", default: settings.hub.maxBoards)
        try options.boardLimits.apply(to: &settings.hub, environment: environment)
        settings.maxPendingOutput = try values.integer(options.maxOutputBytes, "CORKBOARD_MAX_OUTPUT_BYTES") ?? settings.maxPendingOutput

        settings.http.headerTimeout = try values.seconds(
            values.integer(options.handshakeTimeout, "CORKBOARD_HANDSHAKE_TIMEOUT"), "--handshake-timeout",
            default: settings.http.headerTimeout)
        settings.hub.helloTimeout = try values.seconds(
            values.integer(options.helloTimeout, "CORKBOARD_HELLO_TIMEOUT"), "--hello-timeout", default: settings.hub.helloTimeout)
        settings.http.idleTimeout = try values.seconds(
            values.integer(options.idleTimeout, "CORKBOARD_IDLE_TIMEOUT"), "--idle-timeout", default: settings.http.idleTimeout)

        settings.hub.operationRate = try values.rate(
            values.integer(options.opRate, "CORKBOARD_OP_RATE"), "--op-rate", default: settings.hub.operationRate)
        if let bytes = try values.integer(options.opByteRate, "CORKBOARD_OP_BYTE_RATE") {
            guard bytes >= 0 else { throw .negativeByteRate(option: "--op-byte-rate") }
            settings.hub.operationByteRate = bytes == 0 ? nil : HubConfiguration.byteRate(perSecond: bytes)
        }
        settings.hub.historyByteBudget =
            try values.integer(options.maxHistoryBytes, "CORKBOARD_MAX_HISTORY_BYTES")
            ?? settings.hub.historyByteBudget
        settings.hub.presenceRate = try values.rate(
            values.integer(options.presenceRate, "CORKBOARD_PRESENCE_RATE"), "--presence-rate", default: settings.hub.presenceRate)
        settings.hub.refusedHelloRate = try values.rate(
            values.integer(options.refusedHelloRate, "CORKBOARD_REFUSED_HELLO_RATE"), "--refused-hello-rate",
            default: settings.hub.refusedHelloRate
        ).map { RateLimit(perSecond: $0.perSecond, burst: 10 * $0.perSecond) }
        settings.hub.maxDragItems = try values.limit(
            values.integer(options.maxDragItems, "CORKBOARD_MAX_DRAG_ITEMS"), "--max-drag-items", default: settings.hub.maxDragItems)
        settings.hub.dragBatchAudience = try values.limit(
            values.integer(options.dragBatchMembers, "CORKBOARD_DRAG_BATCH_MEMBERS"), "--drag-batch-members",
            default: settings.hub.dragBatchAudience)
        if let seconds = try values.integer(options.maxDragSeconds, "CORKBOARD_MAX_DRAG_SECONDS") {
            settings.hub.maxDragDuration = try values.limit(seconds, "--max-drag-seconds", default: nil).map { .seconds($0) }
        }

        settings.drainDelay = try values.integer(options.drainSeconds, "CORKBOARD_DRAIN_SECONDS").map { .seconds($0) } ?? settings.drainDelay
        settings.createsDemoBoard = !values.flag(options.noDemo, "CORKBOARD_NO_DEMO")
        let levelName = values.string(options.logLevel, "CORKBOARD_LOG_LEVEL") ?? Logger.Level.info.rawValue
        guard let level = Logger.Level(rawValue: levelName) else { throw .unknownLogLevel(levelName) }
        let formatName = values.string(options.logFormat, "CORKBOARD_LOG_FORMAT") ?? LogFormat.text.rawValue
        guard let format = LogFormat(rawValue: formatName) else { throw .unknownLogFormat(formatName) }
        switch values.string(options.accessLog, "CORKBOARD_ACCESS_LOG") {
        case nil, "on": settings.accessLog = true
        case "off": settings.accessLog = false
        case let other?: throw .unknownAccessLog(other)
        }

        // Checked last, as values the server cannot work with rather than values it cannot read.
        try values.require(settings.loopCount, atLeast: 1, "--loops")
        if case .seconds(let seconds) = settings.drainDelay { try values.require(seconds, atLeast: 0, "--drain-seconds") }
        try values.require(settings.webSocket.maxMessageSize, atLeast: Self.minimumMessageBytes, "--max-message-bytes")
        try values.require(settings.hub.historyByteBudget, atLeast: Self.minimumHistoryBytes, "--max-history-bytes")
        try values.require(settings.maxPendingOutput, atLeast: Self.minimumOutputBytes, "--max-output-bytes")
        configuration = settings
        logLevel = level
        logFormat = format
    }
}
