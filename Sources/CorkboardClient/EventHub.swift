import Synchronization

/// Hands every event to each subscriber's `AsyncStream`. Events are emitted from the
/// client's loop only, so they keep their order; subscribing and ending a stream may happen
/// on any thread, hence the mutex.
final class EventHub<Event: Sendable>: Sendable {
    private struct Subscribers {
        var next = 0
        var streams: [Int: AsyncStream<Event>.Continuation] = [:]
        var finished = false
    }

    private let subscribers = Mutex(Subscribers())

    /// A stream of every event from now on; it ends when the client closes.
    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        let id: Int? = subscribers.withLock { state in
            guard !state.finished else { return nil }
            state.next += 1
            state.streams[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        // Set outside the lock: a stream ended right away calls this at once, and it locks.
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    func emit(_ event: Event) {
        // Yield outside the lock so a consumer's termination handler cannot deadlock us.
        let streams = subscribers.withLock { Array($0.streams.values) }
        for stream in streams { stream.yield(event) }
    }

    /// Ends every stream; later subscribers get an ended stream.
    func finish() {
        let streams = subscribers.withLock { state in
            state.finished = true
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
