/// A FIFO that keeps at most `capacity` elements, dropping the oldest to make room.
///
/// Storage grows on demand up to `capacity`, so a board with a short history does not
/// pay for a 100,000-slot window up front.
struct RingBuffer<Element> {
    let capacity: Int
    private var storage: [Element?] = []
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a ring buffer needs room for at least one element")
        self.capacity = capacity
    }

    var isEmpty: Bool { count == 0 }

    /// The oldest element kept, if any.
    var first: Element? { isEmpty ? nil : self[0] }

    /// The element at logical position `index`, 0 being the oldest kept.
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "ring buffer index out of range")
        return storage[physical(index)]!
    }

    /// Appends, and returns the oldest element if it had to be dropped for room.
    @discardableResult
    mutating func append(_ element: Element) -> Element? {
        if count == capacity {
            let dropped = storage[head]
            storage[head] = element
            head = (head + 1) % storage.count
            return dropped
        }
        if count == storage.count { grow() }
        storage[physical(count)] = element
        count += 1
        return nil
    }

    mutating func removeLast() -> Element? {
        guard count > 0 else { return nil }
        let position = physical(count - 1)
        let element = storage[position]
        storage[position] = nil
        count -= 1
        return element
    }

    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    /// `(head + index) % storage.count`, without a division on this hot path.
    private func physical(_ index: Int) -> Int {
        let position = head + index
        return position >= storage.count ? position - storage.count : position
    }

    /// Doubles the storage (up to `capacity`), laying the elements out from slot 0.
    private mutating func grow() {
        let newSize = Swift.min(capacity, Swift.max(16, storage.count * 2))
        var grown = [Element?](repeating: nil, count: newSize)
        for index in 0..<count { grown[index] = storage[physical(index)] }
        storage = grown
        head = 0
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
