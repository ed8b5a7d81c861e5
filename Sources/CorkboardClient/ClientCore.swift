import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import Sockets
import TLS
import WebSocket
import WebSocketDeflate

/// The state machine behind ``BoardClient``: one connection at a time, the replica, the
/// operations waiting for answers, reconnects.
///
/// Confinement: every stored `var` is read and written only on `loop.queue`. The socket
/// calls back on that loop (we connect with it), timers are scheduled on it, and the
/// public API hops onto it (`loop.execute`) — which is what makes `@unchecked Sendable` true.
final class ClientCore: @unchecked Sendable {
    enum Phase: Equatable {
        case idle
        /// A link is trying to connect and join.
        case connecting
        case joined
        /// Between attempts, a timer set.
        case waiting
        /// `close()` sent a close frame and waits for the socket to end.
        case closing
        case closed
    }

    let configuration: BoardClientConfiguration
    let loop: IOLoop
    let events = EventHub<BoardEvent>()

    private(set) var phase = Phase.idle
    private(set) var state = ConnectionState.idle
    /// The current attempt's handler; callbacks from any other link are stale.
    private var link: SocketLink?
    private(set) var socket: WebSocketConnection?
    var replica: Replica?
    private(set) var epoch: String?
    private(set) var welcome: Welcome?
    var peers: [Peer] = []
    /// The others' editing marks by client (docs/protocol.md#editing-marks); they follow the
    /// welcome, so a welcome starts them anew.
    var editing: [ClientID: PeerEditing] = [:]
    /// The peers on the board, ourselves included unless observing (docs/protocol.md#peers).
    var memberCount = 0
    /// Set when the replica lost step (a gap, an event that does not apply): the next
    /// `hello` asks for a full snapshot instead of a resume.
    var needsSnapshot = false
    /// Failed attempts since the last join.
    private var failures = 0
    private var everJoined = false
    /// The `error` the server sent before a welcome on this attempt (then it closes).
    var refusal: ErrorMessage?
    /// Why the last attempt failed, for `gaveUp`.
    private var lastProblem = ""
    /// Why the client finished (nil: `close()`), for operations submitted after that.
    private(set) var closedReason: BoardClientError?
    /// Bumped to cancel a scheduled reconnect or join timeout.
    private var timerGeneration = 0
    /// The TLS settings of `wss://`, made at the first attempt (it reads the CA file).
    private var tlsContext: TLSContext?
    /// The token the provider gave last (`tokenProvider`); the next `hello` sends it.
    var providedToken: String?
    /// Bumped to cancel a scheduled token refresh (`ClientCore+Token.swift`).
    var refreshGeneration = 0

    private var connectWaiter: CheckedContinuation<Welcome, any Error>?
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    var pending = PendingOperations()
    var submitted = 0
    var replicaWaiters: [ReplicaWaiter] = []
    var waiterCount = 0

    init(configuration: BoardClientConfiguration, loop: IOLoop) {
        self.configuration = configuration
        self.loop = loop
    }

    // MARK: Starting and stopping (on the loop)

    func start(_ waiter: CheckedContinuation<Welcome, any Error>) {
        guard phase == .idle else { return waiter.resume(throwing: BoardClientError.alreadyStarted) }
        connectWaiter = waiter
        openSocket()
    }

    func close(_ waiter: CheckedContinuation<Void, Never>) {
        switch phase {
        case .closed:
            waiter.resume()
        case .closing:
            closeWaiters.append(waiter)
        case .joined where socket != nil:
            // A close frame, so the server tells the others `peer.left` at once; the socket's
            // end (or the close timeout of WebSocketOptions) finishes the client.
            closeWaiters.append(waiter)
            phase = .closing
            socket?.close(.normal, reason: "bot leaving")
        default:
            // Connecting or waiting: forget the attempt (a late open is closed in linkOpened).
            closeWaiters.append(waiter)
            socket?.connection.abort()
            finish(nil)
        }
    }

    /// The ``BoardClient`` is gone: say goodbye if joined, and stop.
    func abandon() {
        if phase == .joined { socket?.close(.goingAway, reason: "client released") } else { socket?.connection.abort() }
        finish(nil)
    }

