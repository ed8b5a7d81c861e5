import Foundation

/// The three headers of a Standard Webhooks delivery (docs/integrations.md#verifying-a-delivery):
/// `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`, `v1,` and the
/// base64 of HMAC-SHA256 over `"{id}.{timestamp}.{body}"` with the secret's key.
public enum WebhookSignature {
    /// `v1,<base64>` for one message.
    public static func sign(secret: WebhookSecret, id: String, timestamp: Int64, body: [UInt8]) -> String {
        let signed = Array("\(id).\(timestamp).".utf8) + body
        return "v1," + Data(HMACSHA256.mac(key: secret.key, message: signed)).base64EncodedString()
    }

    /// The headers a delivery of `body` goes out with.
    public static func headers(secret: WebhookSecret, id: String, timestamp: Int64, body: [UInt8]) -> [(String, String)] {
        [
            ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", sign(secret: secret, id: id, timestamp: timestamp, body: body)),
        ]
    }

    /// Whether one of the space-separated signatures of a `webhook-signature` header is the
    /// right one (compared in constant time): what a receiver does, here for `corkboard`'s own checks.
    public static func verify(secret: WebhookSecret, id: String, timestamp: Int64, body: [UInt8], header: String) -> Bool {
        let expected = Array(sign(secret: secret, id: id, timestamp: timestamp, body: body).utf8)
        return header.split(separator: " ").contains { HMACSHA256.equal(Array($0.utf8), expected) }
    }
}
