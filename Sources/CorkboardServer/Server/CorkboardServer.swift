import CorkboardHub
import CorkboardPostgres
import CorkboardSQLite
import CorkboardStore
import Dispatch
import Glibc
import HTTP
import Logging
import Sockets
import Synchronization
import TLS

/// The Corkboard server: its routes on an HTTP server, its start and its graceful stop.
public final class CorkboardServer: Sendable {
    public let configuration: ServerConfiguration
    private let http: HTTPServer
    let logger: Logger
    /// The TLS certificate in use, reloaded by `reload()`; nil when serving plain HTTP.
    let certificate: ServerCertificate?
    public let hub: Hub
    let metrics: ServerMetrics
    private let store: BoardStore
    private let readiness = Readiness()
    /// Delivers the webhooks; nil for a store that keeps none (a test's failing store).
    let webhooks: WebhookDeliverer?

    /// Checks the configuration (web root, data folder) without binding anything yet.
    /// `store` replaces the one `configuration.store` names (tests use it to play a failing disk).
    ///
    /// `addingRoutes` lets a program that embeds the server serve routes of its own beside the
    /// server's: it is called once, here, with the router once it holds every route of the
    /// server. They are added after the server's, and the router takes the first route that
    /// matches, so a path the server serves stays the server's; they go through the same
    /// connections, limits, access log and per-route metrics. `corkboard-bench serve` adds its
    /// test WebSockets (`/ws/echo`, `/ws/broadcast`) this way; `corkboard serve` adds none.
    public init(
        configuration: ServerConfiguration, logger: Logger, store: BoardStore? = nil, addingRoutes: (inout Router) -> Void = { _ in }
    ) throws {
        self.configuration = configuration
        self.logger = logger
        let staticFiles: StaticFiles?
        do {
            staticFiles = try configuration.webRoot.map { try StaticFiles(root: $0) }
        } catch {
            throw StartupError.webRootMissing(configuration.webRoot ?? "")
        }
        // Before the store is opened: a wrong certificate path should not lock the data folder.
        do {
            certificate = try configuration.tls.map { files throws(TLSError) in try ServerCertificate(files: files) }
        } catch {
            throw StartupError.tlsUnusable(error.description)
        }
        if configuration.store == .sqlite { try Self.prepareDataDirectory(configuration.dataDirectory) }
        let store = try store ?? Self.makeStore(configuration, logger: logger)
        self.store = store
        let metrics = ServerMetrics()
        self.metrics = metrics
        let traffic = TrafficCounters()
        var access = configuration.access
        do {
            if let tokens = try ServerAccess.load(configuration) { access = tokens }
        } catch {
            throw StartupError.tokenFileUnusable(error.description)
        }
        hub = Hub(
            store: store, access: access,
            configuration: configuration.hub, logger: logger, metrics: metrics.factory)
        try Self.putRevocationsInForce(configuration, hub: hub)
        webhooks = try Self.makeWebhooks(configuration, store: store, metrics: metrics, logger: logger)
        var httpConfiguration = configuration.http
        if configuration.accessLog {
            // Its own label, so that it can be told apart (and filtered) in the log; the
            // server's level, so that a quiet server is quiet here too.
            var accessLogger = Logger(label: "corkboard.access")
            accessLogger.logLevel = logger.logLevel
            httpConfiguration.accessLog = AccessLog(logger: accessLogger)
        }
        if !configuration.trustedProxies.isEmpty {
            let trusted = configuration.trustedProxies
            httpConfiguration.forwardedClient = { request in
                // No header, nothing forwarded: the peer's host is not even looked up.
                let forwardedFor = request.headers.values("X-Forwarded-For")
                guard !forwardedFor.isEmpty, let peer = request.remoteAddress else { return nil }
                return trusted.forwardedClient(peer: peer.host, forwardedFor: forwardedFor)
            }
        }
        let router = Routes.make(
            configuration: configuration, staticFiles: staticFiles, hub: hub, metrics: metrics, traffic: traffic, readiness: readiness,
            webhooks: webhooks, addingRoutes: addingRoutes)
        http = HTTPServer(
            router: router, configuration: httpConfiguration,
            loops: IOLoopGroup(count: configuration.loopCount, clock: configuration.loopClock),
            connectionLimits: Connection.Limits(maxPendingOutput: configuration.maxPendingOutput),
            counters: traffic, transport: certificate?.sessions, logger: logger)
    }

