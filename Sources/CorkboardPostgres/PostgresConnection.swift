import CPostgres
import Dispatch
import Foundation

/// One SQL statement and its parameters, sent in text format (nil is NULL).
public struct PostgresStatement: Sendable, Hashable {
    public var sql: String
    public var parameters: [String?]

    public init(_ sql: String, _ parameters: [String?] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}

/// One libpq connection, non-blocking and in pipeline mode, driven by Dispatch sources on
/// `PQsocket`: statements are sent without waiting for the ones before them, and each
/// `execute` call is one group closed by a sync point, so its statements run as one
/// implicit transaction and fail or succeed together.
///
/// When the connection breaks (or a reply is overdue), every group in flight fails with
/// `.connection` and the connection reconnects by itself with a growing delay; `onState`
/// hears both. Nothing is retried here: whoever executed decides.
///
/// Confinement: every `var` is touched only on `queue` (a serial queue of its own), which
/// is what makes `@unchecked Sendable` true. libpq's `PGconn` is used on that queue only.
final class PostgresConnection: @unchecked Sendable {
    enum State: Sendable, Equatable {
        case ready
        case lost(String)
    }

    struct Settings: Sendable {
        /// A libpq connection string or `postgres://` URL.
        var url: String
        var applicationName = "corkboard"
        /// Longest wait for a connection, and for the oldest reply in flight.
        var connectTimeout: Double = 5
        var replyTimeout: Double = 10
        var maxReconnectDelay: Double = 2
    }

    /// Why a group did not run, and which of its statements the server refused (nil when
    /// the connection failed, before or during the group). The statements before that one
    /// ran but were rolled back with the group's transaction; those after it were skipped.
    struct GroupFailure: Error {
        var error: PostgresError
        var statement: Int?

        static func connection(_ reason: String) -> GroupFailure { GroupFailure(error: .connection(reason)) }
    }

    private struct Group {
        var completion: @Sendable (Result<[PostgresRows], GroupFailure>) -> Void
        var rows: [PostgresRows] = []
        var failure: GroupFailure?
        var sentAt: DispatchTime
    }

    private enum Phase {
        case idle
        case connecting(OpaquePointer, deadline: DispatchTime)
        case ready(OpaquePointer)
        case closed
    }

    let queue: DispatchQueue
    let settings: Settings
    /// Called on `queue` when the connection becomes ready or is lost.
    var onState: (@Sendable (State) -> Void)?
    /// Called on `queue` for each notification (channel, payload).
    var onNotification: (@Sendable (String, String) -> Void)?

    private var phase = Phase.idle
    private var inFlight: [Group] = []
    private var inFlightHead = 0
    private var pollSource: DispatchSourceProtocol?
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    /// Sources still to be cancelled before the connection they watch may be finished.
    private var watching = DispatchGroup()
    private var reconnectDelay = 0.05
    private var watchdog: DispatchSourceTimer?
    /// The hosts the connection string names, and which one the next attempt starts at: one
    /// further after each attempt that ran out of time (`HostRotation`).
    private let rotation: HostRotation
    private var firstHost = 0

    init(settings: Settings, label: String) {
        self.settings = settings
        queue = DispatchQueue(label: label)
        rotation = HostRotation(connectionString: settings.url)
    }

    /// Starts connecting (and reconnecting whenever the connection is lost).
    func start() {
        queue.async { [self] in
            guard case .idle = phase else { return }
            startWatchdog()
            connect()
        }
    }

    var isReady: Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        if case .ready = phase { return true }
        return false
    }

    /// Sends `statements` as one group (one implicit transaction); `completion` gets one
    /// `PostgresRows` per statement, on `queue`, or the first error.
    func execute(_ statements: [PostgresStatement], _ completion: @escaping @Sendable (Result<[PostgresRows], PostgresError>) -> Void) {
        queue.async { [self] in executeOnQueue(statements, completion) }
    }

    func executeOnQueue(_ statements: [PostgresStatement], _ completion: @escaping @Sendable (Result<[PostgresRows], PostgresError>) -> Void) {
        executeGroupOnQueue(statements) { completion($0.mapError(\.error)) }
    }

    /// As `executeOnQueue`, and a failure says which statement the server refused.
    func executeGroupOnQueue(_ statements: [PostgresStatement], _ completion: @escaping @Sendable (Result<[PostgresRows], GroupFailure>) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .ready(let connection) = phase else {
            return completion(.failure(.connection(phaseDescription)))
        }
        let sent =
            statements.allSatisfy { statement in
                withCStrings(statement.parameters) { parameters in
                    PQsendQueryParams(connection, statement.sql, Int32(parameters.count), nil, parameters, nil, nil, 0)
                } == 1
            } && PQpipelineSync(connection) == 1
        guard sent else {
            let reason = errorMessage(connection)
            completion(.failure(.connection(reason)))
            return lose(reason)
        }
        inFlight.append(Group(completion: completion, sentAt: .now()))
        flush(connection)
    }

