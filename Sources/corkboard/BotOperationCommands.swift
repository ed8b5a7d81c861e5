import ArgumentParser
import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation

/// Options of the subcommands that send one operation.
struct OperationOptions: ParsableArguments {
    @Flag(help: "Print the server's answer as one JSON object (the committed message) instead of a summary.")
    var json = false

    @Option(help: "OpId to send (default: a fresh one). Running the same command again with the same opId never applies it twice.")
    var opId: String?
}

/// Joins, sends one operation built from the replica, prints the answer, leaves.
func runOperation(
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
            emit(json ? jsonLine(.committed(event)) : BotText.describe(result))
        case .noop(let noop):
            emit(json ? jsonLine(.noop(noop)) : BotText.describe(result))
        case .rejected(let code, let message):
            if json { emit(jsonLine(.rejected(Rejected(opId: opId, code: code, message: message)))) }
            throw .failed(BotText.describe(result))
        case .unanswered:
            throw .failed(BotText.describe(result))
        }
    }
}

struct BotMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move items (in the order given) before an item of a collection, or to its end.",
        discussion: botExitStatuses)

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
        commandName: "insert", abstract: "Insert a new item into a collection.", discussion: botExitStatuses)

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
        commandName: "delete", abstract: "Delete items.", discussion: botExitStatuses)

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
        discussion: botExitStatuses)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions

    func run() throws { try runOperation(bot, options) { _ in .lock(locked: true) } }
}

struct BotUnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Unlock the board (owner only).", discussion: botExitStatuses)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions

    func run() throws { try runOperation(bot, options) { _ in .lock(locked: false) } }
}
