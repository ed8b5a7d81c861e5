import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Sockets

/// A connection whose output keeps draining (a fast reader of a large streamed body) must not
/// keep its loop to itself: every drain queues the next piece, and unless a flush ends the
/// loop's turn, a new connection on the same loop is not even registered until that reader
/// falls behind. Seen as /metrics waiting 5 s behind six streamed 18 MB boards.
@Suite(.threadsOfTheirOwn) struct IOLoopFairnessTests {
    @Test func aConnectionFedOnEveryDrainLeavesTheLoopToOthers() throws {
        let server = TCPServer(loops: IOLoopGroup(count: 1), logger: testLogger)
        let port = try server.start(host: "127.0.0.1", port: 0) { _ in DrainFedStreamHandler() }.port

        let reader = try BlockingClient(port: port)
        try reader.send("stream")
        // Reads as fast as it can, so the stream's socket never stays full for long.
        let readBytes = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let drained = DispatchSemaphore(value: 0)
        Thread {
            while !stop.load(ordering: .relaxed), let chunk = try? reader.receiveSome() {
                readBytes.add(chunk.count, ordering: .relaxed)
            }
            drained.signal()
        }.start()
        #expect(eventually(timeout: 10) { readBytes.load(ordering: .relaxed) > 1 << 20 }, "the stream flows")

        // Another connection on the same loop is registered and answered while the stream goes on.
        let other = try BlockingClient(port: port, timeout: 10)
        try other.send("ping")
        var echoed: [UInt8] = []
        while echoed.count < 4, let chunk = try other.receiveSome() { echoed += chunk }
        #expect(echoed == Array("ping".utf8))

        stop.store(true, ordering: .relaxed)
        reader.reset()
        _ = drained.wait(timeout: .now() + 10)
        withExtendedLifetime(server) {}
    }
}
