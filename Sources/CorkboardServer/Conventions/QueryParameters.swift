import HTTP

/// The one reading of an API request's query (docs/protocol.md#conventions): each parameter at
/// most once, and only those the route takes. A repeated or unknown one is refused (400) rather
/// than guessed at: a client that misspells `limit` learns it at once instead of reading pages of
/// a size it did not ask for, and `?foo=1` on a route that takes nothing is refused too.
enum QueryParameters {
    /// The parameters by name, or the 400 that refuses them. `accepted` names what the route
    /// takes, in the order the message lists them; `route` is how the message names the route.
    static func parse(
        _ pairs: [(name: String, value: String)], accepting accepted: [String], route: String
    ) -> Result<[String: String], QueryError> {
        var parameters: [String: String] = [:]
        for (name, value) in pairs {
            guard accepted.contains(name) else {
                return .failure(QueryError("unknown query parameter \"\(name)\": \(route) \(takes(accepted))"))
            }
            guard parameters.updateValue(value, forKey: name) == nil else { return .failure(QueryError("\(name) is given twice")) }
        }
        return .success(parameters)
    }

    /// The request's parameters, or nil after answering 400.
    static func read(_ request: HTTPRequest, accepting accepted: [String] = [], _ responder: HTTPResponder) -> [String: String]? {
        switch parse(request.queryPairs, accepting: accepted, route: "\(request.method.rawValue) \(request.path)") {
        case .success(let parameters): return parameters
        case .failure(let error):
            responder.respond(.error(.badRequest, error.message))
            return nil
        }
    }

    private static func takes(_ accepted: [String]) -> String {
        switch accepted.count {
        case 0: "takes no query parameters"
        case 1: "takes only \(accepted[0])"
        default: "takes " + accepted.dropLast().joined(separator: ", ") + " and " + accepted[accepted.count - 1]
        }
    }
}

/// Why a query was refused: the message of its 400.
struct QueryError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
