import HTTP

/// The SDK's versioned paths (`/sdk/v1/{file}`) name the files of `web/sdk/`, which the static
/// files serve at `/sdk/{file}`.
enum SDKPath {
    /// The request for `/sdk/v1/{file}` as one for `/sdk/{file}`: the file's segment is kept as
    /// sent (still percent-encoded), so the static files refuse what they refuse at `/sdk/`
    /// (`..%2f`, hidden files), and the query stays.
    static func unversioned(_ request: HTTPRequest) -> HTTPRequest {
        var unversioned = request
        let file = request.path.split(separator: "/").last ?? ""
        unversioned.target = "/sdk/\(file)" + (request.query.map { "?\($0)" } ?? "")
        return unversioned
    }
}
