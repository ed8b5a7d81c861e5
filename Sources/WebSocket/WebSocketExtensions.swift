import HTTP

/// One extension offered (or accepted) in `Sec-WebSocket-Extensions`: a name and its
/// parameters, e.g. `permessage-deflate; client_max_window_bits; server_max_window_bits=10`.
public struct WebSocketExtensionOffer: Equatable, Sendable {
    public var name: String
    /// Parameters in order; a parameter without a value has `nil`.
    public var parameters: [(name: String, value: String?)]

    public init(name: String, parameters: [(name: String, value: String?)] = []) {
        self.name = name
        self.parameters = parameters
    }

    /// Parses every field value of the header (several fields, comma-separated offers,
    /// `;`-separated parameters, values plain or quoted). Malformed elements are dropped.
    public static func parse(_ fieldValues: [String]) -> [WebSocketExtensionOffer] {
        fieldValues.flatMap { splitOutsideQuotes($0, on: ",") }.compactMap { element in
            let parts = splitOutsideQuotes(element, on: ";").map { $0.trimmingOWS() }
            guard let name = parts.first, !name.isEmpty else { return nil }
            var offer = WebSocketExtensionOffer(name: name.lowercased())
            for part in parts.dropFirst() where !part.isEmpty {
                let pieces = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingOWS() }
                var value = pieces.count > 1 ? pieces[1] : nil
                if let quoted = value, quoted.count >= 2, quoted.first == "\"", quoted.last == "\"" {
                    value = String(quoted.dropFirst().dropLast())
                }
                offer.parameters.append((pieces[0].lowercased(), value))
            }
            return offer
        }
    }

    /// The header form: `name; a; b=1`.
    public var headerValue: String {
        ([name]
            + parameters.map { parameter in
                parameter.value.map { "\(parameter.name)=\($0)" } ?? parameter.name
            }).joined(separator: "; ")
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.parameters.elementsEqual(rhs.parameters) { $0.name == $1.name && $0.value == $1.value }
    }

    private static func splitOutsideQuotes(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character == separator && !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.map { $0.trimmingOWS() }.filter { !$0.isEmpty }
    }
}

/// Negotiates a compressing extension (permessage-deflate) on either side of a handshake.
public protocol WebSocketExtensionNegotiator: Sendable {
    /// Server side: given the client's offers in order, the accepted response header value
    /// and a factory for each connection's compression, or nil to decline them all.
    func accept(offers: [WebSocketExtensionOffer]) -> (responseHeader: String, makeCompression: @Sendable () -> WebSocketMessageCompression)?
    /// Client side: the `Sec-WebSocket-Extensions` value to offer.
    var offerHeader: String { get }
    /// Client side: the compression for what the server accepted; throws if the response
    /// is not something we offered or can honour.
    func confirm(response: [WebSocketExtensionOffer]) throws -> WebSocketMessageCompression
}