    /// Stops for good: groups in flight fail, the connection is finished. Blocks until done.
    func close() {
        let finished = DispatchSemaphore(value: 0)
        queue.async { [self] in
            tearDown(reason: "the store is closed")
            phase = .closed
            watchdog?.cancel()
            watchdog = nil
            watching.notify(queue: queue) { finished.signal() }
        }
        _ = finished.wait(timeout: .now() + 5)
    }

    // MARK: Connecting

    private func connect() {
        guard case .idle = phase else { return }
        // Later keywords override what the expanded `dbname` string says (the host order).
        let turned = rotation.overrides(startingAt: firstHost)
        let keywords =
            ["dbname", "application_name", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count"] + turned.map(\.keyword)
        let values = [settings.url, settings.applicationName, "1", "5", "2", "3"] + turned.map(\.value)
        // Both lists end with NULL, as libpq expects.
        let connection = withCStrings(keywords.map(Optional.some) + [nil]) { keywords in
            withCStrings(values.map(Optional.some) + [nil]) { values in PQconnectStartParams(keywords, values, 1) }
        }
        guard let connection else { return failToConnect(nil, "libpq could not allocate a connection") }
        guard PQstatus(connection) != CONNECTION_BAD else { return failToConnect(connection, errorMessage(connection)) }
        PQsetnonblocking(connection, 1)
        phase = .connecting(connection, deadline: .now() + settings.connectTimeout)
        // libpq: start as if PQconnectPoll had answered "writing".
        waitToPoll(connection, forWriting: true)
    }

    /// Watches the socket once, then polls libpq. The source is cancelled before libpq runs,
    /// since a poll may close the socket and open another.
    private func waitToPoll(_ connection: OpaquePointer, forWriting: Bool) {
        let socket = PQsocket(connection)
        guard socket >= 0 else { return failToConnect(connection, errorMessage(connection)) }
        let source: DispatchSourceProtocol =
            forWriting
            ? DispatchSource.makeWriteSource(fileDescriptor: socket, queue: queue)
            : DispatchSource.makeReadSource(fileDescriptor: socket, queue: queue)
        let handle = Handle(connection)
        source.setEventHandler { source.cancel() }
        source.setCancelHandler { [self] in poll(handle.pointer) }
        source.resume()
        pollSource = source
    }

    private func poll(_ connection: OpaquePointer) {
        pollSource = nil
        guard case .connecting(let current, let deadline) = phase, current == connection else {
            // Given up while this poll waited (timeout, close): its source is gone now.
            return PQfinish(connection)
        }
        guard DispatchTime.now() < deadline else {
            return failToConnect(connection, ranOutOfTime(connection))
        }
        switch PQconnectPoll(connection) {
        case PGRES_POLLING_READING: waitToPoll(connection, forWriting: false)
        case PGRES_POLLING_WRITING: waitToPoll(connection, forWriting: true)
        case PGRES_POLLING_OK: becomeReady(connection)
        default: failToConnect(connection, errorMessage(connection))
        }
    }

    private func becomeReady(_ connection: OpaquePointer) {
        // Notices (e.g. "relation already exists, skipping") are not for the log.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        guard PQenterPipelineMode(connection) == 1 else { return failToConnect(connection, errorMessage(connection)) }
        let socket = PQsocket(connection)
        watching = DispatchGroup()
        let read = DispatchSource.makeReadSource(fileDescriptor: socket, queue: queue)
        watching.enter()
        read.setEventHandler { [self] in readable() }
        read.setCancelHandler { [watching] in watching.leave() }
        read.resume()
        readSource = read
        phase = .ready(connection)
        reconnectDelay = 0.05
        onState?(.ready)
    }

    private func failToConnect(_ connection: OpaquePointer?, _ reason: String) {
        if let connection { PQfinish(connection) }
        phase = .idle
        onState?(.lost(reason))
        scheduleReconnect()
    }

    /// An attempt ran out of time, maybe on a host that answers nothing: the next one starts at
    /// the host after the one it was waiting on (or, when libpq does not say, one further than
    /// this one started). Returns the reason to report.
    private func ranOutOfTime(_ connection: OpaquePointer) -> String {
        let waitedOn = PQhost(connection).flatMap { host in
            PQport(connection).flatMap { port in rotation.index(ofHost: String(cString: host), port: String(cString: port)) }
        }
        firstHost = waitedOn.map { $0 + 1 } ?? firstHost + 1
        let moving = rotation.count > 1 ? "; the next attempt starts at host \(firstHost % rotation.count + 1) of \(rotation.count)" : ""
        return "no connection within \(settings.connectTimeout) s\(moving)"
    }

    private func scheduleReconnect() {
        let delay = reconnectDelay
        reconnectDelay = min(settings.maxReconnectDelay, reconnectDelay * 2)
        queue.asyncAfter(deadline: .now() + delay) { [self] in connect() }
    }

    // MARK: Reading and writing

    private func readable() {
        guard case .ready(let connection) = phase else { return }
        guard PQconsumeInput(connection) == 1 else { return lose(errorMessage(connection)) }
        collectResults(connection)
        while let notification = PQnotifies(connection) {
            let channel = String(cString: notification.pointee.relname)
            let payload = String(cString: notification.pointee.extra)
            PQfreemem(notification)
            onNotification?(channel, payload)
        }
        guard case .ready = phase else { return }
        if PQstatus(connection) == CONNECTION_BAD { return lose(errorMessage(connection)) }
        // Reading can let libpq send what it held back.
        if writeSource != nil { flush(connection) }
    }

    /// Takes every result that has fully arrived. In pipeline mode each statement gives one
    /// result and then NULL; each group ends with a PIPELINE_SYNC result.
    private func collectResults(_ connection: OpaquePointer) {
        var nulls = 0
        while inFlightHead < inFlight.count, PQisBusy(connection) == 0 {
            guard let result = PQgetResult(connection) else {
                // The end of one statement's results; two in a row means nothing is left.
                nulls += 1
                if nulls > 1 { break }
                continue
            }
            nulls = 0
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_PIPELINE_SYNC:
                let group = inFlight[inFlightHead]
                inFlightHead += 1
                if inFlightHead > 64 && inFlightHead * 2 > inFlight.count {
                    inFlight.removeFirst(inFlightHead)
                    inFlightHead = 0
                }
                group.completion(group.failure.map { .failure($0) } ?? .success(group.rows))
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                inFlight[inFlightHead].rows.append(PostgresRows(copying: result))
            case PGRES_FATAL_ERROR:
                // Each statement before this one gave its rows: their count is its index.
                if inFlight[inFlightHead].failure == nil {
                    inFlight[inFlightHead].failure = GroupFailure(
                        error: PostgresError.from(result), statement: inFlight[inFlightHead].rows.count)
                }
            case PGRES_PIPELINE_ABORTED:
                if inFlight[inFlightHead].failure == nil {
                    inFlight[inFlightHead].failure = GroupFailure(error: .unexpected("the group was aborted by an earlier statement"))
                }
            default:
                break
            }
        }
    }

