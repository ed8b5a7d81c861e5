import CorkboardHub
import CorkboardServer
import Dispatch
import Logging
import TestSupport
import Testing

/// `corkboard serve`'s settings from plain values, without a process: every option and its
/// variable, the defaults, and every value refused.
@Suite struct ServeSettingsTests {
    func settings(_ options: ServeOptions = ServeOptions(), _ variables: [String: String] = [:]) throws(ServeSettingError) -> ServeSettings {
        try ServeSettings(options: options, environment: EnvironmentSettings(variables))
    }

    func refusal(_ options: ServeOptions = ServeOptions(), _ variables: [String: String] = [:]) -> ServeSettingError? {
        do {
            _ = try settings(options, variables)
            return nil
        } catch {
            return error
        }
    }

    func options(_ set: (inout ServeOptions) -> Void) -> ServeOptions {
        var options = ServeOptions()
        set(&options)
        return options
    }

    @Test func nothingGivenIsTheDefaults() throws {
        let settings = try settings()
        let server = settings.configuration
        #expect(settings.logLevel == .info)
        #expect(server.host == "127.0.0.1" && server.port == 8080 && server.tls == nil)
        #expect(server.webRoot == "web" && server.dataDirectory == "./data")
        #expect(server.loopCount == ServerConfiguration().loopCount && server.loopCount >= 1)
        #expect(server.webSocket.maxMessageSize == 1_048_576 && server.webSocket.allowedOrigins == nil)
        #expect(server.webSocket.subprotocols == ["corkboard.v1"])
        #expect(server.deflate.mode == .memory && server.deflate.minimumSize == 128)
        #expect(server.store == .sqlite && server.sync == .full && server.databaseURL == nil)
        #expect(server.access is OpenAccess && server.tokenFile == nil && server.tokenSecrets.isEmpty && server.tokenSecretFile == nil)
        #expect(server.http.admission.maxConnections == 20_000 && server.http.admission.maxConnectionsPerAddress == nil)
        #expect(server.hub.maxBoards == 10_000 && server.hub.maxItemsPerBoard == 10_000 && server.hub.maxCollectionsPerBoard == 1_000)
        #expect(server.maxPendingOutput == 4_194_304)
        #expect(server.http.headerTimeout == .seconds(10) && server.hub.helloTimeout == .seconds(10) && server.http.idleTimeout == .seconds(60))
        #expect(server.hub.operationRate == RateLimit(perSecond: 2000))
        #expect(server.hub.operationByteRate == HubConfiguration.byteRate(perSecond: 1_048_576))
        #expect(server.hub.historyByteBudget == 67_108_864)
        #expect(server.hub.presenceRate == RateLimit(perSecond: 60))
        #expect(server.hub.maxDragItems == 1_000 && server.hub.maxDragDuration == .seconds(120))
        #expect(server.hub.dragBatchAudience == 50)
        #expect(server.createsDemoBoard)
        #expect(server.trustedProxies.isEmpty)
    }

    /// One setting: its variable and a value in its text, the same value as an option, and
    /// how the resulting setting reads (never its default, so a setting that is ignored fails).
    struct Setting: Sendable, CustomStringConvertible {
        let variable: String
        let text: String
        let option: @Sendable (inout ServeOptions) -> Void
        let read: @Sendable (ServeSettings) -> String
        let expected: String
        var description: String { variable }
    }

