import COpenSSL

/// Why OpenSSL refused: a context that cannot be built (unreadable or mismatched certificate
/// and key, a CA file that is not PEM) or a session that cannot be made.
public struct TLSError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }

    /// `what` followed by OpenSSL's reason for the most recent error on this thread's queue,
    /// which is then cleared (a stale entry would be blamed on the next call).
    static func fromQueue(_ what: String) -> TLSError {
        TLSError(OpenSSLErrors.take().map { "\(what): \($0)" } ?? what)
    }
}

/// OpenSSL's per-thread error queue, read as text.
enum OpenSSLErrors {
    /// The reason of the first error queued, the cause rather than its consequences ("no start
    /// line" rather than "PEM lib"), with the queue emptied; nil when nothing was queued.
    static func take() -> String? {
        defer { ERR_clear_error() }
        let code = ERR_peek_error()
        guard code != 0 else { return nil }
        if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
