import CorkboardModel
import Dispatch
import Foundation
import Glibc
import Synchronization

/// A bench member speaking just enough WebSocket (RFC 6455) for the fan-out scenarios, on a
/// plain socket: a blocking handshake and `hello`, then its socket is read by `EpollReceivers`.
/// It notes each sequenced `committed` like `BoardMember`, answers pings, and sends moves.
///
/// Confinement: `pendingBytes` is touched by its receiver thread only (and by `join` before
/// that); `log` and `pending` are shared with the driver, behind mutexes.
final class LeanMember: BenchMember, @unchecked Sendable {
    struct JoinFailure: Error, CustomStringConvertible { let description: String }

    let number: Int
    let fd: Int32
    let log = Mutex(MemberLog())
    private let listener: MoveAnswerListener?
    /// Moves sent and not answered yet, by opId.
    private let pending = Mutex(Set<String>())
    private let sending = Mutex(())
    /// The start of a frame not wholly read yet.
    private var pendingBytes: [UInt8] = []
    /// Masking keys (RFC 6455 asks only that proxies cannot predict them).
    private var random: SplitMix64

    /// Connects, upgrades to a WebSocket on `/ws`, says hello to `board` (resuming from
    /// `resume` when given), and waits for the welcome. Blocking.
    init(
        number: Int, host: String, port: UInt16, board: String, listener: MoveAnswerListener?, resume: ResumePoint? = nil,
        name: String? = nil, timeout: Double = 60
    ) throws {
        self.number = number
        self.listener = listener
        random = SplitMix64(seed: UInt64(number) &+ 0x5EED)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw JoinFailure(description: "socket: \(String(cString: strerror(errno)))") }
        do {
            try connectBlocking(host: host, port: port, timeout: timeout)
            try handshake(host: host, port: port, board: board)
            let resuming = resume.map { #","resume":{"epoch":"\#($0.epoch)","seq":\#($0.seq)}"# } ?? ""
            // A bench name needs no JSON escapes.
            let name = name ?? "bench-\(number)"
            try sendFrame(opcode: 1, Array(#"{"type":"hello","board":"\#(board)","name":"\#(name)"\#(resuming)}"#.utf8))
            try awaitWelcome()
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            // What came with the welcome (a resume's replay) is handled now: the socket may
            // not be readable again until much later.
            consumePending(at: DispatchTime.now().uptimeNanoseconds)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    private let closing = Atomic<Bool>(false)
    var isClosed: Bool { closing.load(ordering: .relaxed) }

    /// Closes the socket, once.
    func close() {
        guard !closing.exchange(true, ordering: .relaxed) else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }

    func send(move: String, opId: String) {
        pending.withLock { _ = $0.insert(opId) }
        try? sendFrame(opcode: 1, Array(move.utf8))
    }

    // MARK: Reading (on the receiver thread)

    /// Reads once and handles every whole frame; false when the socket is finished.
    func readAvailable(into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        let count = read(fd, buffer.baseAddress, buffer.count)
        // The time of this read, not of the wake-up: a move sent while a batch of sockets is
        // being read may already be answered in it.
        let time = DispatchTime.now().uptimeNanoseconds
        if count < 0 { return errno == EAGAIN || errno == EINTR }
        if count == 0 {
            log.withLock { $0.closed = $0.closed ?? "closed by the server" }
            return false
        }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        if pendingBytes.isEmpty {
            let used = consume(bytes, at: time)
            if used < count { pendingBytes = Array(bytes[used...]) }
        } else {
            pendingBytes.append(contentsOf: bytes)
            consumePending(at: time)
        }
        return log.withLock { $0.closed == nil }
    }

    /// Handles the whole frames in `pendingBytes` and keeps the rest.
    private func consumePending(at time: UInt64) {
        let joined = pendingBytes
        let used = joined.withUnsafeBytes { consume($0, at: time) }
        pendingBytes.removeFirst(used)
    }

    /// Handles the whole frames at the start of `bytes`; returns how many bytes they took.
    private func consume(_ bytes: UnsafeRawBufferPointer, at time: UInt64) -> Int {
        var offset = 0
        while let (opcode, payload, next) = Self.frame(in: bytes, at: offset) {
            offset = next
            switch opcode {
            case 1: handle(UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[payload]), at: time)
            case 9: try? sendFrame(opcode: 10, Array(bytes[payload]))
            case 8: log.withLock { $0.closed = $0.closed ?? "close frame from the server" }
            default: break
            }
        }
        return offset
    }

    /// The server frame starting at `offset` (servers never mask): opcode, payload range and
    /// where the next frame starts; nil when it is not wholly there.
    static func frame(in bytes: UnsafeRawBufferPointer, at offset: Int) -> (UInt8, Range<Int>, Int)? {
        guard bytes.count - offset >= 2 else { return nil }
        let opcode = bytes[offset] & 0x0F
        var length = Int(bytes[offset + 1] & 0x7F)
        var start = offset + 2
        if length == 126 {
            guard bytes.count - offset >= 4 else { return nil }
            length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            start = offset + 4
        } else if length == 127 {
            guard bytes.count - offset >= 10 else { return nil }
            length = (0..<8).reduce(0) { $0 << 8 | Int(bytes[offset + 2 + $1]) }
            start = offset + 10
        }
        guard bytes.count - start >= length else { return nil }
        return (opcode, start..<start + length, start + length)
    }

    private func handle(_ text: UnsafeBufferPointer<UInt8>, at time: UInt64) {
        let fields = WireScan.MessageFields(scanning: text)
        let isCommitted = fields.isType("committed")
        let isMembership = fields.type?.starts(with: "peer".utf8) ?? false
        var answer: MoveAnswer?
        log.withLock { log in
            log.received += 1
            log.receivedBytes += text.count
            if isMembership { log.membershipBytes += text.count }
            guard isCommitted else { return }
            if fields.noop {
                answer = .noop
            } else if let seq = fields.seq {
                log.record(seq: seq, at: time)
                answer = .committed(seq: seq)
            }
        }
        if fields.isType("rejected") {
            answer = .rejected(code: WireScan.string("code", in: text).map { String(decoding: $0, as: UTF8.self) } ?? "?")
        }
        // Only a member with a move in flight looks for its opId.
        guard let answer, let listener, !pending.withLock({ $0.isEmpty }), let opIdBytes = fields.opId else { return }
        let opId = String(decoding: opIdBytes, as: UTF8.self)
        guard pending.withLock({ $0.remove(opId) }) != nil else { return }
        listener.member(self, received: answer, opId: opId, at: time)
    }

    // MARK: Joining (blocking)

    private func connectBlocking(host: String, port: UInt16, timeout: Double) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            throw JoinFailure(description: "the lean bench client needs an IPv4 address, not \(host)")
        }
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { throw JoinFailure(description: "cannot connect: \(String(cString: strerror(errno)))") }
    }

    /// The board goes in the query too, as the clients send it: a balancer in front of several
    /// nodes sends a board's members to one node (bench ids need no percent-encoding).
    private func handshake(host: String, port: UInt16, board: String) throws {
        let request =
            "GET /ws?board=\(board) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: corkboard.v1\r\n\r\n"
        try writeAll(Array(request.utf8))
        var head: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw JoinFailure(description: "the server closed during the WebSocket handshake") }
            head += buffer[0..<count]
            if let range = head.firstRange(of: end) {
                let status = String(decoding: head[..<range.lowerBound], as: UTF8.self)
                guard status.hasPrefix("HTTP/1.1 101") else {
                    throw JoinFailure(description: "handshake refused: \(status.prefix(120))")
                }
                pendingBytes = Array(head[range.upperBound...])
                return
            }
            guard head.count < 64 * 1024 else { throw JoinFailure(description: "handshake response too long") }
        }
    }

    /// Reads until the first text frame, which must be the welcome; keeps what follows it.
    private func awaitWelcome() throws {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let welcome = pendingBytes.withUnsafeBytes({ bytes -> (Int?, Int, String, String?, Bool)? in
                guard let (opcode, payload, next) = Self.frame(in: bytes, at: 0) else { return nil }
                let text = UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[payload])
                guard opcode == 1 else { return (nil, next, "a frame with opcode \(opcode)", nil, false) }
                let isWelcome = WireScan.string("type", in: text).map { $0.elementsEqual("welcome".utf8) } ?? false
                let seq = isWelcome ? WireScan.integer("seq", in: text) : nil
                let epoch = WireScan.string("epoch", in: text).map { String(decoding: $0, as: UTF8.self) }
                return (seq, next, String(decoding: text.prefix(200), as: UTF8.self), epoch, WireScan.isTrue("resumed", in: text))
            }) {
                guard let seq = welcome.0 else { throw JoinFailure(description: "hello was answered with \(welcome.2)") }
                pendingBytes.removeFirst(welcome.1)
                log.withLock {
                    $0.welcomeSeq = seq
                    $0.epoch = welcome.3
                    $0.resumed = welcome.4
                }
                return
            }
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw JoinFailure(description: "the server closed before the welcome") }
            pendingBytes += buffer[0..<count]
        }
    }

    // MARK: Writing

    /// A client frame (masked, as RFC 6455 requires), written whole.
    private func sendFrame(opcode: UInt8, _ payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask = sending.withLock { _ in UInt32(truncatingIfNeeded: random.next()) }
        let key = [UInt8(mask & 0xFF), UInt8(mask >> 8 & 0xFF), UInt8(mask >> 16 & 0xFF), UInt8(mask >> 24 & 0xFF)]
        frame += key
        frame += payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
        try sending.withLock { _ in try writeAll(frame) }
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                offset += count
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, 100)
            } else {
                throw JoinFailure(description: "send: \(String(cString: strerror(errno)))")
            }
        }
    }
}

