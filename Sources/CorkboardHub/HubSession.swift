import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation

/// One member connection (a WebSocket on `/ws` in the server): waits for `hello` (docs/protocol.md#3-joining),
/// then hands the client's operations to its board's room. Messages are decoded here, on the
/// connection's queue, so a flood of bad input costs its own connection and never the board's
/// sequencer. The transport calls `receive` with each text message, `helloDeadlinePassed`
/// when `helloTimeout` went by, and `linkClosed` once the connection ended; the session answers
/// through its `MemberLink`.
///
/// The session also applies the per-connection rates: operations beyond `operationRate` are
/// answered `rate-limited` here, `drag.over` beyond `presenceRate` is coalesced here, and
/// `drag.start` beyond it (or beyond `maxDragItems` items a second) is refused here, so a
/// flooding client never reaches its room's queue with more than its budget. `peers.list` is
/// presence too, and its answers' bytes are paid from a budget at `operationByteRate`, so a
/// small request never makes the server send without bound (issue #31).
///
/// Confinement: `phase`, the buckets and the waiting `drag.over` (`SessionBudgets`) are touched only on the
/// link's serial queue (every call of the transport arrives there, and the coalescing flush
/// is scheduled there), hence `@unchecked Sendable`.
public final class HubSession: @unchecked Sendable {
    enum Phase {
        case awaitingHello
        case joined(BoardRoom)
        case closed
    }

    /// The most a first message may be: a `hello` holds a board id, a name, a token (at most
    /// 8 KiB where tokens are checked) and a resume point. Bigger is refused before it is
    /// parsed, so a client that proved nothing yet cannot make the server read a megabyte
    /// (the WebSocket transport refuses it sooner, at its frame header).
    public static let maximumHelloBytes = 65_536

    let hub: Hub
    let link: any MemberLink
    /// The client's address, by which refused hellos are counted (`refusedHelloRate`).
    private let address: String?
    var phase = Phase.awaitingHello
    /// The rate budgets, once the first metered message came (`budgets`).
    private var madeBudgets: SessionBudgets?
    /// The bytes of `by` each of this member's commits carries (its name, or its token's
    /// subject or grant name): counted with each operation message against the byte rate,
    /// since the event is stored and broadcast with it.
    private var authorBytes = 0
    /// What the token the member holds now proved when judged; nil until joined.
    var credentials: Credentials?
    /// Counts the expiry checks scheduled: only the latest one (for the token held now) acts.
    var expiryCheck = 0

    init(hub: Hub, link: any MemberLink, address: String?) {
        self.hub = hub
        self.link = link
        self.address = address
    }

    /// Now on the hub's clock, by which the buckets fill (a test advances it).
    private var now: UInt64 { hub.clock.now().uptimeNanoseconds }

    var key: MemberKey { ObjectIdentifier(self) }

    /// The rate budgets, made at the first message that takes from one.
    private var budgets: SessionBudgets {
        if let madeBudgets { return madeBudgets }
        let budgets = SessionBudgets(hub.configuration, now: now)
        madeBudgets = budgets
        return budgets
    }

    /// Takes one token from the operation budget; false when it is spent.
    func takeOperationToken() -> Bool {
        budgets.operation?.take(now: now) != false
    }

    /// Whether the session still waits for `hello` (the transport's deadline matters only then).
    public var isAwaitingHello: Bool {
        if case .awaitingHello = phase { true } else { false }
    }

    /// `helloTimeout` went by since the connection opened: a session still without `hello`
    /// is refused (`error` `invalid`, close 1008).
    public func helloDeadlinePassed() {
        guard isAwaitingHello else { return }
        phase = .closed
        BoardRoom.refuse(link, .invalid, "no hello within \(hub.configuration.helloTimeout.secondsDescription)", close: .policyViolation)
    }

