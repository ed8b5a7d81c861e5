import Foundation
import Testing

@testable import CorkboardServer

/// Deliveries are signed as the Standard Webhooks specification says: checked against the
/// test vector of its reference libraries (standard-webhooks, libraries/python/tests).
@Suite struct WebhookSignatureTests {
    static let secret = WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")

    @Test func theSignatureIsTheSpecificationsTestVector() throws {
        let secret = try #require(Self.secret)
        let body = Array(#"{"test": 2432232314}"#.utf8)
        let signature = WebhookSignature.sign(secret: secret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body)
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(WebhookSignature.verify(secret: secret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body, header: signature))
        // One of several space-separated signatures is enough (a receiver during a rotation).
        #expect(
            WebhookSignature.verify(
                secret: secret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body,
                header: "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= " + signature))
        // Another id, time or body is another signature.
        #expect(!WebhookSignature.verify(secret: secret, id: "msg_other", timestamp: 1_614_265_330, body: body, header: signature))
        #expect(!WebhookSignature.verify(secret: secret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_331, body: body, header: signature))
        #expect(!WebhookSignature.verify(secret: secret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body + [0x20], header: signature))
    }

    @Test func aSecretIsWhsecAndTheBase64Of24To64Bytes() {
        #expect(Self.secret?.key.count == 24)
        #expect(WebhookSecret("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil, "the prefix is required")
        #expect(WebhookSecret("whsec_" + Data(count: 23).base64EncodedString()) == nil)
        #expect(WebhookSecret("whsec_" + Data(count: 64).base64EncodedString()) != nil)
        #expect(WebhookSecret("whsec_" + Data(count: 65).base64EncodedString()) == nil)
        #expect(WebhookSecret("whsec_not base64!") == nil)
        let made = WebhookSecret.generate()
        #expect(made.key.count == 32)
        #expect(WebhookSecret(made.text) == made)
        #expect(WebhookSecret.generate() != made)
    }

    @Test func theBodyIsTypeTimestampAndDataWithTheEventAsTheLogGivesIt() throws {
        let message = WebhookMessage.notice(.init(id: 7, kind: .created, board: "a/b \"c\"", atMilliseconds: 1_795_575_010_123))
        #expect(message.id == "notice-7")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(message.body)) as? [String: Any])
        #expect(body["type"] as? String == "board.created")
        #expect(body["timestamp"] as? String == "2026-11-25T02:50:10.123Z")
        #expect((body["data"] as? [String: Any])?["board"] as? String == "a/b \"c\"")

        let skipped = WebhookMessage.skipped(board: "b", after: 3, through: 40)
        let data = try #require((try JSONSerialization.jsonObject(with: Data(skipped.body)) as? [String: Any])?["data"] as? [String: Any])
        #expect(skipped.id == "b:skipped-40")
        #expect(data["from"] as? Int == 4)
        #expect(data["through"] as? Int == 40)
    }
}
