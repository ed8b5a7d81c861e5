import ArgumentParser
import CorkboardBench
import CorkboardClient
import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import Synchronization

/// What every bot subcommand's help says about its exit status, so scripts can rely on it.
private let exitCodes = """
    Exit status: 0 done (a noop move counts as done); 1 the server rejected the operation, no \
    answer came in time, or the connection was lost for good (one line on standard error: \
    `corkboard: error: …`); 2 cannot connect (including a wss:// server whose certificate is \
    not trusted), or the server refused to join (unknown board, bad token); 64 bad usage.
    """

/// `corkboard bot …`: a headless client of the Corkboard protocol for scripts, demos and soak tests.
struct BotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bot",
        abstract: "Join a board as a bot: watch it, change it, or drag cards at random.",
        discussion: """
            Every subcommand connects to --url (env: CORKBOARD_URL; default ws://127.0.0.1:8080; \
            wss:// verifies the server's certificate, see --ca-file), \
            joins --board with --name and --token (env: CORKBOARD_TOKEN), and leaves when done. \
            A dropped connection is resumed; an operation is resent with its opId, never applied twice. \
            See docs/bots.md.

            \(exitCodes)
            """,
        subcommands: [
            BotWatchCommand.self, BotMoveCommand.self, BotInsertCommand.self, BotDeleteCommand.self,
            BotLockCommand.self, BotUnlockCommand.self, BotSnapshotCommand.self, BotRandomCommand.self,
        ])
}

// MARK: Options and running

/// The options every bot subcommand takes.
struct BotOptions: ParsableArguments {
    @Option(help: "The server: ws://HOST:PORT[/PATH] or wss://HOST[:PORT][/PATH] (env: CORKBOARD_URL; default ws://127.0.0.1:8080; the path defaults to /ws).")
    var url: String?

    @Option(help: "With wss://: also trust the CA certificates of this PEM file (a private CA, or a self-signed server's own certificate); the system's CAs are always trusted (env: CORKBOARD_CA_FILE).")
    var caFile: String?

    @Option(help: "Id of the board to join.")
    var board: String

    @Option(help: "Name the others see.")
    var name = "corkboard-bot"

    @Option(help: "Token of the server's token file (env: CORKBOARD_TOKEN); not needed in open mode.")
    var token: String?

    @Option(help: "Seconds to wait for the connection and for each answer.")
    var timeout = 10.0

    func validate() throws {
        if caFile != nil, try !address().usesTLS { throw ValidationError("--ca-file is for wss:// URLs") }
        _ = try address()
        guard timeout > 0 else { throw ValidationError("--timeout must be a number of seconds above 0") }
    }

