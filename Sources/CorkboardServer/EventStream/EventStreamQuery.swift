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
        var query = EventStreamQuery()
        var seen: Set<String> = []
        for (name, value) in pairs {
            guard seen.insert(name).inserted else { return .failure(QueryError("\(name) is given twice")) }
            switch name {
            case "since":
                guard let since = seq(value) else {
                    return .failure(QueryError("since must be a seq (a whole number ≥ 0), not \"\(value)\""))
                }
                query.since = since
            case "epoch":
                guard !value.isEmpty else { return .failure(QueryError("epoch must not be empty")) }
                query.epoch = value
            default:
                return .failure(QueryError("unknown query parameter \"\(name)\": GET …/events takes since and epoch"))
            }
        }
        // An EventSource that has seen no id yet sends no header; an empty one means the same.
        if let lastEventID = lastEventID?.trimmingOWS(), !lastEventID.isEmpty {
            guard let seq = seq(lastEventID) else {
                return .failure(QueryError("Last-Event-ID must be a seq (a whole number ≥ 0), not \"\(lastEventID)\""))
            }
            query.since = seq
        }
        return .success(query)
    }

    private static func seq(_ text: String) -> Int? {
        guard let seq = Int(text), seq >= 0 else { return nil }
        return seq
    }
}
