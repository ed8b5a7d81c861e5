import CorkboardModel

/// Where an event stream starts (docs/protocol.md#event-stream): after the seq of
/// `Last-Event-ID`, which an EventSource sends when it reconnects and which therefore wins, or
/// of `since` (for clients that cannot set headers); from a snapshot without either. `epoch`,
/// when given, must be the board's for the resume to be replayed. Anything else, a repeated
/// parameter or a value that is not a seq is refused (400), as `GET …/ops` refuses it.
struct EventStreamQuery: Equatable {
    var since: Int?
    var epoch: String?

    /// The query, or the message of the 400 that refuses it.
    static func parse(_ pairs: [(name: String, value: String)], lastEventID: String?) -> Result<EventStreamQuery, QueryError> {
        let parameters: [String: String]
        switch QueryParameters.parse(pairs, accepting: ["since", "epoch"], route: "GET …/events") {
        case .success(let parsed): parameters = parsed
        case .failure(let error): return .failure(error)
        }
        var query = EventStreamQuery()
        if let value = parameters["since"] {
            guard let since = seq(value) else {
                return .failure(QueryError("since must be a seq (a whole number from 0 to \(Limits.maximumSeq)), not \"\(value)\""))
            }
            query.since = since
        }
        if let value = parameters["epoch"] {
            guard !value.isEmpty else { return .failure(QueryError("epoch must not be empty")) }
            query.epoch = value
        }
        // An EventSource that has seen no id yet sends no header; an empty one means the same.
        if let lastEventID = lastEventID?.trimmingOWS(), !lastEventID.isEmpty {
            guard let seq = seq(lastEventID) else {
                return .failure(
                    QueryError("Last-Event-ID must be a seq (a whole number from 0 to \(Limits.maximumSeq)), not \"\(lastEventID)\""))
            }
            query.since = seq
        }
        return .success(query)
    }

    /// Digits only (`+5` and ` 5` are not ids the server sent). No board reaches a seq past
    /// `Limits.maximumSeq`: such a cursor names nothing, and is refused.
    private static func seq(_ text: String) -> Int? {
        guard (1...16).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seq = Int(text),
            seq <= Limits.maximumSeq
        else { return nil }
        return seq
    }
}
