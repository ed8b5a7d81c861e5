import Testing

@testable import Sockets

@Suite struct InputBufferTests {
    @Test func consumedPrefixIsDroppedOnlyWhenItPays() {
        var input = InputBuffer(retainedCapacity: 1024)
        #expect(input.append([UInt8](repeating: 1, count: 10_000)) == 0)
        input.start = 100
        // A small consumed prefix stays: moving 9,900 bytes for 100 is not worth it.
        #expect(input.append([2]) == 0)
        #expect(input.count == 9_901)
        input.start = 6_000
        // Over 4 KiB and over half the buffer: dropped, and the caller learns the shift.
        #expect(input.append([3]) == 6_000)
        #expect(input.start == 0)
        #expect(input.count == 4_002)
        #expect(input.bytes.last == 3)
    }

    @Test func fullyConsumedBufferStartsOver() {
        var input = InputBuffer(retainedCapacity: 1024)
        input.append([1, 2, 3])
        input.start = 3
        #expect(input.append([4]) == 3)
        #expect(input.bytes == [4])
    }

    @Test func takeAllEmptiesTheBuffer() {
        var input = InputBuffer(retainedCapacity: 1024)
        input.append([1, 2, 3, 4])
        input.start = 1
        #expect(input.takeAll() == [2, 3, 4])
        #expect(input.count == 0 && input.start == 0)
    }
}
