import Foundation
import Sockets
import WebSocket
import WebSocketDeflate

/// Server memory per WebSocket connection: resident size of our own server child before and
/// after `connections` idle clients connect, with and without permessage-deflate negotiated,
/// and again after every connection has received one compressible message (which makes a
/// `speed`-mode server allocate its zlib state for good).
public struct WebSocketMemoryBenchmark {
    public struct Configuration: Sendable {
        public var connections = 10_000
        /// The server's `--deflate` mode; `off` measures plain connections.
        public var deflate = DeflateConfiguration.Mode.memory
        public var clientLoops = 2
        public init() {}
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> String {
        let target = try BenchTarget(url: nil, serverArguments: ["--deflate", configuration.deflate.rawValue])
        let loops = IOLoopGroup(count: configuration.clientLoops)
        Thread.sleep(forTimeInterval: 0.5)
        let baseline = try residentBytes(target)
        var options = WebSocketOptions()
        if configuration.deflate != .off { options.extensions = DeflateNegotiator() }
        let tally = ArrivalTally()
        let sockets = try connectAll(
            count: configuration.connections, target: target, path: "/ws/broadcast",
            loops: loops, handler: tally, options: options)
        progress("\(sockets.count) connections open (deflate negotiated: \(sockets.first?.isCompressing ?? false))")
        Thread.sleep(forTimeInterval: 1)
        let idle = try residentBytes(target)
        // One 2 KiB JSON-like message to everybody: compressing connections now hold zlib state if they keep it.
        tally.expect(round: 0, members: sockets.count)
        let items = (0..<60).map { #"{"id":"item-\#($0)","label":"Card \#($0)"}"# }.joined(separator: ",")
        sockets[0].send(.text(#"0|{"type":"committed","items":[\#(items)]}"#))
        guard tally.waitForAll(timeout: 60) != nil else {
            throw BenchTarget.Failure(description: "the broadcast did not reach every connection")
        }
        Thread.sleep(forTimeInterval: 1)
        let used = try residentBytes(target)
        for socket in sockets { socket.close() }
        func perConnection(_ bytes: Int) -> String {
            String(format: "%.1f KiB", Double(bytes - baseline) / Double(sockets.count) / 1024)
        }
        return """
            ws-memory: \(sockets.count) connections, server --deflate \(configuration.deflate.rawValue)
              server RSS empty:            \(String(format: "%.1f MB", Double(baseline) / 1e6))
              server RSS idle:             \(String(format: "%.1f MB", Double(idle) / 1e6))  (\(perConnection(idle)) per connection)
              after one 2 KiB broadcast:   \(String(format: "%.1f MB", Double(used) / 1e6))  (\(perConnection(used)) per connection)
            """
    }

    private func residentBytes(_ target: BenchTarget) throws -> Int {
        guard let bytes = target.serverResidentBytes else { throw BenchTarget.Failure(description: "cannot read the server's memory") }
        return bytes
    }
}