    /// Binds and starts serving; returns the bound address (the real port when the port is 0).
    @discardableResult
    public func start() throws -> SocketAddress {
        let (host, port) = (configuration.host, configuration.port)
        let createdDemo = configuration.createsDemoBoard ? try createDemoBoard() : false
        // Before the port opens: what is committed from the first request on reaches them.
        if let problem = webhooks?.startFileEndpoints() { throw StartupError.webhooksUnusable(problem) }
        do {
            let address = try http.start(host: host, port: port)
            logger.info("serving \(configuration.webRoot ?? "the API only (no web root)") on \(scheme)://\(address)")
            if createdDemo { logger.info("created the demo board \"\(DemoBoard.board.id)\"") }
            webhooks?.start()
            return address
        } catch let error as SocketError where error.isAddressInUse {
            throw StartupError.addressInUse(host: host, port: port)
        } catch {
            throw StartupError.cannotListen(host: host, port: port, reason: "\(error)")
        }
    }

    public var connectionCount: Int { http.connectionCount }

    /// `https` with TLS, else `http`: how the address is written for people and scripts.
    public var scheme: String { certificate == nil ? "http" : "https" }

    /// Answers `/readyz` with 503 for `drainDelay` while serving on, then stops accepting,
    /// finishes responses in flight, closes every connection, and calls `completion`. A
    /// second call while draining means now.
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        guard readiness.beginDraining(), case .seconds(let seconds) = configuration.drainDelay, seconds > 0 else {
            return stop(completion: completion)
        }
        logger.info("draining: /readyz answers 503, stopping in \(seconds) s")
        DispatchQueue.global().asyncAfter(deadline: .now() + configuration.drainDelay) { self.stop(completion: completion) }
    }

    private func stop(completion: @escaping @Sendable () -> Void) {
        logger.info("shutting down")
        webhooks?.stop()
        http.shutdown(grace: configuration.shutdownGrace) { [store] in
            // Every connection is closed: no new operation can reach the store. Batches
            // already handed to it are written before it lets go of its files.
            store.close()
            completion()
        }
    }

    private static func makeStore(_ configuration: ServerConfiguration, logger: Logger) throws(StartupError) -> BoardStore {
        switch configuration.store {
        case .memory:
            return MemoryStore(retainedEvents: configuration.hub.historyCapacity, historyByteBudget: configuration.hub.historyByteBudget)
        case .sqlite:
            do {
                return try SQLiteStore(
                    directory: configuration.dataDirectory, syncMode: configuration.sync,
                    retainedEvents: configuration.hub.historyCapacity, historyByteBudget: configuration.hub.historyByteBudget)
            } catch {
                throw .storeUnusable(error.description)
            }
        case .postgres:
            guard let url = configuration.databaseURL else { throw .storeUnusable("--store postgres needs --database-url") }
            do {
                var postgres = PostgresStore.Configuration(url: url, retainedEvents: configuration.hub.historyCapacity)
                postgres.historyByteBudget = configuration.hub.historyByteBudget
                postgres.waiting = { line in logger.notice("\(line)") }
                return try PostgresStore.open(postgres)
            } catch {
                throw .storeUnusable("\(error)")
            }
        }
    }

    /// The demo board, when the store holds none yet; done before the port opens, so the
    /// first page a new user loads already shows it. Returns whether it was created.
    private func createDemoBoard() throws -> Bool {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Bool, HubError>?>(nil)
        hub.createIfEmpty(DemoBoard.board) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + 30) == .success, let result = outcome.withLock({ $0 }) else {
            throw StartupError.storeUnusable("the store did not answer within 30 s")
        }
        switch result {
        case .success(let created): return created
        case .failure(let error): throw StartupError.storeUnusable("\(error)")
        }
    }

    private static func prepareDataDirectory(_ path: String) throws {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o755) != 0 && errno != EEXIST {
                throw StartupError.dataDirectoryUnusable(path, reason: String(cString: strerror(errno)))
            }
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw StartupError.dataDirectoryUnusable(path, reason: String(cString: strerror(errno)))
        }
    }
}
