import Glibc
import Testing

@testable import Sockets

@Suite struct OutputQueueTests {
    /// A connected pair of non-blocking sockets with small buffers, so writes go partial.
    private func socketPair() throws -> (Socket, Socket) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw SocketError("socketpair") }
        let (a, b) = (Socket(fd: fds[0]), Socket(fd: fds[1]))
        for socket in [a, b] {
            try socket.setNonBlocking()
            try socket.setOption(level: SOL_SOCKET, name: SO_SNDBUF, value: 4096, "SO_SNDBUF")
        }
        return (a, b)
    }

    @Test func partialWritesResumeWhereTheyStopped() throws {
        let (writer, reader) = try socketPair()
        defer {
            writer.close()
            reader.close()
        }
        var queue = OutputQueue()
        var expected: [UInt8] = []
        for index in 0..<200 {
            let chunk = (0..<(997 + index)).map { UInt8(truncatingIfNeeded: $0 + index) }
            expected += chunk
            queue.append(ByteChunk(chunk))
        }
        queue.append(ByteChunk([UInt8]()))
        #expect(queue.byteCount == expected.count)
        var received: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { buffer.deallocate() }
        var rounds = 0
        while !queue.isEmpty || received.count < expected.count {
            rounds += 1
            #expect(rounds < 100_000)
            if rounds >= 100_000 { break }
            var tally = OutputQueue.Tally()
            if case .failed(let code) = queue.flush(to: writer, tally: &tally) {
                Issue.record("flush failed: \(code)")
                break
            }
            while case .transferred(let count) = reader.read(into: buffer) { received += buffer[0..<count] }
        }
        #expect(received == expected)
        #expect(rounds > 1, "the small buffer should have forced partial writes")
    }

    @Test func writingToAClosedPeerFailsWithoutSignal() throws {
        let (writer, reader) = try socketPair()
        reader.close()
        defer { writer.close() }
        var queue = OutputQueue()
        queue.append(ByteChunk([1, 2, 3]))
        var tally = OutputQueue.Tally()
        #expect(queue.flush(to: writer, tally: &tally) == .failed(EPIPE))
    }
}
