import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import Sockets
import WebSocket

/// One WebSocket on `/ws`: waits for `hello` (docs/protocol.md#3-joining), then hands the
/// client's operations to its board's room. Messages are decoded here, on the connection's
/// loop, so a flood of bad input costs its own loop and never the board's sequencer.
///
/// The session also applies the per-connection rates: operations beyond `operationRate` are
/// answered `rate-limited` here, `drag.over` beyond `presenceRate` is coalesced here, and
/// `drag.start` beyond it (or beyond `maxDragItems` items a second) is refused here, so a
/// flooding client never reaches its room's queue with more than its budget.
///
/// Confinement: `phase`, the buckets and the waiting `drag.over` are touched only on the
/// socket's loop (every handler call arrives there, and the hello deadline and the coalescing
/// flush are scheduled there), hence `@unchecked Sendable`.
final class HubSession: WebSocketHandler, LoopTickable, @unchecked Sendable {
    private enum Phase {
        case awaitingHello
        case joined(BoardRoom)
        case closed
    }

    private let hub: Hub
    private var phase = Phase.awaitingHello
    private var operationBudget: TokenBucket?
    private var operationByteBudget: TokenBucket?
    private var presenceBudget: TokenBucket?
    /// The items this connection's drag starts may name: `maxDragItems` a second.
    private var dragItemBudget: TokenBucket?
    /// The latest `drag.over` that found no token, and whether a flush is scheduled for it.
    private var waitingDragOver: (collection: String, index: Int)?
    private var dragOverFlushScheduled = false
    /// Until `hello` arrives: the socket and when it is refused for not saying it. Checked by
    /// its loop's ticker: a timer block holding the session weakly would give the session and
    /// the socket side tables, making every retain of them on the broadcast path slower.
    private var helloWait: (socket: WebSocketConnection, deadline: DispatchTime)?

    init(hub: Hub) {
        self.hub = hub
        operationBudget = hub.configuration.operationRate.map { TokenBucket($0) }
        operationByteBudget = hub.configuration.operationByteRate.map { TokenBucket($0) }
        presenceBudget = hub.configuration.presenceRate.map { TokenBucket($0) }
        dragItemBudget = hub.configuration.maxDragItems.map { TokenBucket(RateLimit(perSecond: Double($0))) }
    }

