import CorkboardWire
import Foundation

/// Refreshing the connection's signed token through `tokenProvider` before it expires
/// (docs/protocol.md#refreshing-the-token): on the loop, like everything of `ClientCore`.
extension ClientCore {
    /// Asks the provider (off the loop: it may call the app's backend) and answers on the loop.
    func fetchToken(
        _ provider: @escaping @Sendable () async throws -> String, _ completion: @escaping @Sendable (Result<String, any Error>) -> Void
    ) {
        let loop = self.loop
        Task {
            let result: Result<String, any Error>
            do { result = .success(try await provider()) } catch { result = .failure(error) }
            loop.execute { completion(result) }
        }
    }

    /// Schedules the refresh of a token that expires at `expiresAt` (milliseconds since 1970):
    /// `min(30 s, a quarter of the time left)` before it, at once when that moment is past.
    /// Nothing without a provider or an expiry.
    func scheduleTokenRefresh(expiresAt: Int?) {
        refreshGeneration += 1
        guard configuration.tokenProvider != nil, let expiresAt else { return }
        let left = Double(expiresAt) / 1000 - Date().timeIntervalSince1970
        refresh(after: max(0, left - min(30, left / 4)), attempt: 0)
    }

    /// The refresh was refused (or the provider failed): try again after the backoff's delay,
    /// while the token in force still holds (the server closes 4001 once it does not).
    func retryTokenRefresh(attempt: Int = 0) {
        refreshGeneration += 1
        refresh(after: configuration.tokenRetryBackoff.delay(attempt: attempt), attempt: attempt + 1)
    }

    private func refresh(after delay: Double, attempt: Int) {
        guard let provider = configuration.tokenProvider else { return }
        let generation = refreshGeneration
        loop.queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, self.refreshGeneration == generation, self.phase == .joined else { return }
            self.fetchToken(provider) { [weak self] result in
                guard let self, self.refreshGeneration == generation, self.phase == .joined else { return }
                switch result {
                case .success(let token):
                    self.providedToken = token
                    self.send(.token(token))
                case .failure:
                    self.retryTokenRefresh(attempt: attempt)
                }
            }
        }
    }
}