    func address() throws -> ServerAddress {
        let text = url ?? ProcessInfo.processInfo.environment["CORKBOARD_URL"] ?? "ws://127.0.0.1:8080"
        do {
            return try ServerAddress(url: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// One-shot commands give up reconnecting after a few attempts; watchers never do.
    func clientConfiguration(keepTrying: Bool = false) throws -> BoardClientConfiguration {
        let address = try address()
        var configuration = BoardClientConfiguration(
            address: address, board: board, name: name, token: token ?? ProcessInfo.processInfo.environment["CORKBOARD_TOKEN"])
        configuration.trustedCAFile = caFile ?? ProcessInfo.processInfo.environment["CORKBOARD_CA_FILE"]
        configuration.joinTimeout = timeout
        configuration.operationTimeout = keepTrying ? nil : timeout
        configuration.maximumReconnectAttempts = keepTrying ? nil : 8
        return configuration
    }
}

/// How a bot command ends: the line on standard error and the exit status.
enum BotExit: Error {
    /// Status 1: rejected, unanswered, or otherwise failed.
    case failed(String)
    /// Status 2: no connection, or the join was refused.
    case cannotConnect(String)
}

/// Runs a command's async work on the cooperative pool while the main thread waits (the
/// root command is synchronous), then exits with its status: `corkboard: error: …` and 1 or
/// 2 on failure, as `fail(_:)` reports other commands' errors.
private func runBot(_ body: @escaping @Sendable () async throws(BotExit) -> Void) -> Never {
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<BotExit?>(nil)
    Task {
        do throws(BotExit) {
            try await body()
        } catch {
            outcome.withLock { $0 = error }
        }
        done.signal()
    }
    done.wait()
    switch outcome.withLock({ $0 }) {
    case nil:
        Foundation.exit(0)
    case .failed(let message):
        FileHandle.standardError.write(Data("corkboard: error: \(message)\n".utf8))
        Foundation.exit(1)
    case .cannotConnect(let message):
        FileHandle.standardError.write(Data("corkboard: error: \(message)\n".utf8))
        Foundation.exit(2)
    }
}

/// Connects, or ends the command with status 2.
private func join(_ client: BoardClient) async throws(BotExit) -> Welcome {
    do {
        return try await client.connect()
    } catch {
        let untrusted = "\(error)".contains("certificate verification failed") && client.configuration.trustedCAFile == nil
        throw .cannotConnect("\(error)" + (untrusted ? " (to trust a private CA or a self-signed server, pass its certificate with --ca-file)" : ""))
    }
}

/// One line on standard output, written at once (a watcher is often read through a pipe).
private func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

private func jsonLine(_ message: ServerMessage) -> String {
    (try? WireFormat.encode(message)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
}

// MARK: One operation

/// Options of the subcommands that send one operation.
struct OperationOptions: ParsableArguments {
    @Flag(help: "Print the server's answer as one JSON object (the committed message) instead of a summary.")
    var json = false

    @Option(help: "OpId to send (default: a fresh one). Running the same command again with the same opId never applies it twice.")
    var opId: String?
}

/// Joins, sends one operation built from the replica, prints the answer, leaves.
private func runOperation(
    _ bot: BotOptions, _ options: OperationOptions,
    _ build: @escaping @Sendable (Replica) throws(BotExit) -> RequestedOperation
) throws -> Never {
    let configuration = try bot.clientConfiguration()
    let json = options.json
    // Chosen here rather than by the client, so a rejection can be printed with it.
    let opId = options.opId ?? "\(configuration.opIdPrefix)-1"
    runBot { () throws(BotExit) in
        let client = BoardClient(configuration)
        _ = try await join(client)
        guard let replica = client.replica else { throw .failed("joined without a board") }
        let result = await client.perform(try build(replica), opId: opId)
        await client.close()
        switch result {
        case .committed(let event):
            emit(json ? jsonLine(.committed(event)) : "committed seq \(event.seq)\(event.adjusted ? " (adjusted)" : "")")
        case .noop(let noop):
            emit(json ? jsonLine(.noop(noop)) : "noop (nothing to change; board at seq \(noop.seq))")
        case .rejected(let code, let message):
            if json { emit(jsonLine(.rejected(Rejected(opId: opId, code: code, message: message)))) }
            throw .failed("rejected (\(code.rawValue)): \(message)")
        case .unanswered(let opId, let reason):
            throw .failed("no answer for \(opId): \(reason)")
        }
    }
}

struct BotMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move items (in the order given) before an item of a collection, or to its end.",
        discussion: exitCodes)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions
    @Argument(help: "The items to move.") var items: [String]
    @Option(help: "The collection to move them to.") var to: String
    @Option(help: "The item of that collection to put them before (default: the end).") var before: String?

    func validate() throws {
        guard !items.isEmpty else { throw ValidationError("name at least one item to move") }
    }

    func run() throws {
        let (items, destination) = (items, Destination(collection: to, before: before))
        try runOperation(bot, options) { _ in .move(sources: items, destination: destination) }
    }
}

struct BotInsertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insert", abstract: "Insert a new item into a collection.", discussion: exitCodes)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions
    @Argument(help: "Id of the new item (unique on the board).") var id: String
    @Argument(help: "Its label.") var label: String
    @Option(help: "The collection to insert it into.") var to: String
    @Option(help: "The item to put it before (default: the end).") var before: String?
    @Option(help: "Its data: a JSON object, e.g. '{\"points\":3}'.") var data: String?

    func validate() throws { _ = try parsedData() }

    private func parsedData() throws -> JSONObject? {
        guard let data else { return nil }
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(data.utf8)) else {
            throw ValidationError("--data must be a JSON object")
        }
        return object
    }

    func run() throws {
        let item = Item(id: id, label: label, data: try parsedData())
        let destination = Destination(collection: to, before: before)
        try runOperation(bot, options) { _ in .insert(items: [item], destination: destination) }
    }
}

