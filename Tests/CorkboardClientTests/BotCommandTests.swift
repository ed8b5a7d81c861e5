import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `corkboard bot …` as a script runs it: the real binary, its output and its exit status.
@Suite(.threadsOfTheirOwn) struct BotCommandTests {
    struct Run {
        let status: Int32?
        let output: String
        let errors: String
        var lines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// Runs `corkboard bot ARGS` to its end (off the task pool: it blocks while it waits).
    static func bot(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        try await offPool {
            let process = try ServerProcess(["bot"] + arguments, environment: environment)
            // Seconds alone; in a loaded full run a bot that had printed its answer was still
            // not seen to exit after 30 s (the test took 102 s instead of 6).
            let status = process.waitForExit(timeout: 120)
            return Run(status: status, output: process.standardOutput, errors: process.standardError)
        }
    }

    static func on(_ server: CorkboardTestServer, board: String = "demo") -> [String] {
        ["--url", server.url, "--board", board]
    }

    @Test func snapshotPrintsTheBoardAsTheAPIDoes() async throws {
        let server = try CorkboardTestServer()
        let run = try await Self.bot(["snapshot"] + Self.on(server))
        #expect(run.status == 0)
        #expect(run.lines.count == 1)
        let printed = try JSONDecoder().decode(BoardDocument.self, from: Data(run.output.utf8))
        #expect(printed == (try server.document("demo")))
    }

