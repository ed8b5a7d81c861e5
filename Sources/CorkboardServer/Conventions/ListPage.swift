import HTTP

/// One page of a list endpoint (docs/protocol.md#conventions): `limit` (1…1000, default 100)
/// entries after the `cursor`'s, in the order of their sort key, and the cursor of the next
/// page when there is one.
struct ListPage: Equatable {
    static let defaultLimit = 100
    static let maxLimit = 1000
    /// What a list route takes.
    static let parameters = ["limit", "cursor"]

    var limit = defaultLimit
    /// The sort key the page starts after; nil: from the first entry.
    var after: String?

    /// The page a list's query asks for, or the message of the 400 that refuses it.
    static func parse(_ parameters: [String: String]) -> Result<ListPage, QueryError> {
        var page = ListPage()
        if let value = parameters["limit"] {
            guard let limit = Int(value), (1...maxLimit).contains(limit) else {
                return .failure(QueryError("limit must be a whole number from 1 to \(maxLimit), not \"\(value)\""))
            }
            page.limit = limit
        }
        if let value = parameters["cursor"] {
            guard let key = PageCursor.decode(value) else {
                return .failure(QueryError("cursor must be a \"next\" this server gave, not \"\(value)\""))
            }
            page.after = key
        }
        return .success(page)
    }

    /// The page a list route's request asks for (it takes `limit` and `cursor`, and nothing
    /// else), or nil after answering 400.
    static func read(_ request: HTTPRequest, _ responder: HTTPResponder) -> ListPage? {
        guard let parameters = QueryParameters.read(request, accepting: Self.parameters, responder) else { return nil }
        switch parse(parameters) {
        case .success(let page): return page
        case .failure(let error):
            responder.respond(.error(.badRequest, error.message))
            return nil
        }
    }

    /// This page of `entries`, sorted here by `key` (unique per entry), and the `next` cursor
    /// when entries are left after it.
    func slice<Entry>(_ entries: [Entry], key: (Entry) -> String) -> (entries: [Entry], next: String?) {
        let sorted = entries.map { (key: key($0), entry: $0) }.sorted { $0.key < $1.key }
        let rest = after.map { after in sorted.filter { $0.key > after } } ?? sorted
        let page = rest.prefix(limit)
        let next = rest.count > limit ? page.last.map { PageCursor.encode(after: $0.key) } : nil
        return (page.map(\.entry), next)
    }
}
