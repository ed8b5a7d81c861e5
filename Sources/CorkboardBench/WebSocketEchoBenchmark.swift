import Dispatch
import Foundation
import Sockets
import Synchronization
import WebSocket

/// Echo throughput: `connections` clients each keep `inFlight` messages of `size` bytes
/// outstanding against `/ws/echo`; counts echoes per second over the measured interval.
public struct WebSocketEchoBenchmark {
    public struct Configuration: Sendable {
        public var url: String?
        public var connections = 100
        public var size = 512
        public var inFlight = 8
        public var warmupSeconds = 1.0
        public var seconds = 5.0
        public var clientLoops = 2
        public init() {}
    }

    public struct Result: Sendable {
        public var echoed: Int
        public var seconds: Double
        public var messagesPerSecond: Double { Double(echoed) / seconds }
        public var text: String
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> Result {
        let target = try BenchTarget(url: configuration.url)
        let loops = IOLoopGroup(count: configuration.clientLoops)
        let counter = EchoCounter(payload: String(repeating: "x", count: configuration.size), inFlight: configuration.inFlight)
        let sockets = try connectAll(count: configuration.connections, target: target, path: "/ws/echo", loops: loops, handler: counter)
        progress("connected \(sockets.count) clients to \(target.host):\(target.port); warming up \(configuration.warmupSeconds) s")
        for socket in sockets { counter.prime(socket) }
        Thread.sleep(forTimeInterval: configuration.warmupSeconds)
        let before = counter.received
        let started = DispatchTime.now()
        Thread.sleep(forTimeInterval: configuration.seconds)
        let after = counter.received
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        counter.stop()
        for socket in sockets { socket.close() }
        let rate = Double(after - before) / elapsed
        let text = String(
            format: """
                ws-echo: %d connections, %d-byte messages, %d in flight each
                  echoed:        %d messages in %.2f s
                  throughput:    %.0f msg/s (%.1f MB/s each way)
                  mean latency:  %.2f ms
                """, configuration.connections, configuration.size, configuration.inFlight, after - before, elapsed,
            rate, rate * Double(configuration.size) / 1e6,
            Double(configuration.connections * configuration.inFlight) / rate * 1000)
        return Result(echoed: after - before, seconds: elapsed, text: text)
    }
}

/// Counts echoes and sends the next message for each one received. Called on client loops.
final class EchoCounter: WebSocketHandler, Sendable {
    private let count = Atomic<Int>(0)
    private let running = Atomic<Bool>(true)
    let payload: String
    let inFlight: Int

    init(payload: String, inFlight: Int) {
        self.payload = payload
        self.inFlight = inFlight
    }

    var received: Int { count.load(ordering: .relaxed) }
    func stop() { running.store(false, ordering: .relaxed) }

    func prime(_ socket: WebSocketConnection) {
        for _ in 0..<inFlight { socket.send(.text(payload)) }
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        count.add(1, ordering: .relaxed)
        if running.load(ordering: .relaxed) { socket.send(.text(payload)) }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {}
}

/// Opens `count` WebSockets, at most 200 handshakes at a time; fails on the first error.
func connectAll(
    count: Int, target: BenchTarget, path: String, loops: IOLoopGroup, handler: WebSocketHandler & Sendable,
    options: WebSocketOptions = WebSocketOptions()
) throws -> [WebSocketConnection] {
    let results = Mutex<[Result<WebSocketConnection, Error>]>([])
    let window = DispatchSemaphore(value: 200)
    let done = DispatchSemaphore(value: 0)
    var options = options
    options.maxMessageSize = 16 << 20
    options.closeTimeout = .seconds(30)
    for _ in 0..<count {
        window.wait()
        WebSocketClient.connect(
            host: target.host, port: target.port, path: path, options: options,
            loop: loops.next(), handler: handler
        ) { result in
            results.withLock { $0.append(result) }
            window.signal()
            done.signal()
        }
    }
    for _ in 0..<count { done.wait() }
    return try results.withLock { $0 }.map { try $0.get() }
}
