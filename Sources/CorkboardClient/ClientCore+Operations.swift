import CorkboardModel
import CorkboardWire
import Dispatch

/// Operations from submission to answer (on the loop): opIds, baseSeq, resends after a
/// reconnect, retries after transient rejections, timeouts.
extension ClientCore {
    /// Queues an operation; it is sent now if joined, else at the next welcome. An opId the
    /// caller chose that is already waiting shares that operation's answer.
    func submit(
        _ operation: RequestedOperation, opId chosen: OperationID?,
        _ waiter: CheckedContinuation<OperationResult, Never>
    ) {
        submitted += 1
        let opId = chosen ?? "\(configuration.opIdPrefix)-\(submitted)"
        guard phase != .closed, phase != .closing else {
            return waiter.resume(returning: .unanswered(opId: opId, closedReason ?? .closed))
        }
        if pending[opId] != nil {
            pending[opId]?.waiters.append(waiter)
            return
        }
        pending[opId] = PendingOperation(
            order: submitted, request: OperationRequest(opId: opId, baseSeq: nil, operation), waiters: [waiter])
        if let timeout = configuration.operationTimeout {
            loop.queue.asyncAfter(deadline: .now() + timeout) { [weak self] in
                self?.settle(opId, with: .unanswered(opId: opId, .timedOut))
            }
        }
        if phase == .joined { transmit(opId) }
    }

    /// Sends (or resends) a waiting operation on the current connection. The base is the
    /// replica's seq at the first send and stays with the request: the offsets of a move
    /// mean what they meant then.
    func transmit(_ opId: OperationID) {
        guard phase == .joined, var operation = pending[opId], let replica else { return }
        if operation.request.baseSeq == nil, operation.request.operation.needsBaseSeq {
            operation.request.baseSeq = replica.seq
        }
        operation.inFlight = true
        operation.sendCount += 1
        pending[opId] = operation
        send(.operation(operation.request))
    }

    /// A transient rejection is retried with the same opId after a pause, a bounded number
    /// of times; anything else is the answer.
    func operationRejected(_ opId: OperationID, code: RejectionCode, message: String) {
        guard var operation = pending[opId] else { return }
        guard configuration.retriedRejections.contains(code), operation.retries < configuration.maximumRetries else {
            return settle(opId, with: .rejected(code, message: message))
        }
        operation.inFlight = false
        operation.retries += 1
        pending[opId] = operation
        let sendCount = operation.sendCount
        let delay = configuration.retryBackoff.delay(attempt: operation.retries - 1)
        loop.queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            // A reconnect in between has resent it already (and counted the send).
            guard let self, let current = self.pending[opId], current.sendCount == sendCount, !current.inFlight else { return }
            self.transmit(opId)
        }
    }

    /// Gives the answer to everyone waiting for `opId`, once.
    func settle(_ opId: OperationID, with result: OperationResult) {
        guard let operation = pending.remove(opId) else { return }
        for waiter in operation.waiters { waiter.resume(returning: result) }
    }

    // MARK: Presence

    /// Drag messages are presence: sent only while joined, never queued or resent (the
    /// server clears a drag when its connection ends).
    func sendPresence(_ message: ClientMessage) -> Bool {
        guard phase == .joined else { return false }
        send(message)
        return true
    }
}