    /// Ends the client for good: every waiting operation gets `unanswered`, the event
    /// streams end.
    func finish(_ error: BoardClientError?) {
        guard phase != .closed else { return }
        phase = .closed
        closedReason = error
        timerGeneration += 1
        link = nil
        socket = nil
        setState(.closed(error))
        let reason = error ?? .closed
        connectWaiter?.resume(throwing: reason)
        connectWaiter = nil
        for operation in pending.removeAll() {
            for waiter in operation.waiters { waiter.resume(returning: .unanswered(opId: operation.request.opId, reason)) }
        }
        refreshGeneration += 1
        failReplicaWaiters()
        events.finish()
        let waiters = closeWaiters
        closeWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Connecting

    private func openSocket() {
        let link = SocketLink(core: self)
        self.link = link
        refusal = nil
        phase = .connecting
        setState(.connecting(attempt: failures))
        // From before the token is asked for: a provider that never answers fails the attempt too.
        let generation = timerGeneration
        loop.queue.asyncAfter(deadline: .now() + configuration.joinTimeout) { [weak self] in
            guard let self, self.timerGeneration == generation, self.link === link, self.phase == .connecting else { return }
            self.attemptFailed(link, problem: "no welcome within \(self.configuration.joinTimeout) s")
        }
        guard let provider = configuration.tokenProvider else { return connect(link) }
        // A fresh token for every hello: a server restart never meets an expired one.
        fetchToken(provider) { [weak self] result in
            guard let self, link === self.link, self.phase == .connecting else { return }
            switch result {
            case .success(let token):
                self.providedToken = token
                self.connect(link)
            case .failure(let error):
                self.attemptFailed(link, problem: "the token provider failed: \(error)")
            }
        }
    }

    private func connect(_ link: SocketLink) {
        var options = WebSocketOptions()
        options.pingInterval = configuration.pingInterval
        options.pongTimeout = configuration.pongTimeout
        if configuration.offersDeflate { options.extensions = DeflateNegotiator() }
        let transport: TransportFilterFactory?
        do {
            transport = try makeTransport()
        } catch {
            return attemptFailed(link, problem: error.description)
        }
        WebSocketClient.connect(
            host: configuration.host, port: configuration.port, path: configuration.socketTarget, subprotocols: ["corkboard.v1"],
            options: options, loop: loop, transport: transport, handler: link
        ) { [weak self] result in
            // On the loop. Success was already reported through webSocketDidOpen.
            if case .failure(let error) = result { self?.attemptFailed(link, problem: "\(error)") }
        }
    }

    /// A TLS session per attempt for `wss://`, checking the certificate against `host`; nil for `ws://`.
    private func makeTransport() throws(TLSError) -> TransportFilterFactory? {
        guard configuration.usesTLS else { return nil }
        let context: TLSContext
        if let made = tlsContext {
            context = made
        } else {
            context = try TLSContext.client(trustedCAFile: configuration.trustedCAFile)
            tlsContext = context
        }
        let host = configuration.host
        return { try context.makeClientSession(serverName: host) }
    }

    func linkOpened(_ link: SocketLink, socket: WebSocketConnection) {
        guard link === self.link, phase == .connecting else { return socket.close(.goingAway) }
        self.socket = socket
        let resume = needsSnapshot ? nil : replica.flatMap { replica in epoch.map { ResumePoint(epoch: $0, seq: replica.seq) } }
        let hello = Hello(
            board: configuration.board, name: configuration.name, token: providedToken ?? configuration.token, resume: resume,
            observe: configuration.observes, presence: configuration.presence, hue: configuration.hue)
        send(.hello(hello))
    }

    func linkReceived(_ link: SocketLink, text: String) {
        guard link === self.link else { return }
        // An unknown message (a newer server) is not ours to fail on.
        guard let message = try? WireFormat.decodeServerMessage(Data(text.utf8)) else { return }
        handle(message)
    }

    func linkEnded(_ link: SocketLink, code: UInt16, problem: String) {
        guard link === self.link else { return }
        pending.connectionLost()
        switch phase {
        case .closing:
            finish(nil)
        case .joined:
            self.link = nil
            socket = nil
            failures = 0
            refreshGeneration += 1
            setState(.disconnected(code: code, reason: problem))
            // After a lost step there is nothing to wait for: the server is there.
            scheduleReconnect(after: needsSnapshot ? 0 : configuration.reconnectBackoff.delay(attempt: 0))
        default:
            attemptFailed(link, problem: problem)
        }
    }

    /// An attempt ended without a welcome.
    private func attemptFailed(_ link: SocketLink, problem: String) {
        guard link === self.link else { return }
        self.link = nil
        let socket = self.socket
        self.socket = nil
        // Its later callbacks are stale now (the link is no longer current).
        socket?.connection.abort()
        lastProblem = refusal.map { "\($0.code.rawValue): \($0.message)" } ?? problem
        let refused = refusal.map { BoardClientError.refused(code: $0.code.rawValue, message: $0.message) }
        // The first join reports to connect() at once: a script wants to know now.
        guard everJoined else { return finish(refused ?? .cannotConnect(problem)) }
        // An unknown board or a token no longer valid will not change by retrying.
        if let refusal, [.notFound, .forbidden, .unauthorized].contains(refusal.code) { return finish(refused) }
        failures += 1
        if let maximum = configuration.maximumReconnectAttempts, failures >= maximum {
            return finish(.gaveUp(attempts: failures, lastProblem: lastProblem))
        }
        scheduleReconnect(after: configuration.reconnectBackoff.delay(attempt: failures))
    }

    private func scheduleReconnect(after delay: Double) {
        phase = .waiting
        setState(.waiting(delay: delay))
        timerGeneration += 1
        let generation = timerGeneration
        loop.queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, self.timerGeneration == generation, self.phase == .waiting else { return }
            self.openSocket()
        }
    }

