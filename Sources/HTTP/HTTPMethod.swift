/// A request method. Any token parses; only the ones in `known` are served, others get 501.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let GET = HTTPMethod(rawValue: "GET")
    public static let HEAD = HTTPMethod(rawValue: "HEAD")
    public static let POST = HTTPMethod(rawValue: "POST")
    public static let PUT = HTTPMethod(rawValue: "PUT")
    public static let DELETE = HTTPMethod(rawValue: "DELETE")
    public static let PATCH = HTTPMethod(rawValue: "PATCH")
    public static let OPTIONS = HTTPMethod(rawValue: "OPTIONS")

    /// Methods this server implements somewhere; a route decides which it allows (else 405).
    public static let known: Set<HTTPMethod> = [.GET, .HEAD, .POST, .PUT, .DELETE, .PATCH, .OPTIONS]

    public var description: String { rawValue }
}