extension LeanMember {
    /// Joins members `numbers` (member n to `board(n)`) on `threads` threads at once, and hands
    /// each to `receivers` once welcomed. Fails with the first refusal.
    static func joinAll(
        _ numbers: Range<Int>, target: BenchTarget, board: @escaping @Sendable (Int) -> String,
        listener: MoveAnswerListener?, receivers: EpollReceivers, threads: Int = 8, name: (@Sendable (Int) -> String)? = nil
    ) throws -> [LeanMember] {
        let joined = Mutex<[Int: LeanMember]>([:])
        let failure = Mutex<Error?>(nil)
        let next = Atomic<Int>(numbers.lowerBound)
        let done = DispatchGroup()
        let (host, port) = (target.host, target.port)
        for _ in 0..<max(1, min(threads, numbers.count)) {
            done.enter()
            Thread {
                defer { done.leave() }
                while failure.withLock({ $0 == nil }) {
                    let number = next.add(1, ordering: .relaxed).oldValue
                    guard number < numbers.upperBound else { return }
                    do {
                        let member = try LeanMember(
                            number: number, host: host, port: port, board: board(number), listener: listener, name: name?(number))
                        receivers.add(member)
                        joined.withLock { $0[number] = member }
                    } catch {
                        failure.withLock { $0 = $0 ?? error }
                    }
                }
            }.start()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) {
            for member in joined.withLock({ $0.values }) { member.close() }
            throw error
        }
        return joined.withLock { members in numbers.map { members[$0]! } }
    }
}
