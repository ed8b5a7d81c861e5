// Shared by every fuzz target (compiled into each binary by Tests/Fuzz/run.sh).

/// The fuzzer's bytes, with a few leading bytes read as choices (limits, roles, how the
/// input is cut into reads) and the rest as the data under test.
struct FuzzInput {
    private(set) var bytes: [UInt8]

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    }

    /// Takes the first byte as a choice (0 when the input is empty).
    mutating func takeChoice() -> UInt8 {
        bytes.isEmpty ? 0 : bytes.removeFirst()
    }
}

/// Cuts `bytes` into consecutive pieces of 1…`maximum` bytes, the lengths drawn from a tiny
/// generator seeded by the input: the way `read(2)` may deliver a stream. Deterministic, so a
/// reproducer replays the same cuts.
func pieces(of bytes: [UInt8], seed: UInt8, maximum: Int = 64) -> [ArraySlice<UInt8>] {
    var state = UInt32(seed) &* 2_654_435_761 &+ 1
    var result: [ArraySlice<UInt8>] = []
    var start = 0
    while start < bytes.count {
        state = state &* 1_103_515_245 &+ 12_345
        let length = Int((state >> 16) % UInt32(maximum)) + 1
        let end = min(bytes.count, start + length)
        result.append(bytes[start..<end])
        start = end
    }
    return result
}

/// A failed invariant: trap with a message libFuzzer shows next to the reproducer.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    if !condition() { fatalError("invariant failed: \(message())", file: file, line: line) }
}
