import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import Glibc
import Sockets
import Synchronization

/// Join churn on a big board (issue #31, item 6): a board of `items` items (labels of
/// `labelBytes`: 10,000 of 200 bytes make a 2.3 MB board), `churners` threads that each
/// connect, send `hello`, read `readBytes` of the welcome and close, again and again for
/// `seconds`; meanwhile one good member of the board commits moves one at a time. Measured:
/// the joins made, the server's CPU seconds, and the good member's move latency (send to its
/// `committed`). Each join at a seq used to write the whole board to JSON again.
public struct JoinChurnScenario {
    public struct Configuration: Sendable {
        public var url: String?
        public var items = 10_000
        public var labelBytes = 200
        public var churners = 4
        public var seconds = 20.0
        public var readBytes = 64 * 1024
        public init() {}
    }

    public struct Result: Sendable {
        public var joins: Int
        public var seconds: Double
        /// User plus system seconds of our own server child (nil for one given by URL).
        public var serverCPUSeconds: Double?
        /// The good member's moves, from sending to its `committed`.
        public var moves: LatencySummary
        public var boardBytes: Int
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> Result {
        let target = try BenchTarget(url: configuration.url, serverArguments: ["--no-demo", "--store", "memory"])
        let loops = IOLoopGroup(count: 1)
        let board = Self.board(id: SuiteBoard.freshID("join-churn"), items: configuration.items, labelBytes: configuration.labelBytes)
        // Created small and filled by inserts: a request body is at most 1 MiB, the board is more.
        var empty = board
        empty.collections[2].items = []
        try HubBenchmark.create(empty, target: target, loop: loops.next())
        for (number, start) in stride(from: 0, to: board.collections[2].items.count, by: 1_000).enumerated() {
            let items = Array(board.collections[2].items[start..<min(start + 1_000, board.collections[2].items.count)])
            let insert = OperationRequest(opId: "fill-\(number)", baseSeq: number, .insert(items: items, destination: Destination(collection: "z")))
            try HubBenchmark.post(
                "/api/boards/\(board.id)/ops", body: try WireFormat.encode(ClientMessage.operation(insert)), expecting: "200", target: target,
                loop: loops.next())
        }
        let boardBytes = try WireFormat.encode(board).count
        progress(String(format: "a board of %d items, %.1f MB", configuration.items, Double(boardBytes) / 1e6))

        let receivers = EpollReceivers(threads: 1)
        defer { receivers.stop() }
        let mover = GoodMover()
        let good = try LeanMember(number: 0, host: target.host, port: target.port, board: board.id, listener: mover)
        receivers.add(good)
        defer { good.close() }

        let deadline = Date().addingTimeInterval(configuration.seconds)
        let joins = Atomic<Int>(0)
        let failure = Mutex<String?>(nil)
        let done = DispatchGroup()
        let cpuBefore = DurableBenchmark.serverCPUSeconds(target)
        let started = DispatchTime.now().uptimeNanoseconds
        let (host, port, readBytes, boardID) = (target.host, target.port, configuration.readBytes, board.id)
        for churner in 0..<configuration.churners {
            done.enter()
            Thread {
                defer { done.leave() }
                while Date() < deadline && failure.withLock({ $0 == nil }) {
                    do {
                        try ChurningJoin.joinAndLeave(host: host, port: port, board: boardID, name: "churn-\(churner)", reading: readBytes)
                        joins.add(1, ordering: .relaxed)
                    } catch {
                        failure.withLock { $0 = $0 ?? "\(error)" }
                    }
                }
            }.start()
        }
        let latencies = try GoodMover.moveUntil(deadline, member: good, mover: mover)
        done.wait()
        let seconds = secondsSince(started)
        if let failure = failure.withLock({ $0 }) { throw Failure(description: "a churning join failed: \(failure)") }
        let cpu = zip(cpuBefore, DurableBenchmark.serverCPUSeconds(target)).map { $1 - $0 }
        let result = Result(
            joins: joins.load(ordering: .relaxed), seconds: seconds, serverCPUSeconds: cpu, moves: LatencySummary(nanoseconds: latencies),
            boardBytes: boardBytes)
        progress(
            String(
                format: "%d joins in %.1f s (%.0f/s), server CPU %.1f s; the good member's %d moves: %@", result.joins, seconds,
                Double(result.joins) / seconds, cpu ?? .nan, latencies.count, result.moves.text))
        return result
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Column `a` holds the good member's item `x0`, `b` is where it goes and comes back from,
    /// `z` holds the rest of the items.
    static func board(id: String, items: Int, labelBytes: Int) -> Board {
        let label = String(repeating: "l", count: max(0, labelBytes - 12))
        return Board(
            id: id, title: "Join churn",
            collections: [
                BoardCollection(id: "a", title: "A", items: [Item(id: "x0", label: "Mover")]),
                BoardCollection(id: "b", title: "B", items: []),
                BoardCollection(id: "z", title: "Z", items: (1..<max(1, items)).map { Item(id: "z\($0)", label: "\($0) \(label)") }),
            ])
    }
}

private func zip(_ before: Double?, _ after: Double?) -> (Double, Double)? {
    guard let before, let after else { return nil }
    return (before, after)
}

/// Tells the good member's move loop when its move was answered.
final class GoodMover: MoveAnswerListener, @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// `member` moves `x0` between columns `a` and `b`, one move at a time, until `deadline`:
    /// the time from sending each to its answer.
    static func moveUntil(_ deadline: Date, member: LeanMember, mover: GoodMover) throws -> [UInt64] {
        var latencies: [UInt64] = []
        var moveNumber = 0
        while Date() < deadline {
            moveNumber += 1
            let baseSeq = member.log.withLock { $0.nextSeq - 1 }
            let destination = moveNumber % 2 == 1 ? "b" : "a"
            let opId = "good-\(moveNumber)"
            let sent = DispatchTime.now().uptimeNanoseconds
            member.send(
                move: #"{"type":"move","opId":"\#(opId)","baseSeq":\#(baseSeq),"sources":["x0"],"#
                    + #""destination":{"collection":"\#(destination)","before":null}}"#, opId: opId)
            guard let answered = mover.wait(for: opId, timeout: 120) else { throw Failure(description: "move \(opId) had no answer in 120 s") }
            latencies.append(answered - sent)
        }
        return latencies
    }

    private let answers = Mutex<[String: UInt64]>([:])
    private let arrived = DispatchSemaphore(value: 0)

    func member(_ member: BenchMember, received answer: MoveAnswer, opId: String, at time: UInt64) {
        answers.withLock { $0[opId] = time }
        arrived.signal()
    }

    /// The time `opId` was answered; nil after `timeout` seconds without it.
    func wait(for opId: String, timeout: Double) -> UInt64? {
        let end = DispatchTime.now() + timeout
        while true {
            if let time = answers.withLock({ $0.removeValue(forKey: opId) }) { return time }
            guard arrived.wait(timeout: end) == .success else { return nil }
        }
    }
}

/// One churning join: connect, upgrade, `hello`, read some of the welcome, close. Blocking.
enum ChurningJoin {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func joinAndLeave(host: String, port: UInt16, board: String, name: String, reading limit: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            throw Failure(description: "an IPv4 address is needed, not \(host)")
        }
        var seconds = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
        let request =
            "GET /ws HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let hello = Array(#"{"type":"hello","board":"\#(board)","name":"\#(name)"}"#.utf8)
        // A masked text frame with a zero key: the payload goes as it is.
        let frame = [0x81, 0x80 | UInt8(hello.count), 0, 0, 0, 0] + hello
        let bytes = Array(request.utf8) + frame
        guard bytes.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw Failure(description: "send: \(String(cString: strerror(errno)))")
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while total < limit {
            let count = read(fd, &buffer, min(buffer.count, limit - total))
            guard count > 0 else { throw Failure(description: "the server closed after \(total) bytes") }
            if total == 0, !buffer.starts(with: Array("HTTP/1.1 101".utf8)) {
                throw Failure(description: "handshake refused: \(String(decoding: buffer[0..<min(count, 120)], as: UTF8.self))")
            }
            total += count
        }
    }
}
