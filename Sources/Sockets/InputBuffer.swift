/// Bytes received and not yet consumed by a parser: `bytes[start...]`. Parsers read and
/// advance `start` themselves; appending first drops the consumed prefix when it is all of
/// the buffer or a large share of it, so a long connection neither grows nor copies every
/// pipelined request once each.
public struct InputBuffer: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Index of the first byte not yet consumed.
    public var start = 0
    /// An emptied buffer keeps its storage up to this size; a larger one is given back.
    private let retainedCapacity: Int

    public init(retainedCapacity: Int) { self.retainedCapacity = retainedCapacity }

    /// Bytes received and not yet consumed.
    public var count: Int { bytes.count - start }

    /// Appends, compacting first. Returns how far existing bytes moved towards the front,
    /// for parsers that keep indices of their own.
    @discardableResult
    public mutating func append(_ new: UnsafeRawBufferPointer) -> Int {
        let shift = compact()
        bytes.append(contentsOf: new)
        return shift
    }

    @discardableResult
    public mutating func append<Bytes: Sequence<UInt8>>(_ new: Bytes) -> Int {
        let shift = compact()
        bytes.append(contentsOf: new)
        return shift
    }

    /// Takes every unconsumed byte and empties the buffer.
    public mutating func takeAll() -> [UInt8] {
        defer {
            bytes = []
            start = 0
        }
        return Array(bytes[start...])
    }

    /// Frees the storage when every byte has been consumed (an idle connection's buffer).
    public mutating func release() {
        guard start == bytes.count, bytes.capacity > 0 else { return }
        bytes = []
        start = 0
    }

    private mutating func compact() -> Int {
        let shift = start
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= retainedCapacity)
        } else if start > 4096 && start * 2 > bytes.count {
            bytes.removeFirst(start)
        } else {
            return 0
        }
        start = 0
        return shift
    }
}
