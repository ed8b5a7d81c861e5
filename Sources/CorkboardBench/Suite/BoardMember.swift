import Dispatch
import Synchronization
import Sockets
import WebSocket


/// One bench client on a board: says hello, then notes when each sequenced `committed` event
/// arrives and checks that the seqs come exactly once and in order. It can also send moves and
/// tells its listener their answers. It reads the messages by their bytes (`WireScan`), so any
/// server speaking the protocol's `hello`/`move` subset can be measured, and thousands of
/// members cost the bench process little.
///
/// Confinement: `socket`, `pending` and `welcomed` are touched only on `loop`; `log` is also
/// read by the bench's thread, hence the mutex.
final class BoardMember: BenchMember, WebSocketHandler, @unchecked Sendable {
    let number: Int
    let loop: IOLoop
    private let hello: String
    private let gate: JoinGate
    private let listener: MoveAnswerListener?
    private let dragProbe: DragProbe?
    private var socket: WebSocketConnection?
    private var welcomed = false
    /// Moves this member sent that are not answered yet.
    private var pending = Set<String>()
    let log = Mutex(MemberLog())

    init(number: Int, loop: IOLoop, board: String, gate: JoinGate, listener: MoveAnswerListener?, dragProbe: DragProbe? = nil) {
        self.number = number
        self.loop = loop
        hello = #"{"type":"hello","board":"\#(board)","name":"bench-\#(number)"}"#
        self.gate = gate
        self.listener = listener
        self.dragProbe = dragProbe
    }

    /// Sends a message that expects no answer (presence). Any thread.
    func send(_ text: String) {
        loop.execute { self.socket?.send(.text(text)) }
    }

    /// Sends `move` (a complete message) whose opId is `opId`. Any thread.
    func send(move: String, opId: String) {
        loop.execute {
            guard let socket = self.socket else { return }
            self.pending.insert(opId)
            socket.send(.text(move))
        }
    }

    func close() { loop.execute { self.socket?.close() } }

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        self.socket = socket
        socket.send(.text(hello))
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        guard case .text(let text) = message else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let type = WireScan.type(of: text)
        log.withLock { $0.received += 1 }
        // (Presence watchers take the lock twice for a `drag`; it is uncontended.)
        guard welcomed else {
            welcomed = true
            if type == "welcome", let seq = WireScan.integer("seq", in: text) {
                log.withLock { $0.welcomeSeq = seq }
                gate.finish(nil)
            } else {
                gate.finish("hello was answered with \(text.prefix(200))")
            }
            return
        }
        switch type {
        case "committed":
            if WireScan.isTrue("noop", in: text) {
                answer(.noop, text: text, at: now)
            } else if let seq = WireScan.integer("seq", in: text) {
                record(seq: seq, at: now)
                answer(.committed(seq: seq), text: text, at: now)
            }
        case "drag":
            log.withLock { $0.drags += 1 }
            dragProbe?.received(text, at: now)
        case "rejected":
            answer(.rejected(code: WireScan.string("code", in: text).map(String.init) ?? "?"), text: text, at: now)
        default:
            break
        }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        log.withLock { $0.closed = "\(code.rawValue) \(reason)" }
        if !welcomed {
            welcomed = true
            gate.finish("a member was closed before its welcome (\(code.rawValue) \(reason))")
        }
    }

    private func record(seq: Int, at time: UInt64) {
        log.withLock { $0.record(seq: seq, at: time) }
    }

    private func answer(_ answer: MoveAnswer, text: String, at time: UInt64) {
        guard !pending.isEmpty, let opId = WireScan.string("opId", in: text).map(String.init),
              pending.remove(opId) != nil else { return }
        listener?.member(self, received: answer, opId: opId, at: time)
    }
}