    static let everySetting: [Setting] = [
        Setting(variable: "CORKBOARD_HOST", text: "::1", option: { $0.host = "::1" }, read: { $0.configuration.host }, expected: "::1"),
        Setting(variable: "CORKBOARD_PORT", text: "9090", option: { $0.port = 9090 }, read: { "\($0.configuration.port)" }, expected: "9090"),
        Setting(
            variable: "CORKBOARD_WEB_ROOT", text: "/srv/web", option: { $0.webRoot = "/srv/web" },
            read: { $0.configuration.webRoot ?? "" }, expected: "/srv/web"),
        Setting(
            variable: "CORKBOARD_DATA", text: "/var/lib/corkboard", option: { $0.data = "/var/lib/corkboard" },
            read: { $0.configuration.dataDirectory }, expected: "/var/lib/corkboard"),
        Setting(variable: "CORKBOARD_LOOPS", text: "7", option: { $0.loops = 7 }, read: { "\($0.configuration.loopCount)" }, expected: "7"),
        Setting(variable: "CORKBOARD_LOG_LEVEL", text: "debug", option: { $0.logLevel = "debug" }, read: { "\($0.logLevel)" }, expected: "debug"),
        Setting(
            variable: "CORKBOARD_MAX_MESSAGE_BYTES", text: "4096", option: { $0.maxMessageBytes = 4096 },
            read: { "\($0.configuration.webSocket.maxMessageSize)" }, expected: "4096"),
        Setting(
            variable: "CORKBOARD_ALLOWED_ORIGINS", text: "https://a.example, https://b.example",
            option: { $0.allowedOrigins = "https://a.example, https://b.example" },
            read: { ($0.configuration.webSocket.allowedOrigins ?? []).sorted().joined(separator: " ") },
            expected: "https://a.example https://b.example"),
        Setting(
            variable: "CORKBOARD_DEFLATE", text: "speed", option: { $0.deflate = "speed" },
            read: { $0.configuration.deflate.mode.rawValue }, expected: "speed"),
        Setting(
            variable: "CORKBOARD_DEFLATE_THRESHOLD", text: "512", option: { $0.deflateThreshold = 512 },
            read: { "\($0.configuration.deflate.minimumSize)" }, expected: "512"),
        Setting(
            variable: "CORKBOARD_STORE", text: "memory", option: { $0.store = "memory" },
            read: { $0.configuration.store.rawValue }, expected: "memory"),
        Setting(
            variable: "CORKBOARD_DATABASE_URL", text: "postgres://db/corkboard", option: { $0.databaseURL = "postgres://db/corkboard" },
            read: { $0.configuration.databaseURL ?? "nil" }, expected: "postgres://db/corkboard"),
        Setting(
            variable: "CORKBOARD_SYNC", text: "normal", option: { $0.sync = "normal" },
            read: { $0.configuration.sync.rawValue }, expected: "normal"),
        Setting(
            variable: "CORKBOARD_OP_RATE", text: "50", option: { $0.opRate = 50 },
            read: { "\($0.configuration.hub.operationRate?.perSecond ?? -1)" }, expected: "50.0"),
        Setting(
            variable: "CORKBOARD_OP_BYTE_RATE", text: "1000", option: { $0.opByteRate = 1000 },
            read: { "\($0.configuration.hub.operationByteRate.map { "\($0.perSecond)/\($0.burst)" } ?? "nil")" }, expected: "1000.0/4000.0"),
        Setting(
            variable: "CORKBOARD_PRESENCE_RATE", text: "5", option: { $0.presenceRate = 5 },
            read: { "\($0.configuration.hub.presenceRate?.perSecond ?? -1)" }, expected: "5.0"),
        Setting(
            variable: "CORKBOARD_REFUSED_HELLO_RATE", text: "4", option: { $0.refusedHelloRate = 4 },
            read: { "\($0.configuration.hub.refusedHelloRate.map { "\($0.perSecond)/\($0.burst)" } ?? "nil")" }, expected: "4.0/40.0"),
        Setting(
            variable: "CORKBOARD_MAX_DRAG_ITEMS", text: "3", option: { $0.maxDragItems = 3 },
            read: { "\($0.configuration.hub.maxDragItems ?? -1)" }, expected: "3"),
        Setting(
            variable: "CORKBOARD_DRAG_BATCH_MEMBERS", text: "7", option: { $0.dragBatchMembers = 7 },
            read: { "\($0.configuration.hub.dragBatchAudience ?? -1)" }, expected: "7"),
        Setting(
            variable: "CORKBOARD_MAX_DRAG_SECONDS", text: "9", option: { $0.maxDragSeconds = 9 },
            read: { "\($0.configuration.hub.maxDragDuration.map { "\($0)" } ?? "nil")" }, expected: "\(DispatchTimeInterval.seconds(9))"),
        Setting(
            variable: "CORKBOARD_MAX_CONNECTIONS", text: "100", option: { $0.maxConnections = 100 },
            read: { "\($0.configuration.http.admission.maxConnections ?? -1)" }, expected: "100"),
        Setting(
            variable: "CORKBOARD_MAX_CONNECTIONS_PER_IP", text: "8", option: { $0.maxConnectionsPerIP = 8 },
            read: { "\($0.configuration.http.admission.maxConnectionsPerAddress ?? -1)" }, expected: "8"),
        Setting(
            variable: "CORKBOARD_TRUSTED_PROXIES", text: "127.0.0.1/32, 10.0.0.0/8,::1", option: { $0.trustedProxies = "127.0.0.1/32, 10.0.0.0/8,::1" },
            read: { $0.configuration.trustedProxies.description }, expected: "127.0.0.1/32,10.0.0.0/8,::1/128"),
        Setting(
            variable: "CORKBOARD_MAX_BOARDS", text: "2", option: { $0.maxBoards = 2 },
            read: { "\($0.configuration.hub.maxBoards ?? -1)" }, expected: "2"),
        Setting(
            variable: "CORKBOARD_MAX_ITEMS_PER_BOARD", text: "20", option: { $0.boardLimits.maxItemsPerBoard = 20 },
            read: { "\($0.configuration.hub.maxItemsPerBoard ?? -1)" }, expected: "20"),
        Setting(
            variable: "CORKBOARD_MAX_COLLECTIONS_PER_BOARD", text: "4", option: { $0.boardLimits.maxCollectionsPerBoard = 4 },
            read: { "\($0.configuration.hub.maxCollectionsPerBoard ?? -1)" }, expected: "4"),
        Setting(
            variable: "CORKBOARD_MAX_HISTORY_BYTES", text: "65536", option: { $0.maxHistoryBytes = 65536 },
            read: { "\($0.configuration.hub.historyByteBudget)" }, expected: "65536"),
        Setting(
            variable: "CORKBOARD_MAX_OUTPUT_BYTES", text: "100000", option: { $0.maxOutputBytes = 100_000 },
            read: { "\($0.configuration.maxPendingOutput)" }, expected: "100000"),
        Setting(
            variable: "CORKBOARD_HANDSHAKE_TIMEOUT", text: "3", option: { $0.handshakeTimeout = 3 },
            read: { "\($0.configuration.http.headerTimeout)" }, expected: "\(DispatchTimeInterval.seconds(3))"),
        Setting(
            variable: "CORKBOARD_HELLO_TIMEOUT", text: "4", option: { $0.helloTimeout = 4 },
            read: { "\($0.configuration.hub.helloTimeout)" }, expected: "\(DispatchTimeInterval.seconds(4))"),
        Setting(
            variable: "CORKBOARD_IDLE_TIMEOUT", text: "5", option: { $0.idleTimeout = 5 },
            read: { "\($0.configuration.http.idleTimeout)" }, expected: "\(DispatchTimeInterval.seconds(5))"),
        Setting(
            variable: "CORKBOARD_WEBHOOKS", text: "/etc/corkboard/webhooks.json", option: { $0.webhooks = "/etc/corkboard/webhooks.json" },
            read: { $0.configuration.webhooksFile ?? "nil" }, expected: "/etc/corkboard/webhooks.json"),
        Setting(
            variable: "CORKBOARD_WEBHOOK_RETRY_MAX", text: "30", option: { $0.webhookRetryMax = 30 },
            read: { "\($0.configuration.webhooks.backoff.maximum)" }, expected: "30.0"),
        Setting(
            variable: "CORKBOARD_NO_DEMO", text: "1", option: { $0.noDemo = true },
            read: { "\($0.configuration.createsDemoBoard)" }, expected: "false"),
    ]

