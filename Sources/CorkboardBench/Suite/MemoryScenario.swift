import Dispatch
import Foundation
import Sockets
import WebSocket
import WebSocketDeflate

/// Server memory per idle connection (issue #11): the server's resident size before and after
/// `connections` clients have joined boards (spread over `boards`, so that the joins' announcements
/// stay small) and gone quiet. With `deflate` the clients offer permessage-deflate; whether
/// the server accepted is reported with the figure.
public struct MemoryScenario {
    public struct Configuration: Sendable {
        public var url: String?
        /// The external server's process id (its memory is read from /proc); ignored without `url`.
        public var pid: Int32?
        public var connections = 10_000
        public var boards = 100
        public var deflate = false
        public var clientLoops = 2
        public var timeout = 300.0
        public init() {}
    }

    public struct Result: Sendable {
        public var connections: Int
        public var deflateNegotiated: Bool
        public var residentBefore: Int
        public var residentIdle: Int
        public var bytesPerConnection: Double { Double(residentIdle - residentBefore) / Double(connections) }
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> Result {
        let target = try BenchTarget(
            url: configuration.url, serverArguments: ["--no-demo", "--store", "memory"],
            serverPID: configuration.pid)
        let loops = IOLoopGroup(count: configuration.clientLoops)
        let boards = (0..<configuration.boards).map { _ in SuiteBoard.freshID("memory") }
        for board in boards { try SuiteBoard.create(id: board, movers: 1, target: target, loop: loops.next()) }
        Thread.sleep(forTimeInterval: 1)
        let before = try residentBytes(target)
        var options = WebSocketOptions()
        options.closeTimeout = .seconds(30)
        if configuration.deflate { options.extensions = DeflateNegotiator() }
        let gate = JoinGate(window: 200)
        let members = (0..<configuration.connections).map {
            BoardMember(number: $0, loop: loops.next(), board: boards[$0 % boards.count], gate: gate)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let sockets = try joinAll(
            members.map { ($0, $0.loop) }, target: target, options: options, gate: gate,
            timeout: configuration.timeout)
        defer { for socket in sockets { socket.close() } }
        progress(
            String(
                format: "%d connections joined %d boards in %.1f s (permessage-deflate offered: %@, negotiated: %@)",
                sockets.count, boards.count, secondsSince(started), configuration.deflate ? "yes" : "no",
                sockets.first?.isCompressing == true ? "yes" : "no"))
        // Let the server finish the joins' announcements and return what it allocated for them.
        Thread.sleep(forTimeInterval: 3)
        let idle = try residentBytes(target)
        let result = Result(
            connections: sockets.count, deflateNegotiated: sockets.first?.isCompressing == true,
            residentBefore: before, residentIdle: idle)
        progress(
            String(
                format: "server RSS %.1f MB before, %.1f MB with %d idle connections: %.2f KiB per connection",
                Double(before) / 1e6, Double(idle) / 1e6, sockets.count, result.bytesPerConnection / 1024))
        return result
    }

    private func residentBytes(_ target: BenchTarget) throws -> Int {
        guard let bytes = target.serverResidentBytes else {
            throw BenchTarget.Failure(description: "cannot read the server's memory: give its process id with --pid")
        }
        return bytes
    }
}
