import Dispatch
import Sockets
import Synchronization
import WebSocket

/// One bench client on a board through our own WebSocket stack (so it can offer
/// permessage-deflate): says hello, then notes when each sequenced `committed` event arrives,
/// checks that the seqs come exactly once and in order, and counts others' `drag` updates.
/// It sends presence, never moves: the move scenarios use `LeanMember`. It reads the
/// messages by their bytes (`WireScan`), so any server speaking the protocol's subset can be
/// measured.
///
/// Confinement: `socket` and `welcomed` are touched only on `loop`; `log` is also read by the
/// bench's thread, hence the mutex.
final class BoardMember: WebSocketHandler, @unchecked Sendable {
    let number: Int
    let loop: IOLoop
    private let hello: String
    private let gate: JoinGate
    private let dragProbe: DragProbe?
    private var socket: WebSocketConnection?
    private var welcomed = false
    let log = Mutex(MemberLog())

    /// `compact`: its hello asks for compact drag batches (docs/protocol.md#compact-drags).
    init(number: Int, loop: IOLoop, board: String, gate: JoinGate, dragProbe: DragProbe? = nil, compact: Bool = false) {
        self.number = number
        self.loop = loop
        let presence = compact ? #","presence":"compact""# : ""
        hello = #"{"type":"hello","board":"\#(board)","name":"bench-\#(number)"\#(presence)}"#
        self.gate = gate
        self.dragProbe = dragProbe
    }

    /// Sends a message that expects no answer (presence). Any thread.
    func send(_ text: String) {
        loop.execute { self.socket?.send(.text(text)) }
    }

    func close() { loop.execute { self.socket?.close() } }

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        self.socket = socket
        socket.send(.text(hello))
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        guard case .text(let text) = message else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard welcomed else {
            welcomed = true
            if WireScan.type(of: text) == "welcome", let seq = WireScan.integer("seq", in: text) {
                log.withLock { $0.welcomeSeq = seq }
                gate.finish(nil)
            } else {
                gate.finish("hello was answered with \(text.prefix(200))")
            }
            return
        }
        // A `drags` batch starts with its changes (keys are sorted), each a drag message of its
        // own whose `type` a scan for the first one would find; so does a `drags.compact`. Its
        // type is not looked for: a scan for it would walk the whole batch, which the count
        // below walks already (20,000 batches a second reach the presence scenario's watchers).
        let isBatch = text.hasPrefix(#"{"changes":"#)
        let type = isBatch ? nil : WireScan.type(of: text)
        let seq = type == "committed" && !WireScan.isTrue("noop", in: text) ? WireScan.integer("seq", in: text) : nil
        let updates =
            !isBatch
            ? (type == "drag" || type == "drag.over" ? 1 : 0)
            : text.hasSuffix(#""type":"drags.compact"}"#) ? Self.countUpdates(inCompactBatch: text) : Self.countUpdates(inBatch: text)
        let isPresence = isBatch || (type?.hasPrefix("drag") ?? false)
        log.withLock { log in
            log.received += 1
            if let seq { log.record(seq: seq, at: now) }
            log.drags += updates
            if isPresence {
                log.presenceMessages += 1
                log.presenceBytes += text.utf8.count
            }
        }
        if isBatch {
            dragProbe?.received(batch: text, at: now)
        } else if let type, type == "drag" || type == "drag.over" {
            dragProbe?.received(text, type: type, at: now)
        }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        log.withLock { $0.closed = "\(code.rawValue) \(reason)" }
        if !welcomed {
            welcomed = true
            gate.finish("a member was closed before its welcome (\(code.rawValue) \(reason))")
        }
    }

    /// The `drag` and `drag.over` changes of a `drags` batch: every change's object opens with
    /// its `client` (keys are sorted), and only a clear carries a `reason`.
    static func countUpdates(inBatch text: String) -> Int {
        // Over the UTF-8 bytes: a 1,000-watcher run scans tens of MB a second, which
        // `String.ranges(of:)` (Unicode-aware) did slowly enough to delay the readers.
        var text = text
        return text.withUTF8 { bytes in occurrences(of: Array(#"{"client":"#.utf8), in: bytes) - occurrences(of: Array(#""reason":"#.utf8), in: bytes) }
    }

    /// The `drag` and `drag.over` changes of a `drags.compact` batch: its changes are the
    /// arrays two levels in, and only a clear has two elements (the others four).
    static func countUpdates(inCompactBatch text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var depth = 0
            var inString = false
            var escaped = false
            var elements = 0
            var count = 0
            for byte in bytes {
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if depth == 3 { elements = 1 }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 3, elements == 4 { count += 1 }
                    depth -= 1
                case UInt8(ascii: ",") where depth == 3: elements += 1
                default: break
                }
            }
            return count
        }
    }

    private static func occurrences(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard bytes.count >= pattern.count else { return 0 }
        var count = 0
        var index = 0
        while index <= bytes.count - pattern.count {
            if bytes[index] == pattern[0], (1..<pattern.count).allSatisfy({ bytes[index + $0] == pattern[$0] }) {
                count += 1
                index += pattern.count
            } else {
                index += 1
            }
        }
        return count
    }
}