    @Test(arguments: everySetting)
    func everySettingIsReadFromItsOptionAndFromItsVariable(_ setting: Setting) throws {
        #expect(setting.read(try settings()) != setting.expected, "the value tested is the default")
        #expect(setting.read(try settings(options(setting.option))) == setting.expected)
        #expect(setting.read(try settings(ServeOptions(), [setting.variable: setting.text])) == setting.expected)
    }

    @Test func theOptionWinsOverTheVariable() throws {
        let settings = try settings(
            options {
                $0.port = 9001
                $0.host = "0.0.0.0"
                $0.maxBoards = 3
            },
            ["CORKBOARD_PORT": "9002", "CORKBOARD_HOST": "::", "CORKBOARD_MAX_BOARDS": "x"])
        #expect(settings.configuration.port == 9001 && settings.configuration.host == "0.0.0.0" && settings.configuration.hub.maxBoards == 3)
    }

    @Test func trustedProxiesFromTheOptionWinAndNoneIsEmpty() throws {
        let given = try settings(options { $0.trustedProxies = "::1" }, ["CORKBOARD_TRUSTED_PROXIES": "not a block"])
        #expect(given.configuration.trustedProxies.description == "::1/128")
        #expect(try settings(ServeOptions(), ["CORKBOARD_TRUSTED_PROXIES": ""]).configuration.trustedProxies.isEmpty)
        #expect(try settings(options { $0.trustedProxies = "" }).configuration.trustedProxies.isEmpty)
    }

