import Foundation

/// Where an endpoint's deliveries go: an absolute `http` or `https` URL with a host, and
/// neither user information nor a fragment (docs/integrations.md#webhooks).
public struct WebhookURL: Sendable, Hashable, CustomStringConvertible {
    public let usesTLS: Bool
    public let host: String
    public let port: UInt16
    /// The path and query the request names (`/` when the URL has no path).
    public let target: String
    public let description: String

    /// Throws, with the reason, for anything else.
    public init(_ text: String) throws(WebhookURLProblem) {
        guard text.utf8.count <= 2048 else { throw WebhookURLProblem("a webhook URL is at most 2048 bytes") }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw WebhookURLProblem("\"\(text)\" is not an absolute URL")
        }
        guard scheme == "http" || scheme == "https" else { throw WebhookURLProblem("a webhook URL is http or https, not \(scheme)") }
        guard let host = components.host, !host.isEmpty else { throw WebhookURLProblem("a webhook URL names a host") }
        guard components.user == nil, components.password == nil else {
            throw WebhookURLProblem("a webhook URL has no user or password (the signature authenticates the server)")
        }
        guard components.fragment == nil else { throw WebhookURLProblem("a webhook URL has no fragment") }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else { throw WebhookURLProblem("the port \(port) is not 1…65535") }
        usesTLS = scheme == "https"
        // An IPv6 literal comes bracketed in the URL; the socket layer wants it bare.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = UInt16(port)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        target = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        description = text
    }
}

/// Why a webhook URL is refused.
public struct WebhookURLProblem: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