    /// One text message from the client (binary ones are the transport's to refuse:
    /// docs/protocol.md#close-codes).
    public func receive(_ text: String) {
        if isAwaitingHello { return receiveFirst(text) }
        guard case .joined(let room) = phase else { return }
        let decoded = WireFormat.decodeClientMessage(Data(text.utf8))
        switch decoded {
        case .message(.operation(let request)):
            if budgets.operation?.take(now: now) == false {
                hub.metrics.rejected(.rateLimited)
                return link.send(.rejected(Rejected(hub.configuration.rateLimitedRejection(request.opId))))
            }
            if budgets.operationBytes?.take(Double(text.utf8.count + authorBytes), now: now) == false {
                hub.metrics.rejected(.rateLimited)
                return link.send(.rejected(Rejected(hub.configuration.byteRateLimitedRejection(request.opId))))
            }
            room.submit(request, from: key, thenRelease: link.holdWrites())
        case .message(.hello):
            link.send(invalid: "already joined; a connection joins one board once")
        case .message(.dragStart(let items)):
            flushDragOver(to: room)
            if let refusal = rateRefusal(ofDragOf: items) {
                hub.metrics.rejected(.rateLimited)
                return room.refuseDragStart(refusal, from: key)
            }
            room.dragStart(items, from: key)
        case .message(.dragStartColumns(let columns)):
            flushDragOver(to: room)
            if let refusal = rateRefusal(ofDragOf: columns) {
                hub.metrics.rejected(.rateLimited)
                return room.refuseDragStart(refusal, from: key)
            }
            room.dragStart(columns: columns, from: key)
        case .message(.dragOver(let collection, let index)):
            dragOver(collection: collection, index: index, room: room)
        case .message(.dragEnd):
            flushDragOver(to: room)
            // Counted, but never refused or delayed: an end only gives items back, and
            // refusing it would leave them held.
            _ = budgets.presence?.take(now: now)
            room.dragEnd(from: key)
        case .message(.editing(let item)):
            // Presence: a mark beyond the rate is refused; an end is always taken (counted).
            if budgets.presence?.take(now: now) == false, item != nil {
                return link.send(.error(ErrorMessage(code: .rateLimited, message: "editing beyond the presence rate")))
            }
            room.setEditing(item, from: key)
        case .message(.ping(let id)):
            answerPing(id)
        case .message(.token(let token)):
            refreshToken(token, room: room)
        case .message(.peersList(let after, let limit)):
            // A page costs the room up to `MembershipLimits.maximumPage` peers: paced as presence.
            guard budgets.presence?.take(now: now) != false else {
                return link.send(.error(ErrorMessage(code: .rateLimited, message: "peers.list beyond the presence rate")))
            }
            // And by its answer's bytes: the most a page of `limit` maximal names takes
            // now, settled with what the room wrote once it answered (a page of drags may
            // take more, and then the budget is in debt).
            let estimate = MembershipLimits.pageByteEstimate(limit: limit)
            guard budgets.peersPageBytes?.take(Double(estimate), now: now) != false else {
                let rate = hub.configuration.operationByteRate.map { "\(Int($0.perSecond))" } ?? ""
                return link.send(.error(ErrorMessage(code: .rateLimited, message: "peers.list answers beyond \(rate) bytes per second")))
            }
            room.listPeers(after: after, limit: limit, for: key) { [self] bytes in
                self.link.schedule(after: .nanoseconds(0)) { self.budgets.peersPageBytes?.settle(Double(bytes - estimate), now: self.now) }
            }
        case .error(let error):
            link.send(.error(error))
        case .rejected(let rejected):
            link.send(.rejected(rejected))
        }
    }

    /// The first message: a `hello`, read only when its address has not had too many refused
    /// and it is no longer than a hello needs to be.
    private func receiveFirst(_ text: String) {
        if let address, !hub.mayTryHello(from: address) {
            phase = .closed
            return BoardRoom.refuse(
                link, .rateLimited, "too many refused hellos from this address; try again in a moment", close: .tryAgainLater)
        }
        guard text.utf8.count <= Self.maximumHelloBytes else {
            return refuseHello(.invalid, "the first message must be a hello of at most \(Self.maximumHelloBytes) bytes")
        }
        let decoded = WireFormat.decodeClientMessage(Data(text.utf8))
        guard case .message(.hello(let hello)) = decoded else {
            let detail = if case .error(let error) = decoded { " (\(error.message))" } else { "" }
            return refuseHello(.invalid, "the first message must be hello\(detail)")
        }
        join(hello)
    }

    /// Refuses the `hello` (or what came instead of one) and counts it against the address.
    private func refuseHello(_ code: ErrorCode, _ message: String) {
        phase = .closed
        if let address { hub.helloRefused(from: address) }
        BoardRoom.refuse(link, code, message, close: .policyViolation)
    }

    /// A `pong` straight from the connection's queue: it proves this connection alive, so it
    /// never waits behind the room's work.
    private func answerPing(_ id: String) {
        guard budgets.ping?.take(now: now) != false else {
            let rate = hub.configuration.pingRate.map { "\(Int($0.perSecond))" } ?? ""
            return link.send(.error(ErrorMessage(code: .rateLimited, message: "more than \(rate) pings per second")))
        }
        link.send(.pong(id: id))
    }

    /// Joins as an observer named "event stream" instead of waiting for `hello`: how an event
    /// stream (`GET /api/boards/{id}/events`, docs/protocol.md#event-stream) follows a board,
    /// judged by the same token rules as a `hello`. With `seq` it resumes after that seq
    /// (of `epoch`, or of whichever epoch the board is in when nil), else it starts from a
    /// snapshot; a resume the room cannot replay gets a snapshot too.
    public func follow(board: String, token: String?, after seq: Int?, epoch: String?) {
        guard isAwaitingHello else { return }
        let resume = seq.map { ResumePoint(epoch: epoch ?? "", seq: $0) }
        join(Hello(board: board, name: "event stream", token: token, resume: resume, observe: true), resumingAnyEpoch: epoch == nil)
    }

