import WebSocket

/// Negotiates permessage-deflate for `WebSocketOptions.extensions`, on either side.
public struct DeflateNegotiator: WebSocketExtensionNegotiator {
    public let configuration: DeflateConfiguration

    public init(configuration: DeflateConfiguration = .init()) {
        self.configuration = configuration
    }

    /// Server side: the first offer we can honour, shaped by the mode; nil declines all.
    public func accept(offers: [WebSocketExtensionOffer]) -> (responseHeader: String, makeCompression: @Sendable () -> WebSocketMessageCompression)? {
        guard configuration.mode != .off else { return nil }
        for offer in offers where offer.name == "permessage-deflate" {
            guard var agreed = try? DeflateParameters(offer, isResponse: false) else { continue }
            if configuration.mode == .memory {
                let small = DeflateConfiguration.memoryWindowBits
                agreed.serverNoContextTakeover = true
                agreed.serverMaxWindowBits = min(agreed.serverMaxWindowBits, small)
                // A server may always ask the client to drop its context; a smaller client
                // window only if the client said it can honour one.
                agreed.clientNoContextTakeover = true
                agreed.clientMaxWindowBits = agreed.clientMaxWindowBits.map { min($0, small) }
            } else if agreed.clientMaxWindowBits == 15 {
                // Offered without a value: we accept its full window and need not say so.
                agreed.clientMaxWindowBits = nil
            }
            let configuration = self.configuration
            let parameters = agreed
            return (agreed.headerValue, { PerMessageDeflate(parameters: parameters, configuration: configuration, isServer: true) })
        }
        return nil
    }

    /// Client side: we can honour any window limit and ask for nothing.
    public var offerHeader: String { "permessage-deflate; client_max_window_bits" }

    public func confirm(response: [WebSocketExtensionOffer]) throws -> WebSocketMessageCompression {
        guard response.count == 1, let accepted = response.first else {
            throw DeflateParameters.Invalid(description: "expected one extension in the response, got \(response.count)")
        }
        let parameters = try DeflateParameters(accepted, isResponse: true)
        return PerMessageDeflate(parameters: parameters, configuration: configuration, isServer: false)
    }
}
