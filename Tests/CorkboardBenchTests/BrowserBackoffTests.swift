import Testing

@testable import CorkboardBench

/// The restart bench's `--policy sdk` waits exactly as web/sdk/backoff.js does:
/// `round(min(cap, base · 2^attempt) · (1 − jitter + 2 · jitter · random))` with base 500 ms,
/// cap 10 s and jitter 0.3 (the SDK's `random` is the bench's `1 − random`).
@Suite struct BrowserBackoffTests {
    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 10, 60]) func delaysAreTheSDKsForEveryAttempt(attempt: Int) {
        for random in [0.0, 0.25, 0.5, 0.75, 0.999] {
            let plain = min(10_000, 500 * Double(1 << min(attempt, 20)))
            let sdk = plain * (1 - 0.3 + 2 * 0.3 * random)
            let bench = ReconnectStorm.browserSDK.delay(attempt: attempt, random: 1 - random) * 1000
            #expect(abs(bench - sdk) < 1e-6, "attempt \(attempt), random \(random): \(bench) ms against \(sdk) ms")
        }
    }
}
