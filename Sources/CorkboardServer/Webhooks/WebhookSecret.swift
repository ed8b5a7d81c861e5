import Foundation

/// An endpoint's signing secret in the Standard Webhooks form: `whsec_` and the base64 of
/// 24 to 64 random bytes. Made by the server when the API is given none.
public struct WebhookSecret: Sendable, Hashable {
    /// The key HMAC-SHA256 signs with (the decoded bytes).
    public let key: [UInt8]
    /// As written: `whsec_…`.
    public let text: String

    public static let prefix = "whsec_"
    public static let shape = "whsec_ followed by the base64 of 24 to 64 bytes"

    /// Nil for text that is not `whsec_` and the base64 of 24 to 64 bytes.
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix), let key = Data(base64Encoded: String(text.dropFirst(Self.prefix.count))),
            (24...64).contains(key.count)
        else { return nil }
        self.key = Array(key)
        self.text = text
    }

    /// A new secret of 32 random bytes.
    public static func generate() -> WebhookSecret {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        // 32 bytes always make a valid secret.
        return WebhookSecret(prefix + Data(bytes).base64EncodedString())!
    }
}
