/// The query of `GET /api/boards/{id}/ops`: `since` (the cursor: a seq, default 0) and
/// `limit` (events per page, 1…10,000, default 1,000). Anything else, a repeated parameter or
/// a value out of range is refused (400) rather than guessed at: a client that misspells
/// `limit` learns it at once instead of reading pages of a size it did not ask for.
struct OpsPageQuery: Equatable {
    static let defaultLimit = 1000
    static let maxLimit = 10_000

    var since = 0
    var limit = defaultLimit

    /// The query, or the message of the 400 that refuses it.
    static func parse(_ pairs: [(name: String, value: String)]) -> Result<OpsPageQuery, QueryError> {
        var query = OpsPageQuery()
        var seen: Set<String> = []
        for (name, value) in pairs {
            guard seen.insert(name).inserted else { return .failure(QueryError("\(name) is given twice")) }
            switch name {
            case "since":
                guard let since = Int(value), since >= 0 else {
                    return .failure(QueryError("since must be a seq (a whole number ≥ 0), not \"\(value)\""))
                }
                query.since = since
            case "limit":
                guard let limit = Int(value), (1...maxLimit).contains(limit) else {
                    return .failure(QueryError("limit must be a whole number from 1 to \(maxLimit), not \"\(value)\""))
                }
                query.limit = limit
            default:
                return .failure(QueryError("unknown query parameter \"\(name)\": GET …/ops takes since and limit"))
            }
        }
        return .success(query)
    }
}

/// Why a query was refused: the message of its 400.
struct QueryError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
