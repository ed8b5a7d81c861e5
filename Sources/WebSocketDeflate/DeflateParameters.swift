import WebSocket

/// The parameters of one permessage-deflate agreement (RFC 7692 §7.1).
public struct DeflateParameters: Equatable, Sendable {
    /// The server starts every message with an empty window (its compressor keeps no history).
    public var serverNoContextTakeover = false
    /// The client starts every message with an empty window.
    public var clientNoContextTakeover = false
    /// The LZ77 window the server compresses with, 2^8 … 2^15 bytes.
    public var serverMaxWindowBits = 15
    /// The window the client compresses with; nil when the client did not offer the parameter
    /// (then we must not restrict it, and it uses 15).
    public var clientMaxWindowBits: Int?

    public init() {}

    /// Why an offer or response cannot be used; RFC 7692 says to decline such an offer.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads an offer (server side) or a response (client side). Unknown or repeated
    /// parameters, and values outside 8…15, are invalid. `client_max_window_bits` may come
    /// without a value in an offer ("I can honour a limit"), which is recorded as 15.
    public init(_ offer: WebSocketExtensionOffer, isResponse: Bool) throws {
        guard offer.name == "permessage-deflate" else { throw Invalid(description: "not permessage-deflate") }
        var seen: Set<String> = []
        for (name, value) in offer.parameters {
            guard seen.insert(name).inserted else { throw Invalid(description: "\(name) given twice") }
            switch name {
            case "server_no_context_takeover", "client_no_context_takeover":
                guard value == nil else { throw Invalid(description: "\(name) takes no value") }
                if name == "server_no_context_takeover" { serverNoContextTakeover = true } else { clientNoContextTakeover = true }
            case "server_max_window_bits":
                guard let bits = value.flatMap(Self.windowBits) else { throw Invalid(description: "server_max_window_bits needs a value 8…15") }
                serverMaxWindowBits = bits
            case "client_max_window_bits":
                if let value {
                    guard let bits = Self.windowBits(value) else { throw Invalid(description: "client_max_window_bits must be 8…15") }
                    clientMaxWindowBits = bits
                } else {
                    // A response must give the value; an offer may leave it open.
                    guard !isResponse else { throw Invalid(description: "client_max_window_bits needs a value in a response") }
                    clientMaxWindowBits = 15
                }
            default:
                throw Invalid(description: "unknown parameter \(name)")
            }
        }
    }

    private static func windowBits(_ text: String) -> Int? {
        guard text.count <= 2, text.allSatisfy(\.isNumber), let bits = Int(text), (8...15).contains(bits) else { return nil }
        return bits
    }

    /// The header value that states these parameters.
    public var headerValue: String {
        var offer = WebSocketExtensionOffer(name: "permessage-deflate")
        if serverNoContextTakeover { offer.parameters.append(("server_no_context_takeover", nil)) }
        if clientNoContextTakeover { offer.parameters.append(("client_no_context_takeover", nil)) }
        if serverMaxWindowBits != 15 { offer.parameters.append(("server_max_window_bits", String(serverMaxWindowBits))) }
        if let clientMaxWindowBits { offer.parameters.append(("client_max_window_bits", String(clientMaxWindowBits))) }
        return offer.headerValue
    }
}
