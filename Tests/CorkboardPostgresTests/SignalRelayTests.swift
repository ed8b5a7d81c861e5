import CorkboardStore
import Foundation
import Synchronization
import Testing

@testable import CorkboardPostgres

/// The store's signals reach the hub at the same cost however many came before: the stack
/// under the handler is as deep at the thousandth signal as at the first (it grew by two
/// frames a signal while the handler was a closure kept in a `Mutex`).
@Suite struct SignalRelayTests {
    @Test func theThousandthSignalCostsWhatTheFirstDid() {
        let relay = SignalRelay()
        let depths = Mutex<[Int]>([])
        relay.replace { _ in
            let depth = Thread.callStackSymbols.count
            depths.withLock { $0.append(depth) }
        }
        for seq in 1...1_000 { relay.send(.committed(board: "b", seq: seq)) }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 1_000)
        #expect(seen.first == seen.last, "stack depth under the handler: \(seen.first ?? 0) at the first signal, \(seen.last ?? 0) at the last")
    }

    @Test func aReplacedHandlerHearsNothingMore() {
        let relay = SignalRelay()
        let heard = Mutex(0)
        relay.replace { _ in heard.withLock { $0 += 1 } }
        relay.send(.resynchronize)
        relay.replace(with: nil)
        relay.send(.resynchronize)
        #expect(heard.withLock { $0 } == 1)
    }
}
