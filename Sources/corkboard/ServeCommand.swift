import ArgumentParser
import CorkboardHub
import CorkboardServer
import CorkboardSQLite
import Dispatch
import Foundation
import Logging
import Sockets
import TLS
import WebSocketDeflate

/// `corkboard serve`: parses options (each also readable from a CORKBOARD_ variable), starts, waits for a signal.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Corkboard server.",
        discussion: "Every option can also be set with the environment variable named in its help; an option on the command line wins.")

    @Option(help: "Address to listen on: a host name, an IPv4 or an IPv6 address (env: CORKBOARD_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "TCP port; 0 picks a free one (env: CORKBOARD_PORT; default 8080).")
    var port: UInt16?

    @Option(help: "Serve HTTPS and wss:// with this certificate chain (PEM, the server's certificate first); needs --tls-key. Reloaded on SIGHUP (env: CORKBOARD_TLS_CERT).")
    var tlsCert: String?

    @Option(help: "The private key of --tls-cert (PEM, not encrypted). Reloaded on SIGHUP (env: CORKBOARD_TLS_KEY).")
    var tlsKey: String?

    @Option(help: "Folder of the browser client (env: CORKBOARD_WEB_ROOT; default web).")
    var webRoot: String?

    @Option(help: "Folder for the server's data (env: CORKBOARD_DATA; default ./data).")
    var data: String?

    @Option(help: "I/O loops to spread connections over (env: CORKBOARD_LOOPS; default: one per core).")
    var loops: Int?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env: CORKBOARD_LOG_LEVEL; default info).")
    var logLevel: String?

    @Option(help: "Largest WebSocket message in bytes; larger ones close the connection with 1009 (env: CORKBOARD_MAX_MESSAGE_BYTES; default 1048576).")
    var maxMessageBytes: Int?

    @Option(help: "Comma-separated origins whose pages may open WebSockets; others get 403. Unset: any (env: CORKBOARD_ALLOWED_ORIGINS).")
    var allowedOrigins: String?

    @Option(help: "permessage-deflate: memory (no context takeover, small windows, compress broadcasts once), speed (full windows and context: best ratio, ~300 KiB per connection) or off (env: CORKBOARD_DEFLATE; default memory).")
    var deflate: String?

    @Option(help: "Smallest message in bytes worth compressing (env: CORKBOARD_DEFLATE_THRESHOLD; default 128).")
    var deflateThreshold: Int?

    @Option(help: "Where boards are kept: sqlite (corkboard.sqlite in the data folder), postgres (shared by several nodes; needs --database-url) or memory (gone when the server stops) (env: CORKBOARD_STORE; default sqlite).")
    var store: String?

    @Option(help: "The PostgreSQL database of --store postgres: a postgres:// URL or libpq connection string (env: CORKBOARD_DATABASE_URL).")
    var databaseUrl: String?

    @Option(help: "SQLite durability: full (fsync at every commit: survives power loss) or normal (survives a crash of the server, not of the machine) (env: CORKBOARD_SYNC; default full).")
    var sync: String?

    @Option(help: "JSON file of tokens and the role each grants, per board or on all (see docs/protocol.md). Unset: open mode, everyone is owner (env: CORKBOARD_TOKENS).")
    var tokens: String?

    @Option(help: "Operations per second one connection (or one HTTP client address) may send; more are rejected rate-limited, to be retried. 0: no limit (env: CORKBOARD_OP_RATE; default 2000).")
    var opRate: Int?

    @Option(help: "Bytes of operation messages per second one connection (or one HTTP client address) may send, in bursts of four seconds' worth; more are rejected rate-limited, to be retried. 0: no limit (env: CORKBOARD_OP_BYTE_RATE; default 1048576).")
    var opByteRate: Int?

    @Option(help: "Presence messages per second of one connection handed to its board: more drag.over are coalesced, more drag.start rejected rate-limited; drag.end is always taken. 0: no limit (env: CORKBOARD_PRESENCE_RATE; default 60).")
    var presenceRate: Int?

    @Option(help: "Items one drag.start may hold (more: rejected invalid), and items one connection's drag starts may name per second (more: rejected rate-limited). 0: no limit (env: CORKBOARD_MAX_DRAG_ITEMS; default 1000).")
    var maxDragItems: Int?

    @Option(help: "Seconds one drag may hold its items, drag.over or not; then it is cleared for everyone, holder included, with reason expired. 0: no limit (env: CORKBOARD_MAX_DRAG_SECONDS; default 120).")
    var maxDragSeconds: Int?

    @Option(help: "Connections held open at once; more are answered 503 and closed. 0: no limit (env: CORKBOARD_MAX_CONNECTIONS; default 20000).")
    var maxConnections: Int?

    @Option(help: "Connections from one client address; more are answered 503. Never applied to loopback clients. 0: off (env: CORKBOARD_MAX_CONNECTIONS_PER_IP; default off).")
    var maxConnectionsPerIp: Int?

    @Option(help: "Boards the server holds; creating more is refused with 507. 0: no limit (env: CORKBOARD_MAX_BOARDS; default 10000).")
    var maxBoards: Int?

    @OptionGroup var boardLimits: BoardLimitOptions

    @Option(help: "About how many bytes of committed events each board keeps, in memory and in its stored log, beside the last 100,000 events; the oldest are folded into the snapshot beyond it (env: CORKBOARD_MAX_HISTORY_BYTES; default 67108864, at least 65536).")
    var maxHistoryBytes: Int?

    @Option(help: "Unwritten bytes a client that does not read may hold before it is disconnected (env: CORKBOARD_MAX_OUTPUT_BYTES; default 4194304).")
    var maxOutputBytes: Int?

    @Option(help: "Seconds a connection has to send a complete request head, the WebSocket handshake included; then 408 (env: CORKBOARD_HANDSHAKE_TIMEOUT; default 10).")
    var handshakeTimeout: Int?

    @Option(help: "Seconds a new WebSocket has to send hello; then error and close 1008 (env: CORKBOARD_HELLO_TIMEOUT; default 10).")
    var helloTimeout: Int?

    @Option(help: "Seconds an idle keep-alive HTTP connection stays open, and an HTTP client may take no byte of its response before it is dropped (env: CORKBOARD_IDLE_TIMEOUT; default 60).")
    var idleTimeout: Int?

    @Flag(help: "Do not create the demo board on a first start with an empty store (env: CORKBOARD_NO_DEMO=1).")
    var noDemo = false

    @Flag(help: "Serve the test WebSockets /ws/echo (Autobahn|Testsuite) and /ws/broadcast (benchmarks); not for production (env: CORKBOARD_ECHO_ENDPOINT=1).")
    var echoEndpoint = false

    func run() throws {
        // Measured: about 0.8 KiB less per idle connection (docs/benchmarks.md).
        ProcessMemory.limitMallocArenas(to: 2)
        let environment = EnvironmentSettings(ProcessInfo.processInfo.environment)
        var settings = ServerConfiguration()
        let level: Logger.Level
        do {
            settings.host = host ?? environment.string("CORKBOARD_HOST") ?? settings.host
            settings.port = try port ?? environment.integer("CORKBOARD_PORT") ?? settings.port
            switch (tlsCert ?? environment.string("CORKBOARD_TLS_CERT"), tlsKey ?? environment.string("CORKBOARD_TLS_KEY")) {
            case (let certificate?, let key?): settings.tls = TLSCertificateFiles(certificate: certificate, privateKey: key)
            case (nil, nil): settings.tls = nil
            case (_?, nil): throw ValidationError("--tls-cert needs --tls-key (the certificate's private key)")
            case (nil, _?): throw ValidationError("--tls-key needs --tls-cert (the certificate it belongs to)")
            }
            settings.webRoot = webRoot ?? environment.string("CORKBOARD_WEB_ROOT") ?? settings.webRoot
            settings.dataDirectory = data ?? environment.string("CORKBOARD_DATA") ?? settings.dataDirectory
            settings.loopCount = try loops ?? environment.integer("CORKBOARD_LOOPS") ?? settings.loopCount
            settings.webSocket.maxMessageSize = try maxMessageBytes ?? environment.integer("CORKBOARD_MAX_MESSAGE_BYTES")
                ?? settings.webSocket.maxMessageSize
            if let origins = allowedOrigins ?? environment.string("CORKBOARD_ALLOWED_ORIGINS") {
                settings.webSocket.allowedOrigins = Set(origins.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            }
            let deflateName = deflate ?? environment.string("CORKBOARD_DEFLATE") ?? "memory"
            guard let deflateMode = DeflateConfiguration.Mode(rawValue: deflateName) else {
                throw ValidationError("deflate mode '\(deflateName)' is not one of memory, speed, off")
            }
            let threshold = try deflateThreshold ?? environment.integer("CORKBOARD_DEFLATE_THRESHOLD") ?? DeflateConfiguration().minimumSize
            settings.deflate = DeflateConfiguration(mode: deflateMode, minimumSize: threshold)
            let storeName = store ?? environment.string("CORKBOARD_STORE") ?? settings.store.rawValue
            guard let storeKind = StoreKind(rawValue: storeName) else {
                throw ValidationError("store '\(storeName)' is not one of \(StoreKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            settings.store = storeKind
            settings.databaseURL = databaseUrl ?? environment.string("CORKBOARD_DATABASE_URL")
            if storeKind == .postgres && settings.databaseURL == nil {
                throw ValidationError("--store postgres needs --database-url (or CORKBOARD_DATABASE_URL)")
            }
            let syncName = sync ?? environment.string("CORKBOARD_SYNC") ?? settings.sync.rawValue
            guard let syncMode = SyncMode(rawValue: syncName) else {
                throw ValidationError("sync '\(syncName)' is not one of full, normal")
            }
            settings.sync = syncMode
            if let path = tokens ?? environment.string("CORKBOARD_TOKENS") {
                do {
                    settings.access = try TokenFile(contentsOf: path)
                } catch {
                    throw ValidationError("token file: \(error)")
                }
                // Read again on SIGHUP.
                settings.tokenFile = path
            }
            settings.http.admission.maxConnections = try limit(
                maxConnections ?? environment.integer("CORKBOARD_MAX_CONNECTIONS"), "--max-connections",
                default: settings.http.admission.maxConnections)
            settings.http.admission.maxConnectionsPerAddress = try limit(
                maxConnectionsPerIp ?? environment.integer("CORKBOARD_MAX_CONNECTIONS_PER_IP"), "--max-connections-per-ip",
                default: settings.http.admission.maxConnectionsPerAddress)
            settings.hub.maxBoards = try limit(
                maxBoards ?? environment.integer("CORKBOARD_MAX_BOARDS"), "--max-boards", default: settings.hub.maxBoards)
            try boardLimits.apply(to: &settings.hub, environment: environment)
            settings.maxPendingOutput = try maxOutputBytes ?? environment.integer("CORKBOARD_MAX_OUTPUT_BYTES") ?? settings.maxPendingOutput
            if let seconds = try seconds(handshakeTimeout ?? environment.integer("CORKBOARD_HANDSHAKE_TIMEOUT"), "--handshake-timeout") {
                settings.http.headerTimeout = seconds
            }
            if let seconds = try seconds(helloTimeout ?? environment.integer("CORKBOARD_HELLO_TIMEOUT"), "--hello-timeout") {
                settings.hub.helloTimeout = seconds
            }
            if let seconds = try seconds(idleTimeout ?? environment.integer("CORKBOARD_IDLE_TIMEOUT"), "--idle-timeout") {
                settings.http.idleTimeout = seconds
            }
            settings.hub.operationRate = try rate(opRate ?? environment.integer("CORKBOARD_OP_RATE"), "--op-rate", default: settings.hub.operationRate)
            if let bytes = try opByteRate ?? environment.integer("CORKBOARD_OP_BYTE_RATE") {
                guard bytes >= 0 else { throw ValidationError("--op-byte-rate must be 0 (no limit) or a number of bytes per second") }
                settings.hub.operationByteRate = bytes == 0 ? nil : HubConfiguration.byteRate(perSecond: bytes)
            }
            settings.hub.historyByteBudget = try maxHistoryBytes ?? environment.integer("CORKBOARD_MAX_HISTORY_BYTES")
                ?? settings.hub.historyByteBudget
            settings.hub.presenceRate = try rate(
                presenceRate ?? environment.integer("CORKBOARD_PRESENCE_RATE"), "--presence-rate", default: settings.hub.presenceRate)
            settings.hub.maxDragItems = try limit(
                maxDragItems ?? environment.integer("CORKBOARD_MAX_DRAG_ITEMS"), "--max-drag-items", default: settings.hub.maxDragItems)
            if let value = try maxDragSeconds ?? environment.integer("CORKBOARD_MAX_DRAG_SECONDS") {
                settings.hub.maxDragDuration = try limit(value, "--max-drag-seconds", default: nil).map { .seconds($0) }
            }
            settings.createsDemoBoard = !(noDemo || environment.string("CORKBOARD_NO_DEMO") == "1")
            settings.echoEndpoint = echoEndpoint || environment.string("CORKBOARD_ECHO_ENDPOINT") == "1"
            let levelName = logLevel ?? environment.string("CORKBOARD_LOG_LEVEL") ?? "info"
            guard let parsed = Logger.Level(rawValue: levelName) else {
                throw ValidationError("log level '\(levelName)' is not one of trace, debug, info, notice, warning, error, critical")
            }
            level = parsed
        } catch let error as EnvironmentSettings.InvalidValue {
            throw ValidationError(error.description)
        }
        guard settings.loopCount > 0 else { throw ValidationError("--loops must be at least 1") }
        guard settings.webSocket.maxMessageSize >= 125 else { throw ValidationError("--max-message-bytes must be at least 125") }
        guard settings.hub.historyByteBudget >= 64 * 1024 else { throw ValidationError("--max-history-bytes must be at least 65536") }
        guard settings.maxPendingOutput >= 64 * 1024 else { throw ValidationError("--max-output-bytes must be at least 65536") }

        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "corkboard")
        ProcessSignals.ignoreBrokenPipe()

        let server: CorkboardServer
        do {
            server = try CorkboardServer(configuration: settings, logger: logger)
        } catch let error as StartupError {
            fail(error)
        }
        // Signal handling is in place before the "listening" line, so a supervisor (or a test)
        // that signals as soon as it reads that line is never lost.
        let stopping = ShutdownLatch()
        let signals = ProcessSignals.observe([SIGINT, SIGTERM], on: .main) { _ in
            // A second signal while draining means "now".
            guard stopping.begin() else { Foundation.exit(1) }
            server.shutdown { Foundation.exit(0) }
        }
        // SIGHUP: re-read what can change without a restart (the token file, the TLS certificate), in one place.
        let reloads = ProcessSignals.observe([SIGHUP], on: .main) { _ in server.reload() }
        let address: SocketAddress
        do {
            address = try server.start()
        } catch let error as StartupError {
            fail(error)
        }
        // A stable line on standard output for scripts and tests that started us with port 0.
        FileHandle.standardOutput.write(Data("corkboard listening on \(server.scheme)://\(address)\n".utf8))
        withExtendedLifetime((signals, reloads)) { dispatchMain() }
    }
}

/// A per-second rate option: nil keeps the default, 0 turns the limit off.
private func rate(_ value: Int?, _ option: String, default defaultRate: RateLimit?) throws -> RateLimit? {
    guard let value else { return defaultRate }
    guard value >= 0 else { throw ValidationError("\(option) must be 0 (no limit) or a number of messages per second") }
    return value == 0 ? nil : RateLimit(perSecond: Double(value))
}

/// A count limit option: nil keeps the default, 0 turns the limit off.
func limit(_ value: Int?, _ option: String, default defaultLimit: Int?) throws -> Int? {
    guard let value else { return defaultLimit }
    guard value >= 0 else { throw ValidationError("\(option) must be 0 (no limit) or a positive number") }
    return value == 0 ? nil : value
}

/// A timeout option in whole seconds (at least 1); nil keeps the default.
private func seconds(_ value: Int?, _ option: String) throws -> DispatchTimeInterval? {
    guard let value else { return nil }
    guard value >= 1 else { throw ValidationError("\(option) must be at least 1 second") }
    return .seconds(value)
}

/// One line on standard error, exit status 1: what a person or a script can act on.
func fail(_ error: some Error & CustomStringConvertible) -> Never {
    FileHandle.standardError.write(Data("corkboard: error: \(error)\n".utf8))
    Foundation.exit(1)
}

/// Remembers that shutdown began. Only touched on the main queue, where signals are delivered.
final class ShutdownLatch: @unchecked Sendable {
    private var started = false
    func begin() -> Bool {
        defer { started = true }
        return !started
    }
}
