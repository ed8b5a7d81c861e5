/// A response status code and its reason phrase.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    public let code: Int
    public let reason: String
    public init(_ code: Int, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public static let switchingProtocols = HTTPStatus(101, "Switching Protocols")
    public static let ok = HTTPStatus(200, "OK")
    public static let created = HTTPStatus(201, "Created")
    public static let noContent = HTTPStatus(204, "No Content")
    public static let notModified = HTTPStatus(304, "Not Modified")
    public static let badRequest = HTTPStatus(400, "Bad Request")
    public static let unauthorized = HTTPStatus(401, "Unauthorized")
    public static let forbidden = HTTPStatus(403, "Forbidden")
    public static let notFound = HTTPStatus(404, "Not Found")
    public static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
    public static let requestTimeout = HTTPStatus(408, "Request Timeout")
    public static let conflict = HTTPStatus(409, "Conflict")
    public static let gone = HTTPStatus(410, "Gone")
    public static let lengthRequired = HTTPStatus(411, "Length Required")
    public static let contentTooLarge = HTTPStatus(413, "Content Too Large")
    public static let uriTooLong = HTTPStatus(414, "URI Too Long")
    public static let expectationFailed = HTTPStatus(417, "Expectation Failed")
    public static let locked = HTTPStatus(423, "Locked")
    public static let upgradeRequired = HTTPStatus(426, "Upgrade Required")
    public static let tooManyRequests = HTTPStatus(429, "Too Many Requests")
    public static let headerFieldsTooLarge = HTTPStatus(431, "Request Header Fields Too Large")
    public static let internalServerError = HTTPStatus(500, "Internal Server Error")
    public static let notImplemented = HTTPStatus(501, "Not Implemented")
    public static let serviceUnavailable = HTTPStatus(503, "Service Unavailable")
    public static let versionNotSupported = HTTPStatus(505, "HTTP Version Not Supported")
    public static let insufficientStorage = HTTPStatus(507, "Insufficient Storage")

    /// Statuses that never carry a body.
    var forbidsBody: Bool { code < 200 || code == 204 || code == 304 }

    public var description: String { "\(code) \(reason)" }
}
