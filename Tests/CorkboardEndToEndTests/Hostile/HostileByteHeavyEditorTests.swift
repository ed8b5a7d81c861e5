import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Editors of big `update`s (docs/security.md, "History bounded in bytes"): the history a
/// board keeps is bounded in bytes as well as in events, so a flood of 60 KB updates leaves the
/// server's memory near its budget, and the operation byte rate refuses what comes faster than
/// allowed. Unfixed, three such editors grew the server by 720 MB in 14 s.
@Suite(.threadsOfTheirOwn) struct HostileByteHeavyEditorTests {
    /// About 60 KB of data per update, under the 64 KiB data limit.
    static let blob: JSONObject = ["blob": .string(String(repeating: "x", count: 60_000))]
    static let editors = 3
    static let updatesPerEditor = 200
    static let historyBudget = 4 << 20

    @Test func aFloodOfBigUpdatesKeepsTheServerWithinItsHistoryBudget() async throws {
        try await offPool {
            // No byte rate here: the budget alone must bound what the flood leaves behind.
            let server = try ChildServer(["--max-history-bytes", String(Self.historyBudget), "--op-byte-rate", "0"])
            let port = server.port
            try Unharmed.createBoard(port: port, id: "other", token: nil)
            let before = try Unharmed.seed(port: port, board: "other")
            let residentBefore = server.residentBytes

            // Three editors, each updating its own card with a new 60 KB value, one after another:
            // 600 updates, 36 MB of events, nine times the budget.
            let workers = try (0..<Self.editors).map { number in
                let editor = try BoardTestClient(port: port, board: "board", name: "Editor \(number)")
                return Background { () throws -> Int in
                    _ = try editor.sync()
                    let item = editor.board.allItemIDs.sorted()[number]
                    for round in 0..<Self.updatesPerEditor {
                        _ = try editor.commit(.updateItem(item: item, label: "Big \(round)", data: .replace(Self.blob)))
                    }
                    try editor.close()
                    return Self.updatesPerEditor
                }
            }
            let committed = try workers.map { try $0.wait(timeout: 240) }.reduce(0, +)
            #expect(committed == Self.editors * Self.updatesPerEditor)

            // What stays is the budget (plus an eighth and an event), its encoded copies, and the
            // allocator's slack; not the 36 MB of the flood.
            let growth = server.residentBytes - residentBefore
            #expect(growth < 24 << 20, "the server grew by \(growth >> 20) MiB for 36 MB of updates under a 4 MiB history budget")
            // The history kept, and served, is the budget's worth of the latest events: reading
            // from the start is answered 410 with where the kept history begins.
            let latest = try Unharmed.document(port: port, board: "board", token: nil).seq
            #expect(latest == committed)
            let fromStart = try Unharmed.get(port, "/api/boards/board/ops?since=0", token: nil)
            #expect(fromStart.status == 410, "\(fromStart.status) \(fromStart.text.prefix(200))")
            let keptFrom = try #require(fromStart.text.firstMatch(of: /from (\d+)/).flatMap { Int($0.1) })
            let keptBytes = (latest - keptFrom + 1) * 60_000
            #expect(keptBytes <= Self.historyBudget * 9 / 8 + 64_000, "the kept history holds \(latest - keptFrom + 1) events of 60 KB")
            #expect(latest - keptFrom + 1 >= 32, "the history keeps what fits its budget, not less")

            // Someone on another board is unharmed.
            try Unharmed.expect(port: port, board: "other", token: nil, eventsBefore: before)
        }
    }

    @Test func operationsFasterThanTheByteRateAreRefusedAndTakenWhenResent() async throws {
        try await offPool {
            // 16 KiB a second, with bursts of four seconds' worth (64 KiB): one 60 KB update
            // passes, and the next only after almost four seconds of refill, so the twelve
            // sent at once are refused however slowly a loaded machine reads them.
            let server = try ChildServer(["--op-byte-rate", String(16 << 10)])
            let editor = try BoardTestClient(port: server.port, board: "board", name: "Editor")
            _ = try editor.sync()
            let item = try #require(editor.board.allItemIDs.sorted().first)
            // Twelve 60 KB updates sent at once, then their answers.
            let requests = (0..<12).map { round in
                OperationRequest(opId: "big-\(round)", baseSeq: editor.seq, .updateItem(item: item, label: "Big \(round)", data: .replace(Self.blob)))
            }
            for request in requests { try editor.send(.operation(request)) }
            var refused: [OperationRequest] = []
            var answered = 0
            for _ in 0..<100 where answered < requests.count {
                switch try editor.nextMessage() {
                case .committed(let event) where event.opId.hasPrefix("big-"):
                    answered += 1
                case .rejected(let rejection):
                    answered += 1
                    #expect(rejection.code == .rateLimited, "\(rejection)")
                    refused += requests.filter { $0.opId == rejection.opId }
                default:
                    continue
                }
            }
            #expect(answered == requests.count)
            #expect(!refused.isEmpty, "12 updates of 60 KB at once pass a burst of 64 KiB")
            // Resent once the bucket has refilled, the same opId is taken.
            let resend = try #require(refused.first)
            var outcome: ServerMessage?
            #expect(
                try eventually(timeout: 10) {
                    outcome = try editor.perform(resend)
                    if case .rejected(let rejection) = outcome, rejection.code == .rateLimited { Thread.sleep(forTimeInterval: 0.2) }
                    return outcome?.typeName == "committed"
                }, "the resend was answered \(String(describing: outcome))")
        }
    }
}
