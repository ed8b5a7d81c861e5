import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import Sockets
import Synchronization
import WebSocket

/// Lets at most `window` clients join at once, and collects their welcomes (or why not).
final class JoinGate: Sendable {
    private let window: DispatchSemaphore
    private let welcomed = DispatchSemaphore(value: 0)
    private let failure = Mutex<String?>(nil)

    init(window: Int) { self.window = DispatchSemaphore(value: window) }

    func enter() { window.wait() }

    /// Called once per client: nil when it was welcomed, otherwise what went wrong.
    func finish(_ problem: String?) {
        if let problem { failure.withLock { $0 = $0 ?? problem } }
        window.signal()
        welcomed.signal()
    }

    func waitForAll(_ count: Int, timeout: Double) throws {
        let deadline = DispatchTime.now() + timeout
        for joined in 0..<count {
            guard welcomed.wait(timeout: deadline) == .success else {
                throw BenchTarget.Failure(description: "only \(joined) of \(count) clients were welcomed within \(Int(timeout)) s")
            }
        }
        if let problem = failure.withLock({ $0 }) { throw BenchTarget.Failure(description: problem) }
    }
}

/// The `hello` for `board`, as WebSocket text.
func helloText(board: String, name: String) -> String {
    String(decoding: try! WireFormat.encode(ClientMessage.hello(Hello(board: board, name: name))), as: UTF8.self)
}

/// A member that only watches: says hello when its socket opens, then counts `committed`
/// events and notes when the latest arrived.
///
/// Confinement: `welcomed` is touched only on the socket's loop; `tally` is read by the
/// benchmark's thread, hence the mutex.
final class HubMember: WebSocketHandler, @unchecked Sendable {
    struct Tally {
        var committed = 0
        var lastCommitted: UInt64 = 0
        var closed = false
    }

    let loop: IOLoop
    private let hello: String
    private let gate: JoinGate
    private var welcomed = false
    let tally = Mutex(Tally())

    init(loop: IOLoop, hello: String, gate: JoinGate) {
        self.loop = loop
        self.hello = hello
        self.gate = gate
    }

    func webSocketDidOpen(_ socket: WebSocketConnection) { socket.send(.text(hello)) }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        guard case .text(let text) = message else { return }
        guard welcomed else {
            welcomed = true
            let answer = try? WireFormat.decodeServerMessage(Data(text.utf8))
            if case .welcome = answer { gate.finish(nil) } else { gate.finish("hello was answered with \(text.prefix(200))") }
            return
        }
        // At 1,000 members this runs tens of millions of times: a full decode here would
        // measure the client, so the type is found by its bytes.
        guard Self.isCommitted(text) else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        tally.withLock {
            $0.committed += 1
            $0.lastCommitted = now
        }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        tally.withLock { $0.closed = true }
        if !welcomed {
            welcomed = true
            gate.finish("a member was closed before its welcome (\(code.rawValue) \(reason))")
        }
    }

    private static let committedMarker = Array(#""type":"committed""#.utf8)

    /// A sequenced event; noops (also `committed`) go to their sender alone, never to a member.
    /// A plain byte search: the generic `firstRange(of:)` on a UTF-8 view cost as much as a full
    /// decode and made 100 watchers, not the server, the limit.
    static func isCommitted(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let marker = committedMarker
            guard bytes.count >= marker.count else { return false }
            for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
                if bytes[start..<start + marker.count].elementsEqual(marker) { return true }
            }
            return false
        }
    }
}

/// The number of moves still to be sent in a step, shared by its writers.
final class MoveBudget: Sendable {
    private let remaining: Atomic<Int>
    init(_ count: Int) { remaining = Atomic(count) }
    func claim() -> Bool { remaining.wrappingSubtract(1, ordering: .relaxed).newValue >= 0 }
}

/// A member that moves items: keeps `inFlight` moves outstanding until the budget is spent.
/// It follows the board as a client does (a `Replica` fed every `committed` event), so each
/// move's anchor is an item of the destination as the writer last saw it, and its `baseSeq`
/// is the last seq it applied.
///
/// Confinement: everything but `report` is touched only on `loop` (connect with it).
final class HubWriter: WebSocketHandler, @unchecked Sendable {
    struct Report {
        var latencies: [Double] = []
        var noops = 0
        var rejections: [String: Int] = [:]
        var highestOwnSeq = 0
        /// When the move that became `highestOwnSeq` was sent, and when its answer came.
        var highestOwnSeqSent: UInt64 = 0
        var highestOwnSeqAnswered: UInt64 = 0
        var lastAnswer: UInt64 = 0
        var failure: String?
    }

    let loop: IOLoop
    private let number: Int
    private let hello: String
    private let gate: JoinGate
    private let budget: MoveBudget
    private let inFlight: Int
    private let done: DispatchGroup
    private var random: SplitMix64
    private var socket: WebSocketConnection?
    private var replica: Replica?
    private var items: [ItemID] = []
    private var sent = 0
    /// Send times of the moves not answered yet, by opId.
    private var outstanding: [OperationID: UInt64] = [:]
    private var running = Report()
    private var awaitingWelcome = true
    private var finished = false
    /// Set once, when the writer has finished (or failed); read after `done`.
    let report = Mutex<Report?>(nil)

