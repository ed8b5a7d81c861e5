import Logging

/// How `corkboard serve` writes its log on standard error (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's lines: `2026-11-25T01:17:43+0000 info corkboard: key=value message`.
    case text
    /// One JSON object per line (`JSONLogHandler`).
    case json

    public func makeHandler(label: String, level: Logger.Level) -> LogHandler {
        switch self {
        case .text:
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        case .json:
            return JSONLogHandler(label: label, level: level)
        }
    }
}