struct BotDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete items.", discussion: exitCodes)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions
    @Argument(help: "The items to delete.") var items: [String]

    func validate() throws {
        guard !items.isEmpty else { throw ValidationError("name at least one item to delete") }
    }

    func run() throws {
        let items = items
        try runOperation(bot, options) { _ in .delete(items: items) }
    }
}

struct BotLockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock", abstract: "Lock the board (owner only): every other operation is then rejected locked.",
        discussion: exitCodes)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions

    func run() throws { try runOperation(bot, options) { _ in .lock(locked: true) } }
}

struct BotUnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Unlock the board (owner only).", discussion: exitCodes)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions

    func run() throws { try runOperation(bot, options) { _ in .lock(locked: false) } }
}

// MARK: Reading

struct BotSnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Print the board as JSON, as GET /api/boards/{id} does (with seq and epoch).",
        discussion: exitCodes)

    @OptionGroup var bot: BotOptions

    func run() throws {
        let configuration = try bot.clientConfiguration()
        runBot { () throws(BotExit) in
            let client = BoardClient(configuration)
            let welcome = try await join(client)
            let replica = client.replica
            await client.close()
            guard let replica, let json = try? WireFormat.encode(BoardDocument(board: replica.board, seq: replica.seq, epoch: welcome.epoch)) else {
                throw .failed("joined without a board")
            }
            emit(String(decoding: json, as: UTF8.self))
        }
    }
}

struct BotWatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print every event of the board, one per line, until interrupted.",
        discussion: """
            With --json each line is the server message as one JSON object (welcome, committed, \
            peer.joined, peer.left, drag, drag.over, drag.cleared, rejected, error), and connection changes go to \
            standard error. Reconnects and resumes until stopped; no event is printed twice.

            \(exitCodes)
            """)

    @OptionGroup var bot: BotOptions
    @Flag(help: "One JSON object per line: the server messages.") var json = false
    @Option(help: "Stop after this many server messages (the welcome counts).") var count: Int?
    @Option(help: "Stop after this many seconds.") var duration: Double?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be above 0") }
    }

    func run() throws {
        let configuration = try bot.clientConfiguration(keepTrying: true)
        let (json, count, duration) = (json, count, duration)
        runBot { () throws(BotExit) in
            let client = BoardClient(configuration)
            let events = client.events()
            _ = try await join(client)
            if let duration {
                Task {
                    try? await Task.sleep(for: .seconds(duration))
                    await client.close()
                }
            }
            var printed = 0
            var ending: BoardClientError?
            for await event in events {
                if let message = event.serverMessage {
                    emit(json ? jsonLine(message) : BotText.describe(message))
                    printed += 1
                    if let count, printed >= count { break }
                } else if case .connection(let state) = event {
                    if case .closed(let error) = state { ending = error }
                    let line = BotText.describe(state)
                    if json { FileHandle.standardError.write(Data((line + "\n").utf8)) } else { emit(line) }
                }
            }
            await client.close()
            if let ending { throw .failed("\(ending)") }
        }
    }
}

// MARK: Random drags

struct BotRandomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "random",
        abstract: "Drag and move cards at random, as a person would, for demos and soak tests.",
        discussion: """
            Each action is either a drag (drag.start, a few drag.over, then the drop as a move, as \
            the browser client does) or a plain move by anchor or by offsets. Rejections such as busy \
            are part of the game and counted, not failures. Prints a summary at the end.

            \(exitCodes)
            """)

    @OptionGroup var bot: BotOptions
    @Option(help: "Actions per second.") var rate = 2.0
    @Option(help: "Seconds to run.") var duration = 10.0
    @Option(help: "Seed of the random choices (default: random).") var seed: UInt64?

    func validate() throws {
        guard rate > 0, rate <= 1000 else { throw ValidationError("--rate must be above 0 and at most 1000") }
        guard duration > 0, duration <= 86_400 else { throw ValidationError("--duration must be above 0 and at most 86400 s") }
    }

    func run() throws {
        var settings = try bot.clientConfiguration(keepTrying: false)
        settings.maximumReconnectAttempts = 20
        let configuration = settings
        let (rate, duration, seed) = (rate, duration, seed ?? UInt64.random(in: 0 ... .max))
        runBot { () throws(BotExit) in
            let client = BoardClient(configuration)
            let events = client.events()
            let reconnects = Task {
                var count = 0
                for await event in events {
                    if case .connection(.disconnected) = event { count += 1 }
                }
                return count
            }
            _ = try await join(client)
            var player = RandomPlayer(client: client, seed: seed, interval: 1 / rate)
            let start = ContinuousClock.now
            let end = start + .seconds(duration)
            var next = start
            while ContinuousClock.now < end {
                await player.act()
                next += .seconds(1 / rate)
                if next > ContinuousClock.now { try? await Task.sleep(until: next) }
            }
            let elapsed = ContinuousClock.now - start
            await client.close()
            emit(player.tally.summary(seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                                      reconnects: await reconnects.value))
        }
    }
}

