import Foundation
import Testing

@testable import CorkboardServer

/// The retry schedule and the delivery state machine, with the time passed in.
@Suite struct WebhookAttemptsTests {
    @Test func theWaitDoublesFromTheBaseUpToTheCapWithJitterBetweenHalfAndAll() {
        let backoff = WebhookBackoff(base: 1, maximum: 600)
        #expect((1...12).map { backoff.delay(afterFailures: $0, jitter: 1) } == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600])
        #expect(backoff.delay(afterFailures: 3, jitter: 0) == 2)
        #expect(backoff.delay(afterFailures: 3, jitter: 0.5) == 3)
        #expect(backoff.delay(afterFailures: 1000, jitter: 1) == 600)
        // --webhook-retry-max 1: never more than a second.
        #expect(WebhookBackoff(base: 1, maximum: 1).delay(afterFailures: 9, jitter: 1) == 1)
    }

    @Test func aFailureWaitsAndTheNextSuccessAdvancesAndClearsTheCount() {
        var attempts = WebhookAttempts(backoff: WebhookBackoff(base: 1, maximum: 600))
        let start = Date(timeIntervalSince1970: 1_000_000)
        #expect(attempts.isDue(at: start))
        #expect(attempts.record(.answered(503), at: start, jitter: 1) == .retry(at: start + 1))
        #expect(!attempts.isDue(at: start + 0.5))
        #expect(attempts.isDue(at: start + 1))
        #expect(attempts.record(.unreachable("connection refused"), at: start + 1, jitter: 1) == .retry(at: start + 3))
        #expect(attempts.record(.answered(302), at: start + 3, jitter: 1) == .retry(at: start + 7), "a redirect is not followed")
        #expect(attempts.failures == 3)
        #expect(WebhookStatus(attempts).lastStatus == 302)
        #expect(WebhookStatus(attempts).nextAttemptAt == 1_000_007_000)

        #expect(attempts.record(.answered(204), at: start + 7, jitter: 1) == .advance)
        #expect(attempts.failures == 0)
        #expect(attempts.isDue(at: start + 7))
        let status = WebhookStatus(attempts)
        #expect(status.lastStatus == 204 && status.lastError == nil && status.nextAttemptAt == nil)
        #expect(attempts.record(.answered(500), at: start + 8, jitter: 1) == .retry(at: start + 9), "the schedule starts again")
        #expect(WebhookStatus.from(WebhookStatus(attempts).text) == WebhookStatus(attempts))
    }

    @Test func aURLIsHttpOrHttpsWithAHost() throws {
        let url = try WebhookURL("https://hooks.example.com/in?team=7")
        #expect(url.usesTLS && url.host == "hooks.example.com" && url.port == 443 && url.target == "/in?team=7")
        let plain = try WebhookURL("http://[::1]:9000")
        #expect(!plain.usesTLS && plain.host == "::1" && plain.port == 9000 && plain.target == "/")
        for refused in ["ftp://example.com/", "example.com/hook", "http:///nohost", "https://user:pw@example.com/", "https://example.com/#x", ""] {
            #expect(throws: WebhookURLProblem.self, "\(refused)") { try WebhookURL(refused) }
        }
    }
}