    /// Starts over from a fresh snapshot: the replica can no longer follow the log.
    func resynchronize() {
        needsSnapshot = true
        socket?.connection.abort()
    }

    // MARK: Joined

    /// A welcome: take its snapshot (or keep the replica on a resume), then resend every
    /// operation still waiting, with its opId, in submission order.
    func joined(_ welcome: Welcome) {
        if welcome.resumed, replica != nil {
            // The replica continues at its own seq, which is the resume point.
        } else if let board = welcome.board {
            let historyReplaced = epoch != nil && epoch != welcome.epoch
            replica = Replica(board: board, seq: welcome.seq)
            pending.rebase(to: welcome.seq, historyReplaced: historyReplaced)
        } else {
            // A resumed welcome we did not ask for cannot be followed: ask for a snapshot.
            return resynchronize()
        }
        epoch = welcome.epoch
        self.welcome = welcome
        peers = welcome.peers
        editing = [:]
        memberCount = welcome.count
        needsSnapshot = false
        failures = 0
        everJoined = true
        phase = .joined
        setState(.joined(client: welcome.client, role: welcome.role, resumed: welcome.resumed))
        events.emit(.welcome(welcome))
        connectWaiter?.resume(returning: welcome)
        connectWaiter = nil
        scheduleTokenRefresh(expiresAt: welcome.tokenExpiresAt)
        checkReplicaWaiters()
        for opId in pending.idsInOrder { transmit(opId) }
    }

    func setState(_ new: ConnectionState) {
        state = new
        events.emit(.connection(new))
    }

    /// Sends a message on the current socket, if there is one.
    func send(_ message: ClientMessage) {
        guard let socket, let data = try? WireFormat.encode(message) else { return }
        socket.send(.text(String(decoding: data, as: UTF8.self)))
    }

    /// Runs `work` on the loop, and returns its result to the awaiting task.
    func onLoop<T: Sendable>(_ work: @escaping @Sendable (ClientCore) -> T) async -> T {
        await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: work(self)) }
        }
    }

    /// Reads state right away: inline on the loop, else by a short synchronous hop.
    func read<T>(_ body: (ClientCore) -> T) -> T {
        loop.isCurrent ? body(self) : loop.queue.sync { body(self) }
    }
}
