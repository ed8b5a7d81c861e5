/// How this side uses permessage-deflate: the trade between bytes on the wire and memory.
public struct DeflateConfiguration: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// No compression is negotiated.
        case off
        /// Context takeover both ways and full windows: the best ratio on streams of similar
        /// messages, at about 100 KiB of zlib state per connection that has compressed anything
        /// (97 KiB resident, measured: docs/benchmarks.md; zlib's buffers count once touched).
        case speed
        /// No context takeover and a 1 KiB window (both ways where the client allows): each
        /// message stands alone, zlib state exists only while a message is being (de)compressed,
        /// so an idle connection holds none, and a broadcast is compressed once for everybody.
        case memory
    }

    public var mode: Mode
    /// Messages smaller than this go out uncompressed: deflate cannot win on them.
    public var minimumSize: Int
    /// zlib's level, 1 (fast) … 9 (small).
    public var level: Int32

    public init(mode: Mode = .memory, minimumSize: Int = 128, level: Int32 = 6) {
        self.mode = mode
        self.minimumSize = minimumSize
        self.level = level
    }

    /// The window bits used in `memory` mode.
    static let memoryWindowBits = 10
}
