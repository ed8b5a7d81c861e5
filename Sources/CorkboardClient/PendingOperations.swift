import CorkboardModel

/// An operation waiting for its answer, with everything needed to send it again.
struct PendingOperation {
    /// Submission order: operations are (re)sent in the order they were asked for.
    let order: Int
    /// The request as first sent. Its opId and (once sent) its baseSeq never change, so a
    /// resend is the same request and the server answers it at most once
    /// (docs/protocol.md#resending-an-opid).
    var request: OperationRequest
    var waiters: [CheckedContinuation<OperationResult, Never>]
    /// Sent on the current connection and not answered yet.
    var inFlight = false
    /// Resends after transient rejections so far.
    var retries = 0
    /// Changes at every send, so a retry timer set for an earlier one does nothing.
    var sendCount = 0
}

/// The operations not answered yet, by opId. A plain value, only used on the client's loop.
struct PendingOperations {
    private var byID: [OperationID: PendingOperation] = [:]

    var count: Int { byID.count }
    var isEmpty: Bool { byID.isEmpty }

    subscript(opId: OperationID) -> PendingOperation? {
        get { byID[opId] }
        set { byID[opId] = newValue }
    }

    mutating func remove(_ opId: OperationID) -> PendingOperation? {
        byID.removeValue(forKey: opId)
    }

    mutating func removeAll() -> [PendingOperation] {
        defer { byID = [:] }
        return byID.values.sorted { $0.order < $1.order }
    }

    /// OpIds in the order they were submitted.
    var idsInOrder: [OperationID] {
        byID.values.sorted { $0.order < $1.order }.map(\.request.opId)
    }

    /// The connection is gone: nothing is in flight any more.
    mutating func connectionLost() {
        for id in byID.keys { byID[id]?.inFlight = false }
    }

    /// A fresh snapshot at `seq` replaced the replica. A base above it cannot be valid
    /// there; with a new epoch (the board's history was replaced) no old base means
    /// anything, so every sent base moves to the snapshot.
    mutating func rebase(to seq: Int, historyReplaced: Bool) {
        for (id, operation) in byID {
            guard let base = operation.request.baseSeq, historyReplaced || base > seq else { continue }
            byID[id]?.request.baseSeq = seq
        }
    }
}