    @Test func anEmptyVariableIsUnset() throws {
        let settings = try settings(ServeOptions(), ["CORKBOARD_PORT": "", "CORKBOARD_STORE": "", "CORKBOARD_NO_DEMO": ""])
        #expect(settings.configuration.port == 8080 && settings.configuration.store == .sqlite && settings.configuration.createsDemoBoard)
    }

    /// The one exception: an empty web root, as an option or a variable, serves the API only
    /// (before 0.25 the variable fell back to `web`).
    @Test func anEmptyWebRootVariableServesTheAPIOnly() throws {
        #expect(try settings(ServeOptions(), ["CORKBOARD_WEB_ROOT": ""]).configuration.webRoot == nil)
        #expect(try settings(options { $0.webRoot = "" }).configuration.webRoot == nil)
        #expect(try settings(ServeOptions(), [:]).configuration.webRoot == "web")
    }

    @Test func aFlagVariableCountsOnlyAsOne() throws {
        #expect(try settings(ServeOptions(), ["CORKBOARD_NO_DEMO": "yes"]).configuration.createsDemoBoard)
        #expect(try settings(ServeOptions(), ["CORKBOARD_NO_DEMO": "true"]).configuration.createsDemoBoard)
    }

    @Test func zeroTurnsLimitsAndRatesOff() throws {
        let hub = try settings(
            options {
                $0.maxBoards = 0
                $0.boardLimits = BoardLimitValues(maxItemsPerBoard: 0, maxCollectionsPerBoard: 0)
                $0.opRate = 0
                $0.opByteRate = 0
                $0.presenceRate = 0
                $0.refusedHelloRate = 0
                $0.maxDragItems = 0
                $0.dragBatchMembers = 0
                $0.maxDragSeconds = 0
            }
        ).configuration.hub
        #expect(hub.maxBoards == nil && hub.maxItemsPerBoard == nil && hub.maxCollectionsPerBoard == nil)
        #expect(hub.operationRate == nil && hub.operationByteRate == nil && hub.presenceRate == nil && hub.refusedHelloRate == nil)
        #expect(hub.maxDragItems == nil && hub.maxDragDuration == nil && hub.dragBatchAudience == nil)
        let admission = try settings(ServeOptions(), ["CORKBOARD_MAX_CONNECTIONS": "0", "CORKBOARD_MAX_CONNECTIONS_PER_IP": "0"])
            .configuration.http.admission
        #expect(admission.maxConnections == nil && admission.maxConnectionsPerAddress == nil)
    }

    @Test func bothTLSFilesMakeAnHTTPSServer() throws {
        let tls = try settings(options { $0.tlsCert = "cert.pem" }, ["CORKBOARD_TLS_KEY": "key.pem"]).configuration.tls
        #expect(tls?.certificate == "cert.pem" && tls?.privateKey == "key.pem")
        #expect(refusal(options { $0.tlsCert = "cert.pem" }) == .certificateWithoutKey)
        #expect(refusal(ServeOptions(), ["CORKBOARD_TLS_KEY": "key.pem"]) == .keyWithoutCertificate)
        #expect(ServeSettingError.certificateWithoutKey.description == "--tls-cert needs --tls-key (the certificate's private key)")
    }

    @Test func tokenFilesAndSecretsAreTakenForTheServerToRead() throws {
        // Read by the server when it starts (a refused file is exit 1, like a bad certificate) and on SIGHUP.
        let server = try settings(
            options { $0.tokenSecretFile = "secrets" }, ["CORKBOARD_TOKENS": "tokens.json", "CORKBOARD_TOKEN_SECRET": "s"]
        ).configuration
        #expect(server.tokenFile == "tokens.json" && server.tokenSecretFile == "secrets" && server.tokenSecrets == ["s"])
        #expect(server.access is OpenAccess)
    }

