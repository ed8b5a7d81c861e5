import WebSocket

/// permessage-deflate on one connection: compresses what this side sends, inflates what the
/// peer sends, each direction with the agreed window and context takeover.
/// Used only on the connection's loop.
public final class PerMessageDeflate: WebSocketMessageCompression {
    public let parameters: DeflateParameters
    public let configuration: DeflateConfiguration
    private let deflater: Deflater?
    private let inflater: Inflater
    private let resetDeflaterEachMessage: Bool
    private let resetInflaterEachMessage: Bool
    public let sharedEncodingKey: String?

    /// `isServer` decides which half of the parameters applies to which direction.
    public init(parameters: DeflateParameters, configuration: DeflateConfiguration, isServer: Bool) {
        self.parameters = parameters
        self.configuration = configuration
        let sendBits = isServer ? parameters.serverMaxWindowBits : (parameters.clientMaxWindowBits ?? 15)
        let receiveBits = isServer ? (parameters.clientMaxWindowBits ?? 15) : parameters.serverMaxWindowBits
        // zlib cannot compress raw deflate with a 256-byte window; with that limit we simply
        // send uncompressed messages, which every peer accepts.
        deflater = sendBits >= 9 ? Deflater(windowBits: sendBits, level: configuration.level) : nil
        inflater = Inflater(windowBits: receiveBits)
        resetDeflaterEachMessage = isServer ? parameters.serverNoContextTakeover : parameters.clientNoContextTakeover
        resetInflaterEachMessage = isServer ? parameters.clientNoContextTakeover : parameters.serverNoContextTakeover
        sharedEncodingKey = resetDeflaterEachMessage && deflater != nil ? "w\(sendBits)-l\(configuration.level)" : nil
    }

    public func compress(_ payload: [UInt8]) -> [UInt8]? {
        guard let deflater, payload.count >= configuration.minimumSize else { return nil }
        defer { if resetDeflaterEachMessage { deflater.release() } }
        guard let compressed = deflater.compress(payload) else {
            // The stream may be in any state now; start afresh for the next message.
            deflater.release()
            return nil
        }
        // Without context takeover, sending it plain costs nothing later: do so when deflate lost.
        // With context takeover the compressed bytes must go out: the window now holds them.
        if resetDeflaterEachMessage && compressed.count >= payload.count { return nil }
        return compressed
    }

    public func decompress(_ piece: [UInt8], isFinal: Bool, limit: Int) throws(WebSocketError) -> [UInt8] {
        do {
            let output = try inflater.decompress(piece, isFinal: isFinal, limit: limit)
            if isFinal && resetInflaterEachMessage { inflater.release() }
            return output
        } catch {
            inflater.release()
            throw error
        }
    }
}
