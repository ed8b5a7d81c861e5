import CorkboardClient
import Foundation
import Synchronization
import TestSupport

/// Collects a client's events as they come, for a test to wait on and look at.
final class EventRecorder: Sendable {
    private final class Storage: Sendable {
        let events = Mutex<[BoardEvent]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    /// Subscribes now: call before the client does what the test wants to see.
    init(_ client: BoardClient) {
        let stream = client.events()
        let storage = storage
        task = Task {
            for await event in stream { storage.events.withLock { $0.append(event) } }
        }
    }

    deinit { task.cancel() }

    var events: [BoardEvent] { storage.events.withLock { $0 } }

    /// Waits until an event matching `match` has arrived (polling every 10 ms); returns it.
    func first<T>(timeout: Double = 5, _ match: (BoardEvent) -> T?) async -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let found = events.lazy.compactMap(match).first { return found }
            if Date() >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    func count(_ match: (BoardEvent) -> Bool) -> Int { events.filter(match).count }
}

/// Waits until `condition` holds, checking every 10 ms, for at most `timeout` seconds.
func eventuallyAsync(timeout: Double = 5, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}