    @Test func tokenKeyFilesAreTakenFromOptionsOrTheEnvironment() throws {
        let fromEnvironment = try settings(
            ServeOptions(), ["CORKBOARD_TOKEN_PUBLIC_KEY_FILE": "keys.pem", "CORKBOARD_TOKEN_JWKS_FILE": "jwks.json"]
        ).configuration
        #expect(fromEnvironment.tokenPublicKeyFile == "keys.pem" && fromEnvironment.tokenJWKSFile == "jwks.json")
        let fromOptions = try settings(
            options {
                $0.tokenPublicKeyFile = "mine.pem"
                $0.tokenJWKSFile = "mine.json"
            }, ["CORKBOARD_TOKEN_PUBLIC_KEY_FILE": "keys.pem", "CORKBOARD_TOKEN_JWKS_FILE": "jwks.json"]
        ).configuration
        #expect(fromOptions.tokenPublicKeyFile == "mine.pem" && fromOptions.tokenJWKSFile == "mine.json")
        let neither = try settings(ServeOptions(), [:]).configuration
        #expect(neither.tokenPublicKeyFile == nil && neither.tokenJWKSFile == nil)
    }

    @Test func postgresNeedsADatabase() throws {
        #expect(refusal(options { $0.store = "postgres" }) == .postgresWithoutDatabaseURL)
        #expect(try settings(options { $0.store = "postgres" }, ["CORKBOARD_DATABASE_URL": "dbname=x"]).configuration.store == .postgres)
    }

    @Test func deflateOffRemovesTheExtension() throws {
        let server = try settings(options { $0.deflate = "off" }).configuration
        #expect(server.deflate.mode == .off && server.webSocket.extensions == nil)
    }

    /// What is refused and the line that says so: the values a person mistypes.
    @Test(arguments: [
        (["CORKBOARD_PORT": "eighty"], "environment variable CORKBOARD_PORT='eighty' is not a whole number in 0...65535"),
        (["CORKBOARD_PORT": "70000"], "environment variable CORKBOARD_PORT='70000' is not a whole number in 0...65535"),
        (
            ["CORKBOARD_MAX_CONNECTIONS": "x"],
            "environment variable CORKBOARD_MAX_CONNECTIONS='x' is not a whole number in \(Int.min)...\(Int.max)"
        ),
        (
            ["CORKBOARD_MAX_ITEMS_PER_BOARD": "1.5"],
            "environment variable CORKBOARD_MAX_ITEMS_PER_BOARD='1.5' is not a whole number in \(Int.min)...\(Int.max)"
        ),
        (["CORKBOARD_DEFLATE": "fast"], "deflate mode 'fast' is not one of memory, speed, off"),
        (["CORKBOARD_STORE": "mysql"], "store 'mysql' is not one of sqlite, memory, postgres"),
        (["CORKBOARD_SYNC": "off"], "sync 'off' is not one of full, normal"),
        (["CORKBOARD_LOG_LEVEL": "verbose"], "log level 'verbose' is not one of trace, debug, info, notice, warning, error, critical"),
        (["CORKBOARD_STORE": "postgres"], "--store postgres needs --database-url (or CORKBOARD_DATABASE_URL)"),
        (["CORKBOARD_TLS_KEY": "k"], "--tls-key needs --tls-cert (the certificate it belongs to)"),
        (["CORKBOARD_MAX_BOARDS": "-1"], "--max-boards must be 0 (no limit) or a positive number"),
        (["CORKBOARD_MAX_CONNECTIONS": "-1"], "--max-connections must be 0 (no limit) or a positive number"),
        (["CORKBOARD_MAX_CONNECTIONS_PER_IP": "-1"], "--max-connections-per-ip must be 0 (no limit) or a positive number"),
        (
            ["CORKBOARD_TRUSTED_PROXIES": "127.0.0.1/32, proxy.internal"],
            "--trusted-proxies: 'proxy.internal' is not an IPv4 or IPv6 address or CIDR block (e.g. 10.0.0.0/8, ::1/128)"
        ),
        (
            ["CORKBOARD_TRUSTED_PROXIES": "10.0.0.0/33"],
            "--trusted-proxies: '10.0.0.0/33' is not an IPv4 or IPv6 address or CIDR block (e.g. 10.0.0.0/8, ::1/128)"
        ),
        (["CORKBOARD_MAX_ITEMS_PER_BOARD": "-1"], "--max-items-per-board must be 0 (no limit) or a positive number"),
        (["CORKBOARD_MAX_COLLECTIONS_PER_BOARD": "-2"], "--max-collections-per-board must be 0 (no limit) or a positive number"),
        (["CORKBOARD_MAX_DRAG_ITEMS": "-1"], "--max-drag-items must be 0 (no limit) or a positive number"),
        (["CORKBOARD_MAX_DRAG_SECONDS": "-1"], "--max-drag-seconds must be 0 (no limit) or a positive number"),
        (["CORKBOARD_OP_RATE": "-1"], "--op-rate must be 0 (no limit) or a number of messages per second"),
        (["CORKBOARD_PRESENCE_RATE": "-5"], "--presence-rate must be 0 (no limit) or a number of messages per second"),
        (["CORKBOARD_OP_BYTE_RATE": "-1"], "--op-byte-rate must be 0 (no limit) or a number of bytes per second"),
        (["CORKBOARD_HANDSHAKE_TIMEOUT": "0"], "--handshake-timeout must be at least 1 second"),
        (["CORKBOARD_HELLO_TIMEOUT": "0"], "--hello-timeout must be at least 1 second"),
        (["CORKBOARD_IDLE_TIMEOUT": "-3"], "--idle-timeout must be at least 1 second"),
        (["CORKBOARD_LOOPS": "0"], "--loops must be at least 1"),
        (["CORKBOARD_MAX_MESSAGE_BYTES": "124"], "--max-message-bytes must be at least 125"),
        (["CORKBOARD_MAX_HISTORY_BYTES": "65535"], "--max-history-bytes must be at least 65536"),
        (["CORKBOARD_MAX_OUTPUT_BYTES": "10"], "--max-output-bytes must be at least 65536"),
    ])
    func badValuesAreRefusedWithTheirReason(_ variables: [String: String], _ reason: String) {
        #expect(refusal(ServeOptions(), variables)?.description == reason)
    }

