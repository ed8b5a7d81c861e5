import CorkboardModel
import CorkboardWire
import Foundation
import WebSocket

/// A test's failure with a message saying what was awaited and what came instead.
public struct HubTestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What a `BoardTestClient` talks through: a real WebSocket (the server's end-to-end tests)
/// or a `MemoryLink` straight into a hub (the hub's in-process tests).
public protocol TestClientTransport: AnyObject {
    func send(text: String) throws
    /// The next text message, or how the connection ended. Throws when nothing came within
    /// the transport's timeout.
    func receive() throws -> TestClientEvent
    /// A clean close, returning once the server saw it.
    func close() throws
    /// Gone without a goodbye, as a lost network is.
    func drop()
}

public enum TestClientEvent {
    case text(String)
    /// The server closed, with this code (nil: the connection ended without one).
    case closed(WebSocketCloseCode?)
}

/// A blocking Corkboard client: it joins a board with `hello`, decodes every server message
/// with `WireFormat.decodeServerMessage`, and keeps a `Replica` built from the welcome snapshot
/// and every `committed` event, so a test can compare it with the server's board.
///
/// Every read has a timeout (5 s), so a test that waits for something that never comes fails.
/// One thread at a time uses a client (the convergence test gives each client its own thread).
public final class BoardTestClient: @unchecked Sendable {
    public let transport: any TestClientTransport
    public let boardID: String
    public let name: String
    /// The server's answer to `hello`.
    public let welcome: Welcome
    public private(set) var replica: Replica
    /// Every committed event applied to the replica, in order (from the welcome on).
    public private(set) var events: [CommittedEvent] = []
    /// Every server message received, in order, and its text as it came.
    public private(set) var log: [ServerMessage] = []
    public private(set) var rawLog: [String] = []
    /// Messages `waitFor` passed over, for failure messages.
    public private(set) var skipped: [ServerMessage] = []
    /// Committed events that repeated one already applied: the first outcome of an opId this
    /// client sent again (docs/protocol.md#resending-an-opid), answered to it alone. Not applied twice.
    public private(set) var repeats: [CommittedEvent] = []
    /// How often this client sent each opId, and how often a committed event for it came back:
    /// a repeat is only accepted as the answer to a send that has none yet.
    private var sends: [OperationID: Int] = [:]
    private var answers: [OperationID: Int] = [:]
    /// Repeats a test announced with `expectRepeat(of:)`.
    private var allowedRepeats: [OperationID: Int] = [:]
    private var opCounter = 0
    private let opPrefix: String
    /// An upper bound on the messages one wait reads, so no loop is unbounded.
    public static let readBound = 100_000

    public var clientID: ClientID { welcome.client }
    public var seq: Int { replica.seq }
    public var board: Board { replica.board }

    /// Sends `hello` and reads the `welcome`, which must be the first message.
    /// With `resumeFrom` the hello carries `resume` at that replica's seq (and `epoch`, by default
    /// the one the replica's board was welcomed with); a resumed welcome continues that replica.
    public init(
        transport: any TestClientTransport, board: String, name: String, token: String? = nil,
        resumeFrom previous: BoardTestClient? = nil, resume: ResumePoint? = nil, observe: Bool = false,
        presence: PresenceForm = .full, hue: Hue? = nil
    ) throws {
        self.transport = transport
        boardID = board
        self.name = name
        // Some of the name: an opId is at most 128 bytes, a name may be 256.
        opPrefix = "\(String(decoding: name.utf8.prefix(40), as: UTF8.self))-\(UUID().uuidString.prefix(8))"
        let resumePoint = resume ?? previous.map { ResumePoint(epoch: $0.welcome.epoch, seq: $0.seq) }
        try Self.send(
            .hello(Hello(board: board, name: name, token: token, resume: resumePoint, observe: observe, presence: presence, hue: hue)),
            on: transport)
        let (first, text) = try Self.read(transport)
        guard case .welcome(let welcome) = first else {
            throw HubTestFailure("expected welcome, got \(text)")
        }
        self.welcome = welcome
        if welcome.resumed {
            guard let previous else { throw HubTestFailure("welcome says resumed, but there was nothing to resume") }
            replica = previous.replica
            events = previous.events
        } else {
            guard let snapshot = welcome.board else { throw HubTestFailure("a welcome that is not resumed has no board: \(text)") }
            replica = Replica(board: snapshot, seq: welcome.seq)
        }
        log = [first]
        rawLog = [text]
    }

    // MARK: Sending

    private static func send(_ message: ClientMessage, on transport: any TestClientTransport) throws {
        try transport.send(text: String(decoding: try WireFormat.encode(message), as: UTF8.self))
    }

    public func send(_ message: ClientMessage) throws {
        if case .operation(let request) = message { sends[request.opId, default: 0] += 1 }
        try Self.send(message, on: transport)
    }

    public func send(json: String) throws { try transport.send(text: json) }

    /// Accepts one more committed event for this opId that repeats one already applied: a resend
    /// whose original event also reached this replica another way (in a resume replay).
    public func expectRepeat(of opId: OperationID) {
        allowedRepeats[opId, default: 0] += 1
    }

    /// A fresh opId, unique across every client of every test.
    public func nextOpId() -> OperationID {
        opCounter += 1
        return "\(opPrefix)-\(opCounter)"
    }

    /// A request with a fresh opId; `baseSeq` defaults to this replica's seq where the operation needs one.
    public func request(_ operation: RequestedOperation, baseSeq: Int? = nil) -> OperationRequest {
        OperationRequest(opId: nextOpId(), baseSeq: baseSeq ?? (operation.needsBaseSeq ? seq : nil), operation)
    }

    /// Sends the operation and returns its opId.
    @discardableResult
    public func send(_ operation: RequestedOperation, baseSeq: Int? = nil) throws -> OperationID {
        let request = request(operation, baseSeq: baseSeq)
        try send(.operation(request))
        return request.opId
    }

    /// Sends the request and waits for its outcome (committed, noop or rejected with its opId).
    public func perform(_ request: OperationRequest) throws -> ServerMessage {
        try send(.operation(request))
        return try outcome(of: request.opId)
    }

    public func perform(_ operation: RequestedOperation, baseSeq: Int? = nil) throws -> ServerMessage {
        try perform(request(operation, baseSeq: baseSeq))
    }

    /// Performs the operation and requires that it was committed.
    @discardableResult
    public func commit(_ operation: RequestedOperation, baseSeq: Int? = nil) throws -> CommittedEvent {
        let answer = try perform(operation, baseSeq: baseSeq)
        guard case .committed(let event) = answer else { throw HubTestFailure("\(name): expected committed, got \(answer)") }
        return event
    }

    /// Performs the operation and requires that it was rejected; returns the rejection.
    public func reject(_ operation: RequestedOperation, baseSeq: Int? = nil) throws -> Rejected {
        let answer = try perform(operation, baseSeq: baseSeq)
        guard case .rejected(let rejected) = answer else { throw HubTestFailure("\(name): expected rejected, got \(answer)") }
        return rejected
    }

    // MARK: Receiving

    /// Reads the next text message (answering pings), decodes it and, for a committed
    /// event, applies it to the replica. Throws on a timeout, a close or an undecodable message.
    public func nextMessage() throws -> ServerMessage {
        let (message, text) = try Self.read(transport)
        log.append(message)
        rawLog.append(text)
        if case .committed(let event) = message {
            defer { answers[event.opId, default: 0] += 1 }
            if event.seq <= seq, answers[event.opId, default: 0] < sends[event.opId, default: 0] || allowedRepeats[event.opId, default: 0] > 0 {
                if answers[event.opId, default: 0] >= sends[event.opId, default: 0] { allowedRepeats[event.opId, default: 0] -= 1 }
                repeats.append(event)
                return message
            }
            do {
                try replica.apply(event)
            } catch {
                throw HubTestFailure("\(name): committed event does not follow the replica at seq \(seq): \(error); event \(text)")
            }
            events.append(event)
        }
        return message
    }

    private static func read(_ transport: any TestClientTransport) throws -> (ServerMessage, String) {
        switch try transport.receive() {
        case .closed(nil):
            throw HubTestFailure("the server closed the connection")
        case .closed(let code?):
            throw HubTestFailure("the server closed the WebSocket with \(code)")
        case .text(let text):
            do {
                return (try WireFormat.decodeServerMessage(Data(text.utf8)), text)
            } catch {
                throw HubTestFailure("undecodable server message \(text): \(error)")
            }
        }
    }

    /// Reads messages until one matches; those passed over are kept in `skipped`.
    public func waitFor(_ what: String, _ matches: (ServerMessage) -> Bool) throws -> ServerMessage {
        for _ in 0..<Self.readBound {
            let message: ServerMessage
            do {
                message = try nextMessage()
            } catch {
                throw HubTestFailure("\(name) waiting for \(what): \(error); passed over \(skipped.suffix(5))")
            }
            if matches(message) { return message }
            skipped.append(message)
        }
        throw HubTestFailure("\(name): no \(what) within \(Self.readBound) messages")
    }

    public func waitFor(type: String) throws -> ServerMessage {
        try waitFor("a \(type) message") { $0.typeName == type }
    }

    /// The answer to this opId: committed (or noop) with it, or rejected with it.
    public func outcome(of opId: OperationID) throws -> ServerMessage {
        try waitFor("the outcome of \(opId)") { $0.opId == opId }
    }

    /// Reads until the replica reaches `target` (bounded by the read timeout).
    public func waitUntilSeq(_ target: Int) throws {
        while seq < target {
            _ = try waitFor("event \(seq + 1)") { message in
                if case .committed = message { return true }
                return false
            }
        }
    }

    /// A round trip through the board's sequencer: sends a delete of an item that does not
    /// exist (rejected, changing nothing) and returns every message that came before its answer.
    /// Used to check that nothing else arrives, without sleeping.
    public func sync() throws -> [ServerMessage] {
        let opId = nextOpId() + "-sync"
        let request = OperationRequest(opId: opId, baseSeq: 0, .delete(items: ["\(opId)-no-such-item"]))
        try send(.operation(request))
        var before: [ServerMessage] = []
        for _ in 0..<Self.readBound {
            let message = try nextMessage()
            if message.opId == opId {
                guard case .rejected = message else { throw HubTestFailure("the sync delete got \(message)") }
                return before
            }
            before.append(message)
        }
        throw HubTestFailure("\(name): sync not answered within \(Self.readBound) messages")
    }

    /// Like `sync`, but only the committed events (and noops) that arrived before the answer.
    public func syncCommitted() throws -> [ServerMessage] {
        try sync().filter { $0.typeName == "committed" }
    }

    // MARK: Ending

    /// Reads until the server closes, and returns its code (nil if the connection ended
    /// without one). Text messages before it are decoded and logged.
    public func expectClose() throws -> WebSocketCloseCode? {
        for _ in 0..<Self.readBound {
            switch try transport.receive() {
            case .closed(let code):
                return code
            case .text(let text):
                rawLog.append(text)
                if let message = try? WireFormat.decodeServerMessage(Data(text.utf8)) { log.append(message) }
            }
        }
        throw HubTestFailure("no close within \(Self.readBound) messages")
    }

    /// A clean close: the client says goodbye and the server answers.
    public func close() throws {
        try transport.close()
    }

    /// Drops the connection without a goodbye, as a lost network would.
    public func drop() {
        transport.drop()
    }
}

extension ServerMessage {
    /// The opId of a committed event, a noop or a rejection.
    public var opId: OperationID? {
        switch self {
        case .committed(let event): event.opId
        case .noop(let noop): noop.opId
        case .rejected(let rejected): rejected.opId
        default: nil
        }
    }

    public var committedEvent: CommittedEvent? {
        if case .committed(let event) = self { return event }
        return nil
    }

    public var rejection: Rejected? {
        if case .rejected(let rejected) = self { return rejected }
        return nil
    }

    public var errorMessage: ErrorMessage? {
        if case .error(let error) = self { return error }
        return nil
    }

    public var peersChange: PeersChange? {
        if case .peers(let change) = self { return change }
        return nil
    }

    public var peersPage: PeersPage? {
        if case .peersPage(let page) = self { return page }
        return nil
    }
}

/// Decodes one text message as a server message, for raw `WebSocketTestClient`s.
public func decodeServerText(_ text: String?) throws -> ServerMessage {
    guard let text else { throw HubTestFailure("the connection ended instead of a message") }
    do {
        return try WireFormat.decodeServerMessage(Data(text.utf8))
    } catch {
        throw HubTestFailure("undecodable server message \(text): \(error)")
    }
}