/// The random actions of `bot random`, read from the client's replica.
private struct RandomPlayer {
    struct Tally {
        var actions = 0, drags = 0, committed = 0, adjusted = 0, noops = 0
        var rejections: [String: Int] = [:]
        var unanswered = 0

        func summary(seconds: Double, reconnects: Int) -> String {
            let rejected = rejections.values.reduce(0, +)
            let codes = rejections.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "random: \(actions) actions (\(drags) drags) in \(String(format: "%.1f", seconds)) s: "
                + "\(committed) committed (\(adjusted) adjusted), \(noops) noop, \(rejected) rejected"
                + (codes.isEmpty ? "" : " (\(codes))") + ", \(unanswered) unanswered, \(reconnects) reconnects"
        }
    }

    let client: BoardClient
    var random: SplitMix64
    /// Seconds between actions: a drag's pointer moves are spread over part of it.
    let interval: Double
    var tally = Tally()

    init(client: BoardClient, seed: UInt64, interval: Double) {
        self.client = client
        random = SplitMix64(seed: seed)
        self.interval = interval
    }

    mutating func act() async {
        guard let board = client.board, !board.locked, !board.allItemIDs.isEmpty, !board.collections.isEmpty else { return }
        tally.actions += 1
        let result: OperationResult
        switch Int.random(in: 0..<4, using: &random) {
        case 0, 1: result = await drag(board)
        case 2: result = await client.perform(anchorMove(board))
        default: result = await client.perform(offsetsMove(board) ?? anchorMove(board))
        }
        switch result {
        case .committed(let event):
            tally.committed += 1
            if event.adjusted { tally.adjusted += 1 }
        case .noop: tally.noops += 1
        case .rejected(let code, _): tally.rejections[code.rawValue, default: 0] += 1
        case .unanswered: tally.unanswered += 1
        }
    }

    /// Pick up one card, hover over two to four places, drop it on the last one.
    private mutating func drag(_ board: Board) async -> OperationResult {
        tally.drags += 1
        let item = board.allItemIDs.randomElement(using: &random)!
        await client.dragStart([item])
        var target = Destination(collection: board.collections[0].id)
        for _ in 0..<Int.random(in: 2...4, using: &random) {
            try? await Task.sleep(for: .seconds(interval / 8))
            let current = client.board ?? board
            let collection = current.collections.randomElement(using: &random)!
            // The placeholder index counts the list without the dragged card
            // (docs/protocol.md#6-presence-drag-state).
            let others = collection.items.map(\.id).filter { $0 != item }
            let index = Int.random(in: 0...others.count, using: &random)
            await client.dragOver(collection: collection.id, index: index)
            target = Destination(collection: collection.id, before: index < others.count ? others[index] : nil)
        }
        return await client.perform(.move(sources: [item], destination: target))
    }

    private mutating func anchorMove(_ board: Board) -> RequestedOperation {
        let item = board.allItemIDs.randomElement(using: &random)!
        let collection = board.collections.randomElement(using: &random)!
        let anchors: [ItemID?] = collection.items.map(\.id).filter { $0 != item } + [nil]
        return .move(sources: [item], destination: Destination(collection: collection.id, before: anchors.randomElement(using: &random)!))
    }

