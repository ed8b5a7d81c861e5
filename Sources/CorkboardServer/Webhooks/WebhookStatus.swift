import Foundation

/// An endpoint's last attempt as kept in the store (JSON text) and listed by `GET /api/webhooks`:
/// whichever node delivers writes it, so every node lists the same.
struct WebhookStatus: Codable, Sendable, Hashable {
    /// Failed attempts in a row (0 after a success).
    var failures: Int
    /// Milliseconds since 1970.
    var lastAttemptAt: Int64?
    /// The receiver's status, nil when it could not be reached.
    var lastStatus: Int?
    /// Why the last attempt failed; nil when it succeeded.
    var lastError: String?
    /// Milliseconds since 1970: when the failed message goes again; nil when none waits.
    var nextAttemptAt: Int64?

    init(_ attempts: WebhookAttempts) {
        failures = attempts.failures
        lastAttemptAt = attempts.lastAttemptAt.map(Self.milliseconds)
        nextAttemptAt = attempts.nextAttemptAt.map(Self.milliseconds)
        switch attempts.lastOutcome {
        case .answered(let status)?:
            lastStatus = status
            lastError = (200...299).contains(status) ? nil : "the receiver answered \(status)"
        case .unreachable(let reason)?:
            lastError = reason
        case nil:
            break
        }
    }

    var text: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data("{}".utf8), as: UTF8.self) }

    static func from(_ text: String?) -> WebhookStatus? {
        text.flatMap { try? JSONDecoder().decode(WebhookStatus.self, from: Data($0.utf8)) }
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
