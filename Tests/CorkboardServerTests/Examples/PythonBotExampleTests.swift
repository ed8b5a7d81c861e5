import CorkboardModel
import Foundation
import TestSupport
import Testing

/// `examples/python/bot.py`, run as a reader of the README would run it, against a real
/// `corkboard serve`: the protocol is usable from another language, with another library.
@Suite(.threadsOfTheirOwn) struct PythonBotExampleTests {
    static let script = PythonTools.packageRoot + "/examples/python/bot.py"

    /// The example's replica applies the shared fixtures as the model and the SDK do, folders included.
    @Test func theBotsReplicaFollowsTheSharedFixtures() throws {
        let python = try PythonTools.websocketsPython()
        let run = try python.run([PythonTools.packageRoot + "/Tests/CorkboardServerTests/Examples/replica_fixtures.py", PythonTools.packageRoot], timeout: 60)
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
    }

    @Test func theBotSortsAColumnWhileSomeoneElseWorksOnTheBoard() throws {
        let python = try PythonTools.websocketsPython()
        let web = try TemporaryDirectory("corkboard-web")
        try web.write("index.html", "<!doctype html><title>bot</title>")
        let data = try TemporaryDirectory("corkboard-data")
        let server = try ServerProcess(["serve", "--port", "0", "--no-demo", "--web-root", web.path, "--data", data.path])
        defer {
            server.signal(SIGTERM)
            _ = server.waitForExit()
        }
        let port = try #require(server.waitForListeningPort())
        let api = BoardAPI(port: port)
        let labels = ["pear", "Apple", "fig", "banana", "cherry", "Date", "elderberry", "grape"]
        try api.createBoard(
            Board(
                id: "fruit", title: "Fruit",
                collections: [
                    BoardCollection(id: "basket", title: "Basket", items: labels.enumerated().map { Item(id: "f\($0.offset)", label: $0.element) }),
                    BoardCollection(id: "bowl", title: "Bowl", items: [Item(id: "kiwi", label: "kiwi")]),
                ]))
        // Someone else's change before the bot joins, which its replica must carry.
        #expect(
            try api.perform(
                "fruit",
                OperationRequest(
                    opId: "other-1", baseSeq: 0, .move(sources: ["kiwi"], destination: Destination(collection: "basket", before: "f2")))
            ).status == 200)

        let run = try python.run([Self.script, "--url", "ws://127.0.0.1:\(port)/ws", "--board", "fruit", "--column", "basket"], timeout: 60)
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(run.standardOutput.contains("sorted basket with "))
        #expect(run.standardOutput.contains("1 on the board, the bot included"), "the welcome's count: \(run.standardOutput)")
        let sorted = try api.document("fruit").board.collections[0].items.map(\.label)
        #expect(sorted == (labels + ["kiwi"]).sorted { $0.lowercased() < $1.lowercased() })
        // Its moves are ordinary events in the board's log.
        #expect(try api.events("fruit").count == (try api.document("fruit").seq))

        let unknown = try python.run([Self.script, "--url", "ws://127.0.0.1:\(port)/ws", "--board", "nope"], timeout: 60)
        #expect(unknown.status == 1, "\(unknown.standardError)")
        #expect(unknown.standardError.contains("there is no board"))
    }
}
