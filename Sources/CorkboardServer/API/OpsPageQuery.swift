/// The query of `GET /api/boards/{id}/ops`: where the page starts, `since` or `cursor` (the
/// same thing, the seq after which it starts, default 0: `cursor` is the name every list takes,
/// docs/protocol.md#conventions, and `since` the one clients used first), and `limit` (events
/// per page, 1…10,000, default 1,000: a log is read in larger pages than a list). Anything else,
/// a repeated parameter or a value out of range is refused (400), as everywhere.
struct OpsPageQuery: Equatable {
    static let defaultLimit = 1000
    static let maxLimit = 10_000

    var since = 0
    var limit = defaultLimit

    /// The query, or the message of the 400 that refuses it.
    static func parse(_ pairs: [(name: String, value: String)]) -> Result<OpsPageQuery, QueryError> {
        let parameters: [String: String]
        switch QueryParameters.parse(pairs, accepting: ["since", "cursor", "limit"], route: "GET …/ops") {
        case .success(let parsed): parameters = parsed
        case .failure(let error): return .failure(error)
        }
        var query = OpsPageQuery()
        if parameters["since"] != nil && parameters["cursor"] != nil {
            return .failure(QueryError("give since or cursor, not both: they are the same seq"))
        }
        for name in ["since", "cursor"] {
            guard let value = parameters[name] else { continue }
            guard let since = Int(value), since >= 0 else {
                return .failure(QueryError("\(name) must be a seq (a whole number ≥ 0), not \"\(value)\""))
            }
            query.since = since
        }
        if let value = parameters["limit"] {
            guard let limit = Int(value), (1...maxLimit).contains(limit) else {
                return .failure(QueryError("limit must be a whole number from 1 to \(maxLimit), not \"\(value)\""))
            }
            query.limit = limit
        }
        return .success(query)
    }
}