    @Test func operationsPrintTheirOutcomeAndExitZero() async throws {
        let server = try CorkboardTestServer()
        let on = Self.on(server)
        let move = try await Self.bot(["move", "card-bot", "--to", "done", "--before", "card-start"] + on)
        #expect(move.status == 0)
        #expect(move.output == "committed seq 1\n")
        #expect(try server.document("demo").board.collections[2].items.map(\.id) == ["card-bot", "card-start"])

        let again = try await Self.bot(["move", "card-bot", "--to", "done", "--before", "card-start"] + on)
        #expect(again.status == 0)
        #expect(again.output.hasPrefix("noop"))

        let insert = try await Self.bot(
            ["insert", "card-new", "A new card", "--to", "todo", "--before", "card-spec", "--data", #"{"points":3}"#, "--json"] + on)
        #expect(insert.status == 0)
        guard case .committed(let event) = try WireFormat.decodeServerMessage(Data(insert.output.utf8)) else {
            Issue.record("expected a committed line, got \(insert.output)")
            return
        }
        #expect(
            event.op
                == .insert(
                    items: [Item(id: "card-new", label: "A new card", data: ["points": .number(3)])],
                    destination: Destination(collection: "todo", before: "card-spec")))

        #expect(try await Self.bot(["delete", "card-new", "card-order"] + on).status == 0)
        #expect(try await Self.bot(["lock"] + on).status == 0)
        #expect(try server.document("demo").board.locked)
        #expect(try await Self.bot(["unlock"] + on).status == 0)
        #expect(try server.document("demo").seq == 5)
    }

    /// Folders from a script: one made with `insert --folder`, cards moved `--into` it, its
    /// `accepts` switched off (a move into it is then rejected, exit 1), and `--to` with
    /// `--into` a usage error.
    @Test func foldersFromTheCommandLine() async throws {
        let server = try CorkboardTestServer()
        let on = Self.on(server)
        #expect(try await Self.bot(["insert", "ideas", "Ideas", "--to", "todo", "--folder"] + on).status == 0)
        let into = try await Self.bot(["move", "card-bot", "card-spec", "--into", "ideas"] + on)
        #expect(into.output == "committed seq 2\n")
        #expect(try await Self.bot(["insert", "note", "A note", "--into", "ideas", "--before", "card-spec"] + on).status == 0)
        let board = try server.document("demo").board
        #expect(board.folders["ideas"]?.map(\.id) == ["card-bot", "note", "card-spec"])
        #expect(board.collections[0].items.last == Item(id: "ideas", label: "Ideas", folder: Folder(accepts: true)))

        #expect(try await Self.bot(["accepts", "ideas", "no"] + on).output == "committed seq 4\n")
        let refused = try await Self.bot(["move", "card-order", "--into", "ideas"] + on)
        #expect(refused.status == 1)
        #expect(refused.errors == "corkboard: error: rejected (invalid): folder ideas does not accept drops\n")
        async let both = Self.bot(["move", "card-order", "--to", "todo", "--into", "ideas"] + on)
        async let neither = Self.bot(["move", "card-order"] + on)
        async let answer = Self.bot(["accepts", "ideas", "maybe"] + on)
        #expect(try await [both.status, neither.status, answer.status] == [64, 64, 64])
        #expect(try await both.errors.contains("--to and --into name the same place"))
    }

    /// Columns reordered from a script: two before the first, then one to the end; a column
    /// nobody has is `gone` (exit 1), none named a usage error.
    @Test func columnsMoveFromTheCommandLine() async throws {
        let server = try CorkboardTestServer()
        let on = Self.on(server)
        let moved = try await Self.bot(["move-columns", "done", "doing", "--before", "todo"] + on)
        #expect(moved.status == 0)
        #expect(moved.output == "committed seq 1\n")
        #expect(try server.document("demo").board.collections.map(\.id) == ["done", "doing", "todo"])
        #expect(try await Self.bot(["move-columns", "done"] + on).output == "committed seq 2\n")
        #expect(try server.document("demo").board.collections.map(\.id) == ["doing", "todo", "done"])
        let gone = try await Self.bot(["move-columns", "nowhere"] + on)
        #expect(gone.status == 1)
        #expect(gone.errors == "corkboard: error: rejected (gone): none of the collections to move exists any more\n")
        #expect(try await Self.bot(["move-columns"] + on).status == 64)
    }

    @Test func theSameOpIdIsAppliedOnce() async throws {
        let server = try CorkboardTestServer()
        let arguments = ["move", "card-spec", "--to", "doing", "--op-id", "deploy-42"] + Self.on(server)
        let first = try await Self.bot(arguments)
        let second = try await Self.bot(arguments)
        #expect(first.status == 0 && second.status == 0)
        #expect(first.output == "committed seq 1\n")
        #expect(second.output == "committed seq 1\n")
        #expect(try server.document("demo").seq == 1)
    }

    @Test func failuresHaveOneLineAndTheirExitStatus() async throws {
        let server = try CorkboardTestServer()
        let on = Self.on(server)
        let stopped = try CorkboardTestServer()
        let closedURL = stopped.url
        stopped.stop()

        // Independent runs go side by side: each is a process that connects and waits.
        async let gone = Self.bot(["move", "card-bot", "--to", "nowhere"] + on)
        async let unknown = Self.bot(["snapshot"] + Self.on(server, board: "nope"))
        async let unreachable = Self.bot(["snapshot", "--url", closedURL, "--board", "demo"])
        async let usage = [
            ["snapshot", "--url", "http://127.0.0.1:1", "--board", "demo"], ["snapshot"], ["move", "card-bot"] + on,
            ["insert", "x", "X", "--to", "todo", "--data", "[1]"] + on, ["random", "--rate", "0"] + on,
        ].asyncMap { try await Self.bot($0).status }

        // Rejected: 1.
        #expect(try await gone.status == 1)
        #expect(try await gone.errors == "corkboard: error: rejected (gone): collection nowhere no longer exists\n")
        // Refused or unreachable: 2.
        #expect(try await unknown.status == 2)
        #expect(try await unknown.errors == "corkboard: error: the server refused to join (not-found): there is no board \"nope\"\n")
        #expect(try await unreachable.status == 2)
        #expect(try await unreachable.errors.hasPrefix("corkboard: error: cannot connect"))
        #expect(try await unreachable.errors.split(separator: "\n").count == 1)
        // Usage: 64.
        #expect(try await usage == [64, 64, 64, 64, 64])

        // Locked (after the lock, so in turn): 1.
        #expect(try await Self.bot(["lock"] + on).status == 0)
        let locked = try await Self.bot(["delete", "card-bot"] + on)
        #expect(locked.status == 1)
        #expect(locked.errors.hasPrefix("corkboard: error: rejected (locked)"))
    }

    @Test func theURLComesFromTheEnvironment() async throws {
        let server = try CorkboardTestServer()
        let run = try await Self.bot(["snapshot", "--board", "demo"], environment: ["CORKBOARD_URL": server.url + "/ws"])
        #expect(run.status == 0)
        #expect(run.output.contains(#""id":"demo""#))
    }

    @Test func watchPrintsOneServerMessagePerLine() async throws {
        let server = try CorkboardTestServer()
        let watcher = try ServerProcess(["bot", "watch", "--json", "--count", "6", "--name", "watcher"] + Self.on(server))
        let mover = server.client(board: "demo", name: "mover")
        // The watcher's welcome shows nobody else yet: wait for it to be on the board. Required,
        // and generous (a child process can take long to start in a loaded parallel run): a
        // watcher that joined after the mover prints no peer.joined, and every later line moves
        // up one, which reads as a drop's drag.cleared before its committed.
        try #require(await eventuallyAsync(timeout: 60) { watcher.standardOutput.contains(#""type":"welcome""#) })
        // The watcher is an observer (docs/protocol.md#observers): not among the mover's peers.
        #expect(try await mover.connect().peers.isEmpty)
        #expect(await mover.move(["card-bot"], to: "done").isCommitted)
        await mover.dragStart(["card-spec"])
        // The drag reaches the watcher before the drop does.
        try #require(await eventuallyAsync(timeout: 60) { watcher.standardOutput.contains(#""type":"drag""#) })
        #expect(await mover.move(["card-spec"], to: "done").isCommitted)
        let waiting = UncheckedSendable(watcher)
        let status = try await offPool { waiting.value.waitForExit(timeout: 10) }
        #expect(status == 0)
        let messages = try watcher.standardOutput.split(separator: "\n").map { try WireFormat.decodeServerMessage(Data($0.utf8)) }
        #expect(messages.map(\.typeName) == ["welcome", "peer.joined", "committed", "drag", "committed", "drag.cleared"])
        await mover.close()
    }

    /// Without --json a committed event's line ends with who committed it and when.
    @Test func watchSaysWhoCommittedAndWhen() async throws {
        let server = try CorkboardTestServer()
        let watcher = try ServerProcess(["bot", "watch", "--count", "3", "--name", "watcher"] + Self.on(server))
        let mover = server.client(board: "demo", name: "mover")
        try #require(await eventuallyAsync(timeout: 60) { watcher.standardOutput.contains("welcome: ") })
        try await mover.connect()
        #expect(await mover.move(["card-bot"], to: "done").isCommitted)
        let waiting = UncheckedSendable(watcher)
        let status = try await offPool { waiting.value.waitForExit(timeout: 10) }
        #expect(status == 0)
        let line = try #require(watcher.standardOutput.split(separator: "\n").first { $0.hasPrefix("#1 ") })
        #expect(line.contains(" by mover at 20") && line.hasSuffix("Z"), "\(line)")
        await mover.close()
    }

    @Test func randomDragsAndMovesThenSummarises() async throws {
        let server = try CorkboardTestServer()
        let run = try await Self.bot(["random", "--rate", "20", "--duration", "1", "--seed", "7"] + Self.on(server))
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("random: "))
        #expect(run.output.contains("drags"))
        let document = try server.document("demo")
        #expect(document.seq > 5)
        #expect(Set(document.board.allItemIDs).count == 7)
    }

    @Test func randomWithColumnsDragsColumnsToo() async throws {
        let server = try CorkboardTestServer()
        let run = try await Self.bot(["random", "--columns", "--rate", "30", "--duration", "1", "--seed", "7"] + Self.on(server))
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("random: ") && run.output.contains(" of columns)"), "\(run.output)")
        let document = try server.document("demo")
        #expect(Set(document.board.collections.map(\.id)) == ["todo", "doing", "done"])
        #expect(Set(document.board.allItemIDs).count == 7)
    }
}

extension Array where Element: Sendable {
    /// Maps concurrently, keeping the order.
    func asyncMap<T: Sendable>(_ transform: @escaping @Sendable (Element) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for (index, element) in enumerated() { group.addTask { (index, try await transform(element)) } }
            var results = [T?](repeating: nil, count: count)
            for try await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }
}
