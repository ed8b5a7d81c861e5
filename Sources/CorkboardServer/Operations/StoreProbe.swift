import CorkboardHub
import Dispatch
import Synchronization

/// Asks the store for its list of boards and gives up after a deadline: the cheapest
/// question every store answers, used by `/readyz` (is it there?) and `/metrics` (how many
/// boards?). A store that is down may fail at once or, as a lost PostgreSQL connection can,
/// not answer for a long while: either way the caller hears within the deadline.
enum StoreProbe {
    enum Failure: Error, CustomStringConvertible {
        case failed(HubError)
        case timedOut(DispatchTimeInterval)

        var description: String {
            switch self {
            case .failed(let error): return "the store failed: \(error)"
            case .timedOut(.seconds(let seconds)): return "the store did not answer within \(seconds) s"
            case .timedOut: return "the store did not answer in time"
            }
        }
    }

    /// Long enough for a busy store, short enough for a load balancer's check (often 5 s).
    static let deadline: DispatchTimeInterval = .seconds(2)

    static func countBoards(hub: Hub, _ completion: @escaping @Sendable (Result<Int, Failure>) -> Void) {
        let answer = FirstAnswer()
        // Exactly one of the store's answer and the deadline gets through.
        let once: @Sendable (Result<Int, Failure>) -> Void = { result in
            if answer.take() { completion(result) }
        }
        hub.listBoards { result in once(result.map(\.count).mapError(Failure.failed)) }
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { once(.failure(.timedOut(deadline))) }
    }
}

/// True for the first caller of `take` only.
private final class FirstAnswer: Sendable {
    private let taken = Atomic<Bool>(false)
    func take() -> Bool { !taken.exchange(true, ordering: .acquiringAndReleasing) }
}