    @Test func badOptionsAreRefusedAsTheirVariablesAre() {
        #expect(refusal(options { $0.maxOutputBytes = 10 }) == .belowMinimum(option: "--max-output-bytes", minimum: 65536))
        #expect(refusal(options { $0.helloTimeout = 0 }) == .timeoutUnderOneSecond(option: "--hello-timeout"))
        #expect(refusal(options { $0.boardLimits.maxCollectionsPerBoard = -2 }) == .negativeLimit(option: "--max-collections-per-board"))
        #expect(refusal(options { $0.opByteRate = -1 }) == .negativeByteRate(option: "--op-byte-rate"))
        #expect(refusal(options { $0.presenceRate = -1 }) == .negativeRate(option: "--presence-rate"))
        #expect(refusal(options { $0.store = "disk" }) == .unknownStore("disk"))
        #expect(refusal(options { $0.trustedProxies = "::1/200" }) == .malformedTrustedProxy("::1/200"))
        #expect(refusal(options { $0.webhookRetryMax = 0 }) == .belowMinimum(option: "--webhook-retry-max", minimum: 1))
        #expect(
            refusal(
                options {
                    $0.loops = 0
                    $0.logLevel = "loud"
                }) == .unknownLogLevel("loud"), "unreadable values come first")
    }

    @Test func importReadsTheBoardLimitsAsServeDoes() throws {
        var hub = HubConfiguration()
        try BoardLimitValues().apply(to: &hub, environment: EnvironmentSettings(["CORKBOARD_MAX_ITEMS_PER_BOARD": "5"]))
        #expect(hub.maxItemsPerBoard == 5 && hub.maxCollectionsPerBoard == 1_000)
        try BoardLimitValues(maxCollectionsPerBoard: 0).apply(to: &hub, environment: EnvironmentSettings([:]))
        #expect(hub.maxItemsPerBoard == 5 && hub.maxCollectionsPerBoard == nil)
        #expect(throws: ServeSettingError.negativeLimit(option: "--max-items-per-board")) {
            try BoardLimitValues(maxItemsPerBoard: -1).apply(to: &hub, environment: EnvironmentSettings([:]))
        }
    }
}
