import Foundation
import Glibc
import HTTP
import Logging
import Synchronization

/// Logs as JSON lines on standard error (`--log-format json`), one object per message:
/// `{"ts":"2026-11-25T01:17:43.123Z","level":"info","label":"corkboard","message":"…","metadata":{…}}`,
/// for log collectors that would otherwise have to parse the text format. `metadata` is left
/// out when there is none.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let write: @Sendable (String) -> Void

    /// `write` receives each line, newline included; standard error by default.
    public init(label: String, level: Logger.Level, write: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.logLevel = level
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = event.metadata.map { metadata.merging($0) { _, new in new } } ?? metadata
        var text = #"{"ts":\#(JSONString.quote(Self.timestamp())),"level":\#(JSONString.quote(event.level.rawValue))"#
        text += #","label":\#(JSONString.quote(label)),"message":\#(JSONString.quote(event.message.description))"#
        if !merged.isEmpty { text += #","metadata":"# + Self.json(.dictionary(merged)) }
        write(text + "}\n")
    }

    /// Whole lines, never interleaved: one write each, under one lock for the process.
    public static let standardError: @Sendable (String) -> Void = { line in
        standardErrorLock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }
    private static let standardErrorLock = Mutex(())

    private static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): return JSONString.quote(string)
        case .stringConvertible(let convertible):
            // Numbers and booleans stay numbers and booleans, so that a collector can compare
            // them (`status >= 500`) without parsing strings.
            switch convertible {
            case let integer as any BinaryInteger: return integer.description
            case let number as Double where number.isFinite: return number.description
            case let flag as Bool: return flag ? "true" : "false"
            default: return JSONString.quote(convertible.description)
            }
        case .array(let values): return "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let fields):
            // Sorted, so that the same metadata is always the same line.
            return "{" + fields.sorted { $0.key < $1.key }.map { JSONString.quote($0.key) + ":" + json($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// UTC, to the millisecond: `2026-11-25T01:17:43.123Z`.
    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(now.tv_nsec / 1_000_000))
    }
}
