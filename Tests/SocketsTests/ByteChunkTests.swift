import Sockets
import Testing

/// A chunk holds exactly the bytes it was made from, whether they came contiguous (copied at
/// once) or not (copied one by one).
@Suite struct ByteChunkTests {
    @Test func contiguousAndScatteredBytesAreCopiedAlike() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        #expect(ByteChunk(bytes).array == bytes)
        #expect(ByteChunk(bytes[100..<300]).array == Array(bytes[100..<300]))
        #expect(ByteChunk(bytes.lazy.map { $0 }).array == bytes)
        #expect(ByteChunk((0..<256).lazy.map { UInt8($0) }).array == (0..<256).map { UInt8($0) })
        #expect(ByteChunk("héllo").array == Array("héllo".utf8))
    }

    @Test func anEmptyChunkHasNoBytes() {
        #expect(ByteChunk([UInt8]()).count == 0)
        #expect(ByteChunk([UInt8]()).bytes.isEmpty)
        #expect(ByteChunk(count: 0) { _ in }.count == 0)
    }
}
