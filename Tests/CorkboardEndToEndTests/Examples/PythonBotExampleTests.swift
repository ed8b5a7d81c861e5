import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `examples/python/bot.py`, run as a reader of the README would run it (with the Python client
/// package installed, `pip install ./clients/python`), against a real `corkboard serve`: the
/// protocol is usable from another language, with another library. The package's replica is
/// checked against the shared fixtures by PythonClientPackageTests.
@Suite(.threadsOfTheirOwn) struct PythonBotExampleTests {
    static let script = PythonTools.packageRoot + "/examples/python/bot.py"

    @Test func theBotSortsAColumnWhileSomeoneElseWorksOnTheBoard() throws {
        let python = try PythonTools.clientPackagePython()
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
        // With --first the sorted column then goes to the front of the board.
        let first = try python.run(
            [Self.script, "--url", "ws://127.0.0.1:\(port)/ws", "--board", "fruit", "--column", "bowl", "--first"], timeout: 60)
        #expect(first.status == 0, "\(first.standardOutput)\n\(first.standardError)")
        #expect(try api.document("fruit").board.collections.map(\.id) == ["bowl", "basket"])

        let unknown = try python.run([Self.script, "--url", "ws://127.0.0.1:\(port)/ws", "--board", "nope"], timeout: 60)
        #expect(unknown.status == 1, "\(unknown.standardError)")
        #expect(unknown.standardError.contains("there is no board"))
    }

    /// On a server with tokens the bot sends its own, from `--token` or `CORKBOARD_TOKEN`
    /// (issue #33: before, it could not join such a server at all).
    @Test func theBotJoinsWithItsTokenFromTheOptionOrTheEnvironment() throws {
        let python = try PythonTools.clientPackagePython()
        let web = try TemporaryDirectory("corkboard-web")
        try web.write("index.html", "<!doctype html><title>bot</title>")
        let data = try TemporaryDirectory("corkboard-data")
        let tokens = try data.write(
            "tokens.json",
            #"{"tokens":[{"token":"owner-secret","role":"owner","boards":"*"},{"token":"bot-secret","role":"editor","boards":["fruit"],"name":"sorter"}]}"#)
        let server = try ServerProcess(["serve", "--port", "0", "--no-demo", "--web-root", web.path, "--data", data.path, "--tokens", tokens])
        defer {
            server.signal(SIGTERM)
            _ = server.waitForExit()
        }
        let port = try #require(server.waitForListeningPort())
        let board = Board(
            id: "fruit", title: "Fruit",
            collections: [BoardCollection(id: "basket", title: "Basket", items: [Item(id: "b", label: "banana"), Item(id: "a", label: "apple")])])
        let body = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(board)), as: UTF8.self)
        #expect(try BoardAPI(port: port).send("POST", "/api/boards", headers: ["Authorization: Bearer owner-secret"], body: body).status == 201)
        let arguments = [Self.script, "--url", "ws://127.0.0.1:\(port)/ws", "--board", "fruit", "--column", "basket"]

        let refused = try python.run(arguments, timeout: 60)
        #expect(refused.status == 1 && refused.standardError.contains("a token is needed"), "\(refused.standardError)")

        let given = try python.run(arguments + ["--token", "bot-secret"], timeout: 60)
        #expect(given.status == 0 && given.standardOutput.contains("sorted basket with 1 move"), "\(given.standardOutput)\n\(given.standardError)")

        var environment = python.environment
        environment["CORKBOARD_TOKEN"] = "bot-secret"
        let fromEnvironment = try PythonTools.run(python.executable, arguments, environment: environment, timeout: 60)
        #expect(fromEnvironment.status == 0 && fromEnvironment.standardOutput.contains("sorted basket with 0 moves"), "\(fromEnvironment.standardError)")
        // Its move went under the token's name, not the one in hello.
        let log = try BoardAPI(port: port).send("GET", "/api/boards/fruit/ops", headers: ["Authorization: Bearer owner-secret"]).text
        #expect(log.contains(#""by":"sorter""#), "\(log)")
    }
}
