import CorkboardBench
import Foundation
import TestSupport
import Testing

/// The restart scenario, small, against a real `corkboard serve` on SQLite stopped by SIGTERM
/// and then SIGKILL: every client is back, resumed (not sent a snapshot), with every event of
/// its board once; and the figures exist. No timing is asserted.
@Suite(.threadsOfTheirOwn) struct RestartScenarioTests {
    @Test(.runningTimeLimit(.minutes(3))) func everyClientResumesGapFreeAfterSIGTERMAndSIGKILL() async throws {
        let result = try await BlockingWork {
            var configuration = RestartScenario.Configuration()
            configuration.executable = ServerProcess.executablePath
            configuration.bigBoardMembers = 120
            configuration.spreadMembers = 80
            configuration.spreadBoards = 10
            configuration.rate = 40
            configuration.warmup = 1
            configuration.reconnectThreads = 16
            configuration.timeout = 60
            var lines: [String] = []
            let result = try RestartScenario(configuration: configuration).run { lines.append($0) }
            return (result, lines)
        }.value
        let (figures, lines) = result
        #expect(figures.members == 200)
        #expect(figures.residentJoined > 0 && figures.residentBefore > 0)
        #expect(figures.rounds.map(\.signal) == ["SIGTERM", "SIGKILL"])
        for round in figures.rounds {
            #expect(round.handshakes == 200 && round.unresumed == 0)
            #expect(round.gaps == 0 && round.duplicates == 0 && round.snapshots == 0, "\(round)")
            // Moves were committed before each stop, so every client had events to check.
            #expect(round.deliveriesChecked >= 200)
            #expect(round.resumeSeconds > 0 && round.handshakesPerSecond > 0)
            #expect(round.messages > 0 && round.bytes > round.messages)
            // Past 50 members the big board tells rejoins in `peers` ticks.
            #expect(round.membershipBytes > 0 && round.membershipBytes < round.bytes)
            #expect(round.calmCommit.count > 0 && round.calmDelivery.count > 0)
        }
        #expect(lines.count == 16) // the join, seven lines a round, and the moves not committed
        #expect(lines.last?.hasPrefix("live moves not committed over the run:") == true)
        #expect(lines.contains { $0.contains("KiB per idle member") })
        #expect(lines.contains { $0.hasPrefix("SIGKILL: all 200 resumed") })
    }
}
