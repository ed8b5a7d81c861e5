/// Immutable bytes with a stable address, ready for `sendmsg`.
///
/// A broadcast is encoded once into one chunk and the same chunk is queued on every
/// member's connection: nothing is copied per member. The memory never changes after
/// `init`, so sharing it across loops is safe.
public final class ByteChunk: @unchecked Sendable {
    public let base: UnsafeRawPointer
    public let count: Int

    public init<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        let count = bytes.count
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, count), alignment: 1)
        // One copy of contiguous bytes (an encoded frame): called from other modules, this
        // generic is not specialized, and the element-by-element path cost a few per cent of
        // the server's CPU in `bench ops`.
        let copied: Void? = bytes.withContiguousStorageIfAvailable { memory.copyMemory(from: UnsafeRawBufferPointer($0)) }
        if copied == nil { _ = memory.initializeMemory(as: UInt8.self, from: bytes) }
        base = UnsafeRawPointer(memory.baseAddress!)
        self.count = count
    }

    /// `count` bytes written in place by `fill` (which must initialize all of them): no
    /// intermediate array for bytes that come from a C library.
    public init(count: Int, fill: (UnsafeMutableRawBufferPointer) -> Void) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, count), alignment: 1)
        fill(UnsafeMutableRawBufferPointer(rebasing: memory[0..<count]))
        base = UnsafeRawPointer(memory.baseAddress!)
        self.count = count
    }

    public convenience init(_ string: String) {
        self.init(Array(string.utf8))
    }

    deinit { base.deallocate() }

    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
    public var array: [UInt8] { Array(bytes) }
}

extension [ByteChunk] {
    /// For a queue that reads from `head`: drops the chunks before it once all are consumed
    /// (keeping a small array's storage), or once many are, so a queue that keeps draining
    /// neither grows nor shifts its array on every write.
    mutating func releaseConsumed(head: inout Int) {
        if head == count {
            removeAll(keepingCapacity: capacity <= 256)
            head = 0
        } else if head > 1024 {
            removeFirst(head)
            head = 0
        }
    }
}