    /// The connection ended (either side closed it, or it dropped): the member leaves its room.
    public func linkClosed() {
        if case .joined(let room) = phase { room.leave(key) }
        phase = .closed
    }

    /// Why a `drag.start` is over this connection's rates, if it is: it takes one presence
    /// token, and one item token for each item it names, so that the item lists the others
    /// receive stay bounded however fast drags are started. A start over the item limit
    /// takes no item tokens: the room refuses it `invalid`.
    private func rateRefusal(ofDragOf items: [ItemID]) -> Rejected? {
        if budgets.presence?.take(now: now) == false {
            let rate = hub.configuration.presenceRate.map { "\(Int($0.perSecond))" } ?? ""
            return .dragStart(.rateLimited, "more than \(rate) presence messages per second; start the drag again shortly")
        }
        if let limit = hub.configuration.maxDragItems, items.count <= limit, budgets.dragItems?.take(Double(items.count), now: now) == false {
            return .dragStart(.rateLimited, "drags may pick up at most \(limit) items per second; start the drag again shortly")
        }
        return nil
    }

    /// Hands `drag.over` to the room while the presence budget lasts; beyond it, keeps only
    /// the latest and hands it over when the next token is due.
    private func dragOver(collection: String?, index: Int, room: BoardRoom) {
        let budgets = self.budgets
        guard var budget = budgets.presence else {
            return room.dragOver(collection: collection, index: index, from: key)
        }
        defer { budgets.presence = budget }
        if budgets.waitingDragOver == nil, budget.take(now: now) {
            return room.dragOver(collection: collection, index: index, from: key)
        }
        budgets.waitingDragOver = (collection, index)
        guard !budgets.dragOverFlushScheduled else { return }
        budgets.dragOverFlushScheduled = true
        let delay = DispatchTimeInterval.nanoseconds(Int(budget.wait(now: now)))
        // A strong capture, for at most one token's wait (a weak one costs a side table).
        link.schedule(after: delay) { [self] in
            let budgets = self.budgets
            budgets.dragOverFlushScheduled = false
            guard case .joined(let room) = self.phase, budgets.waitingDragOver != nil else { return }
            _ = budgets.presence?.take(now: self.now)
            self.flushDragOver(to: room)
        }
    }

    /// Hands a waiting `drag.over` to the room now: before a `drag.start` or `drag.end`, so
    /// the room sees this client's presence in the order it was sent.
    private func flushDragOver(to room: BoardRoom) {
        guard let budgets = madeBudgets, let (collection, index) = budgets.waitingDragOver else { return }
        budgets.waitingDragOver = nil
        room.dragOver(collection: collection, index: index, from: key)
    }

    private func join(_ hello: Hello, resumingAnyEpoch: Bool = false) {
        let holder: TokenHolder
        switch hub.access.judge(token: hello.token, checkingLifetime: true) {
        case .holder(let valid):
            holder = valid
        case .missing:
            return refuseHello(.unauthorized, "a token is needed to join board \"\(hello.board)\"")
        case .refused(let reason):
            return refuseHello(.unauthorized, reason)
        }
        guard let role = holder.role(on: hello.board) else {
            // Not counted against the address: the token is valid, its holder known.
            phase = .closed
            return BoardRoom.refuse(link, .forbidden, "the token is not valid for board \"\(hello.board)\"", close: .policyViolation)
        }
        // A signed token names its holder: that name is shown to the others, not the one in hello.
        var hello = hello
        if let name = holder.name { hello.name = name }
        if let problem = Limits.nameProblem(hello.name) {
            phase = .closed
            return BoardRoom.refuse(link, .invalid, "name \(problem)", close: .policyViolation)
        }
        guard Limits.isValidID(hello.board) else {
            phase = .closed
            return BoardRoom.refuse(link, .notFound, "there is no board with that id", close: .policyViolation)
        }
        authorBytes = holder.author(named: hello.name).utf8.count
        let room = hub.room(for: hello.board)
        // Joined from here on: operations sent right behind the hello queue up behind the
        // join on the room's queue, in order.
        phase = .joined(room)
        credentials = Credentials(holder: holder, role: role)
        scheduleExpiryCheck()
        room.join(key, link: link, hello: hello, role: role, resumingAnyEpoch: resumingAnyEpoch)
    }
}

extension DispatchTimeInterval {
    /// "10 s", "300 ms": for messages.
    var secondsDescription: String {
        switch self {
        case .seconds(let value): "\(value) s"
        case .milliseconds(let value): "\(value) ms"
        case .microseconds(let value): "\(value) µs"
        case .nanoseconds(let value): "\(value) ns"
        default: "the deadline"
        }
    }
}
