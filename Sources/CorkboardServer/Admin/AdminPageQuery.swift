import Foundation

/// The query of a listing of the admin API (the list conventions of docs/protocol.md#8-http-api):
/// `limit` (1…1000, default 100) and `cursor` (opaque: the last id of the page before, in
/// base64url), each at most once, nothing else.
struct AdminPageQuery: Equatable {
    static let defaultLimit = 100
    static let limits = 1...1000

    var limit = defaultLimit
    /// The id the page starts after.
    var after: String?

    static func parse(_ pairs: [(name: String, value: String)]) -> Result<AdminPageQuery, AdminQueryError> {
        var query = AdminPageQuery()
        var seen: Set<String> = []
        for (name, value) in pairs {
            guard seen.insert(name).inserted else { return .failure(AdminQueryError("\"\(name)\" is given more than once")) }
            switch name {
            case "limit":
                guard let limit = Int(value), limits.contains(limit) else {
                    return .failure(AdminQueryError("limit must be a whole number from \(limits.lowerBound) to \(limits.upperBound)"))
                }
                query.limit = limit
            case "cursor":
                guard let after = cursorValue(value) else { return .failure(AdminQueryError("the cursor is not one this server gave")) }
                query.after = after
            default:
                return .failure(AdminQueryError("unknown query parameter \"\(name)\" (limit and cursor are)"))
            }
        }
        return .success(query)
    }

    /// The cursor of a page that ends with `id`.
    static func cursor(after id: String) -> String {
        Data(id.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func cursorValue(_ cursor: String) -> String? {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard !cursor.isEmpty, let data = Data(base64Encoded: base64), let id = String(data: data, encoding: .utf8), !id.isEmpty else { return nil }
        return id
    }
}

struct AdminQueryError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