    private mutating func offsetsMove(_ board: Board) -> RequestedOperation? {
        guard let source = board.collections.filter({ !$0.items.isEmpty }).randomElement(using: &random) else { return nil }
        let target = board.collections.randomElement(using: &random)!
        let from = Int.random(in: 0..<source.items.count, using: &random)
        let to = Int.random(in: 0...target.items.count, using: &random)
        return .moveByOffsets(collection: source.id, fromOffsets: [from], toOffset: to, toCollection: target.id)
    }
}

// MARK: Text

/// The one-line summaries `bot watch` prints without --json.
private enum BotText {
    static func describe(_ message: ServerMessage) -> String {
        switch message {
        case .welcome(let welcome):
            if welcome.resumed { return "welcome: \(welcome.client) (\(welcome.role.rawValue)), resumed at seq \(welcome.seq)" }
            let board = welcome.board
            let items = board?.allItemIDs.count ?? 0
            return "welcome: \(welcome.client) (\(welcome.role.rawValue)), \(board?.title.debugDescription ?? "?") at seq \(welcome.seq): "
                + "\(board?.collections.count ?? 0) collections, \(items) items, \(welcome.peers.count) peers"
                + (board?.locked == true ? ", locked" : "")
        case .committed(let event):
            return "#\(event.seq) \(event.client) \(describe(event.op))\(event.adjusted ? " (adjusted)" : "")  [\(event.opId)]"
        case .noop(let noop):
            return "noop \(noop.opId) at seq \(noop.seq)"
        case .peerJoined(let client, let name):
            return "\(client) joined: \(name)"
        case .peerLeft(let client):
            return "\(client) left"
        case .drag(let update):
            return "\(update.client) (\(update.name)) drags \(update.items.joined(separator: ", "))" + (update.over.map(describe) ?? "")
        case .dragOver(let client, let over):
            return "\(client) drags\(describe(over))"
        case .dragCleared(let client, let reason):
            return "\(client) drag ended: \(reason.rawValue)"
        case .rejected(let rejected):
            return "rejected \(rejected.ref ?? rejected.opId ?? ""): \(rejected.code.rawValue)"
                + (rejected.holder.map { " (held by \($0))" } ?? "") + (rejected.message.map { ": \($0)" } ?? "")
        case .error(let error):
            return "error \(error.code.rawValue): \(error.message)"
        }
    }

    static func describe(_ op: BoardOperation) -> String {
        switch op {
        case .move(let sources, let destination):
            return "move \(sources.joined(separator: ", ")) to \(describe(destination))"
        case .insert(let items, let destination):
            return "insert \(items.map(\.id).joined(separator: ", ")) into \(describe(destination))"
        case .delete(let items):
            return "delete \(items.joined(separator: ", "))"
        case .updateItem(let item, let label, let data):
            var changes: [String] = []
            if let label { changes.append("label \(label.debugDescription)") }
            switch data {
            case .unchanged: break
            case .replace: changes.append("data")
            case .remove: changes.append("no data")
            }
            return "update \(item): \(changes.joined(separator: ", "))"
        case .renameCollection(let collection, let title):
            return "rename \(collection) to \(title.debugDescription)"
        case .addCollection(let collection, let title, let before):
            return "add collection \(collection) \(title.debugDescription)" + (before.map { " before \($0)" } ?? " last")
        case .removeCollection(let collection):
            return "remove collection \(collection)"
        case .lock(let locked):
            return locked ? "lock" : "unlock"
        }
    }

    /// " over done[2] before x": a drag's placeholder.
    static func describe(_ over: DragTarget) -> String {
        " over \(over.collection)[\(over.index)]" + (over.before.map { " before \($0)" } ?? " at the end")
    }

    static func describe(_ destination: Destination) -> String {
        destination.collection + (destination.before.map { " before \($0)" } ?? " (end)")
    }

    static func describe(_ state: ConnectionState) -> String {
        switch state {
        case .idle: "idle"
        case .connecting(let attempt): attempt == 0 ? "connecting" : "connecting (attempt \(attempt + 1))"
        case .joined(let client, let role, let resumed): "joined as \(client) (\(role.rawValue))\(resumed ? ", resumed" : "")"
        case .disconnected(let code, let reason): "disconnected (\(code)\(reason.isEmpty ? "" : ": \(reason)")); reconnecting"
        case .waiting(let delay): String(format: "reconnecting in %.1f s", delay)
        case .closed(let error): error.map { "closed: \($0)" } ?? "closed"
        }
    }
}