    init(
        number: Int, loop: IOLoop, hello: String, gate: JoinGate, budget: MoveBudget, inFlight: Int, seed: UInt64,
        done: DispatchGroup
    ) {
        self.number = number
        self.loop = loop
        self.hello = hello
        self.gate = gate
        self.budget = budget
        self.inFlight = inFlight
        self.done = done
        random = SplitMix64(seed: seed)
        done.enter()
    }

    func start() {
        loop.execute { for _ in 0..<self.inFlight { self.sendNext() } }
    }

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        self.socket = socket
        socket.send(.text(hello))
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        guard case .text(let text) = message else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard let decoded = try? WireFormat.decodeServerMessage(Data(text.utf8)) else {
            return fail("undecodable message \(text.prefix(200))")
        }
        switch decoded {
        case .welcome(let welcome):
            guard let board = welcome.board else { return joined("a welcome without a board") }
            replica = Replica(board: board, seq: welcome.seq)
            items = board.allItemIDs
            joined(nil)
        case .committed(let event):
            do { try replica?.apply(event) } catch { return fail("committed event \(event.seq) does not apply: \(error)") }
            if let sentAt = outstanding.removeValue(forKey: event.opId) {
                running.latencies.append(Double(now - sentAt) / 1e9)
                running.highestOwnSeq = event.seq
                running.highestOwnSeqSent = sentAt
                running.highestOwnSeqAnswered = now
                answered(at: now)
            }
        case .noop(let noop):
            if outstanding.removeValue(forKey: noop.opId) != nil {
                running.noops += 1
                answered(at: now)
            }
        case .rejected(let rejected):
            if let opId = rejected.opId, outstanding.removeValue(forKey: opId) != nil {
                running.rejections[rejected.code.rawValue, default: 0] += 1
                answered(at: now)
            }
        case .error(let error):
            joined("hello was refused: \(error.message)")
            fail("error: \(error.message)")
        case .peerJoined, .peerLeft, .peers, .peersPage, .drag, .dragOver, .dragCleared, .drags, .editing, .pong, .tokenAccepted, .tokenRefused:
            break
        }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        joined("a writer was closed before its welcome (\(code.rawValue) \(reason))")
        fail("closed with \(code.rawValue) \(reason)")
    }

    /// Tells the gate once: welcomed (nil) or refused.
    private func joined(_ problem: String?) {
        guard awaitingWelcome else { return }
        awaitingWelcome = false
        gate.finish(problem)
    }

    private func answered(at time: UInt64) {
        running.lastAnswer = time
        sendNext()
    }

    /// A random item to a random collection, before a random item of it or at its end.
    private func sendNext() {
        guard !finished, let socket, let replica else { return }
        guard budget.claim() else {
            if outstanding.isEmpty { finish() }
            return
        }
        let collection = replica.board.collections.randomElement(using: &random)!
        let index = Int.random(in: 0...collection.items.count, using: &random)
        let before = index < collection.items.count ? collection.items[index].id : nil
        sent += 1
        let request = OperationRequest(
            opId: "w\(number)-\(sent)", baseSeq: replica.seq,
            .move(sources: [items.randomElement(using: &random)!], destination: Destination(collection: collection.id, before: before)))
        outstanding[request.opId] = DispatchTime.now().uptimeNanoseconds
        socket.send(.text(String(decoding: try! WireFormat.encode(ClientMessage.operation(request)), as: UTF8.self)))
    }

    private func fail(_ problem: String) {
        guard !finished else { return }
        running.failure = "writer \(number): \(problem)"
        finish()
    }

    private func finish() {
        finished = true
        let final = running
        report.withLock { $0 = final }
        done.leave()
    }
}

/// Opens a WebSocket to `/ws` for each client on the client's own loop, at most the gate's
/// window joining at a time; returns once every client has its welcome. (The clients say
/// hello themselves. A socket's completion runs before its hello is sent, so by then
/// every socket is in the list.)
func joinAll(
    _ clients: [(WebSocketHandler & Sendable, IOLoop)], target: BenchTarget, options: WebSocketOptions,
    gate: JoinGate, timeout: Double
) throws -> [WebSocketConnection] {
    let sockets = Mutex<[WebSocketConnection]>([])
    for (handler, loop) in clients {
        gate.enter()
        WebSocketClient.connect(
            host: target.host, port: target.port, path: "/ws", subprotocols: ["corkboard.v1"],
            options: options, loop: loop, handler: handler
        ) { result in
            switch result {
            case .success(let socket): sockets.withLock { $0.append(socket) }
            case .failure(let error): gate.finish("cannot connect: \(error)")
            }
        }
    }
    do {
        try gate.waitForAll(clients.count, timeout: timeout)
    } catch {
        for socket in sockets.withLock({ $0 }) { socket.close() }
        throw error
    }
    return sockets.withLock { $0 }
}