    private func flush(_ connection: OpaquePointer) {
        switch PQflush(connection) {
        case 0:
            writeSource?.cancel()
            writeSource = nil
        case 1:
            guard writeSource == nil else { return }
            let write = DispatchSource.makeWriteSource(fileDescriptor: PQsocket(connection), queue: queue)
            watching.enter()
            write.setEventHandler { [self] in
                guard case .ready(let connection) = phase else { return }
                flush(connection)
            }
            write.setCancelHandler { [watching] in watching.leave() }
            write.resume()
            writeSource = write
        default:
            lose(errorMessage(connection))
        }
    }

    // MARK: Losing the connection

    private func lose(_ reason: String) {
        guard case .ready = phase else { return }
        tearDown(reason: reason)
        onState?(.lost(reason))
        scheduleReconnect()
    }

    /// Fails what is in flight and finishes the connection once its sources are cancelled
    /// (libpq closes the socket, which no source may still watch).
    private func tearDown(reason: String) {
        switch phase {
        case .ready(let connection):
            readSource?.cancel()
            writeSource?.cancel()
            readSource = nil
            writeSource = nil
            let handle = Handle(connection)
            watching.notify(queue: queue) { PQfinish(handle.pointer) }
        case .connecting:
            // The armed poll source's cancel handler finds the phase changed and finishes it.
            pollSource?.cancel()
        case .idle, .closed:
            break
        }
        phase = .idle
        let failed = inFlight[inFlightHead...]
        inFlight = []
        inFlightHead = 0
        for group in failed { group.completion(.failure(.connection(reason))) }
    }

    /// A reply that never comes (a stopped server, a half-open connection) must not hold
    /// the boards waiting on it: past `replyTimeout` the connection counts as lost.
    private func startWatchdog() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler { [self] in
            switch phase {
            case .ready:
                guard inFlightHead < inFlight.count else { return }
                let waited = Double(DispatchTime.now().uptimeNanoseconds - inFlight[inFlightHead].sentAt.uptimeNanoseconds) / 1e9
                if waited > settings.replyTimeout { lose("no reply for \(Int(waited)) s") }
            case .connecting(let connection, let deadline):
                guard DispatchTime.now() >= deadline else { return }
                let reason = ranOutOfTime(connection)
                tearDown(reason: reason)
                onState?(.lost(reason))
                scheduleReconnect()
            case .idle, .closed:
                break
            }
        }
        timer.resume()
        watchdog = timer
    }

    private var phaseDescription: String {
        switch phase {
        case .idle: "not connected (reconnecting)"
        case .connecting: "still connecting"
        case .ready: "ready"
        case .closed: "closed"
        }
    }

    private func errorMessage(_ connection: OpaquePointer) -> String {
        String(cString: PQerrorMessage(connection)).trimmingWhitespace()
    }
}

/// A libpq pointer carried into a closure that runs on the connection's queue.
private struct Handle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

/// Runs `body` with C strings for `strings` (nil stays NULL), valid only during the call.
func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { $0.map { strdup($0)! } }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