    private var key: MemberKey { ObjectIdentifier(self) }

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        let timeout = hub.configuration.helloTimeout
        helloWait = (socket, .now() + timeout)
        // Checked four times per timeout: refused between 1 and 1.25 timeouts after opening.
        socket.connection.loop.startTicking(self, every: .nanoseconds(Int(timeout.nanoseconds / 4)))
    }

    func loopDidTick(now: DispatchTime) {
        guard let (socket, deadline) = helloWait, case .awaitingHello = phase else { return stopWaitingForHello() }
        guard now >= deadline else { return }
        stopWaitingForHello()
        phase = .closed
        BoardRoom.refuse(socket, .invalid, "no hello within \(hub.configuration.helloTimeout.secondsDescription)", close: .policyViolation)
    }

    private func stopWaitingForHello() {
        guard let (socket, _) = helloWait else { return }
        helloWait = nil
        socket.connection.loop.stopTicking(self)
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        // Binary messages never get here: the socket closes them with 1003
        // (docs/protocol.md#close-codes).
        guard case .text(let text) = message else { return }
        let decoded = WireFormat.decodeClientMessage(Data(text.utf8))
        switch phase {
        case .awaitingHello:
            guard case .message(.hello(let hello)) = decoded else {
                phase = .closed
                let detail = if case .error(let error) = decoded { " (\(error.message))" } else { "" }
                return BoardRoom.refuse(socket, .invalid, "the first message must be hello\(detail)", close: .policyViolation)
            }
            join(hello, socket: socket)
        case .joined(let room):
            switch decoded {
            case .message(.operation(let request)):
                if operationBudget?.take() == false {
                    hub.metrics.rejected(.rateLimited)
                    return socket.send(.rejected(Rejected(hub.configuration.rateLimitedRejection(request.opId))))
                }
                if operationByteBudget?.take(Double(text.utf8.count)) == false {
                    hub.metrics.rejected(.rateLimited)
                    return socket.send(.rejected(Rejected(hub.configuration.byteRateLimitedRejection(request.opId))))
                }
                room.submit(request, from: key)
            case .message(.hello):
                socket.send(invalid: "already joined; a connection joins one board once")
            case .message(.dragStart(let items)):
                flushDragOver(to: room)
                if let refusal = rateRefusal(ofDragOf: items) {
                    hub.metrics.rejected(.rateLimited)
                    return room.refuseDragStart(refusal, from: key)
                }
                room.dragStart(items, from: key)
            case .message(.dragOver(let collection, let index)):
                dragOver(collection: collection, index: index, room: room, socket: socket)
            case .message(.dragEnd):
                flushDragOver(to: room)
                // Counted, but never refused or delayed: an end only gives items back, and
                // refusing it would leave them held.
                _ = presenceBudget?.take()
                room.dragEnd(from: key)
            case .error(let error):
                socket.send(.error(error))
            case .rejected(let rejected):
                socket.send(.rejected(rejected))
            }
        case .closed:
            break
        }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        if case .joined(let room) = phase { room.leave(key) }
        phase = .closed
        stopWaitingForHello()
    }

    /// Why a `drag.start` is over this connection's rates, if it is: it takes one presence
    /// token, and one item token for each item it names, so that the item lists the others
    /// receive stay bounded however fast drags are started. A start over the item limit
    /// takes no item tokens: the room refuses it `invalid`.
    private func rateRefusal(ofDragOf items: [ItemID]) -> Rejected? {
        if presenceBudget?.take() == false {
            let rate = hub.configuration.presenceRate.map { "\(Int($0.perSecond))" } ?? ""
            return .dragStart(.rateLimited, "more than \(rate) presence messages per second; start the drag again shortly")
        }
        if let limit = hub.configuration.maxDragItems, items.count <= limit, dragItemBudget?.take(Double(items.count)) == false {
            return .dragStart(.rateLimited, "drags may pick up at most \(limit) items per second; start the drag again shortly")
        }
        return nil
    }

    /// Hands `drag.over` to the room while the presence budget lasts; beyond it, keeps only
    /// the latest and hands it over when the next token is due.
    private func dragOver(collection: String, index: Int, room: BoardRoom, socket: WebSocketConnection) {
        guard var budget = presenceBudget else {
            return room.dragOver(collection: collection, index: index, from: key)
        }
        defer { presenceBudget = budget }
        if waitingDragOver == nil, budget.take() {
            return room.dragOver(collection: collection, index: index, from: key)
        }
        waitingDragOver = (collection, index)
        guard !dragOverFlushScheduled else { return }
        dragOverFlushScheduled = true
        let delay = DispatchTimeInterval.nanoseconds(Int(budget.wait()))
        // A strong capture, for at most one token's wait (a weak one costs a side table).
        socket.connection.loop.queue.asyncAfter(deadline: .now() + delay) { [self] in
            self.dragOverFlushScheduled = false
            guard case .joined(let room) = self.phase, self.waitingDragOver != nil else { return }
            _ = self.presenceBudget?.take()
            self.flushDragOver(to: room)
        }
    }

    /// Hands a waiting `drag.over` to the room now: before a `drag.start` or `drag.end`, so
    /// the room sees this client's presence in the order it was sent.
    private func flushDragOver(to room: BoardRoom) {
        guard let (collection, index) = waitingDragOver else { return }
        waitingDragOver = nil
        room.dragOver(collection: collection, index: index, from: key)
    }

    private func join(_ hello: Hello, socket: WebSocketConnection) {
        guard let role = hub.role(token: hello.token, board: hello.board) else {
            phase = .closed
            return BoardRoom.refuse(socket, .forbidden, "the token is not valid for board \"\(hello.board)\"", close: .policyViolation)
        }
        guard Limits.isValidText(hello.name) else {
            phase = .closed
            return BoardRoom.refuse(socket, .invalid, "name is longer than \(Limits.maximumTextBytes) bytes", close: .policyViolation)
        }
        guard Limits.isValidBoardID(hello.board) else {
            phase = .closed
            return BoardRoom.refuse(socket, .notFound, "there is no board with that id", close: .policyViolation)
        }
        let room = hub.room(for: hello.board)
        // Joined from here on: operations sent right behind the hello queue up behind the
        // join on the room's queue, in order.
        phase = .joined(room)
        room.join(key, socket: socket, hello: hello, role: role)
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
