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
        commandName: "move", abstract: "Move items (in the order given) before an item of a collection or folder, or to its end.",
        discussion: botExitStatuses)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions
    @Argument(help: "The items to move.") var items: [String]
    @OptionGroup var place: PlaceOptions

    func validate() throws {
        guard !items.isEmpty else { throw ValidationError("name at least one item to move") }
        _ = try place.destination()
    }

    func run() throws {
        let (items, destination) = (items, try place.destination())
        try runOperation(bot, options) { _ in .move(sources: items, destination: destination) }
    }
}

/// Where items go: a collection (`--to`) or a folder (`--into`), and before which item.
struct PlaceOptions: ParsableArguments {
    @Option(help: "The collection to put them in.") var to: String?
    @Option(help: "The folder to put them in (docs/model.md \"Folders\"), instead of --to.") var into: String?
    @Option(help: "The item of that collection or folder to put them before (default: the end).") var before: String?

    func destination() throws -> Destination {
        switch (to, into) {
        case (let collection?, nil), (nil, let collection?): Destination(collection: collection, before: before)
        case (nil, nil): throw ValidationError("say where: --to COLLECTION or --into FOLDER")
        case (_?, _?): throw ValidationError("--to and --into name the same place: give one of them")
        }
    }
}

struct BotAcceptsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accepts",
        abstract: "Say whether a folder takes items moved or inserted into it from elsewhere (yes or no).",
        discussion: botExitStatuses)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions
    @Argument(help: "The folder.") var folder: String
    @Argument(help: "yes or no.") var answer: String

    func validate() throws { _ = try accepts() }

    private func accepts() throws -> Bool {
        switch answer {
        case "yes": true
        case "no": false
        default: throw ValidationError("say yes or no, not \(answer)")
        }
    }

    func run() throws {
        let (folder, accepts) = (folder, try accepts())
        try runOperation(bot, options) { _ in .updateFolder(item: folder, accepts: accepts) }
    }
}

struct BotInsertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insert", abstract: "Insert a new item into a collection.", discussion: botExitStatuses)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions
    @Argument(help: "Id of the new item (unique on the board).") var id: String
    @Argument(help: "Its label.") var label: String
    @OptionGroup var place: PlaceOptions
    @Option(help: "Its data: a JSON object, e.g. '{\"points\":3}'.") var data: String?
    @Flag(help: "Make it a folder (empty, accepting drops): other items can then be moved --into it.") var folder = false

    func validate() throws {
        _ = try parsedData()
        _ = try place.destination()
    }

    private func parsedData() throws -> JSONObject? {
        guard let data else { return nil }
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(data.utf8)) else {
            throw ValidationError("--data must be a JSON object")
        }
        return object
    }

    func run() throws {
        let item = Item(id: id, label: label, data: try parsedData(), folder: folder ? Folder(accepts: true) : nil)
        let destination = try place.destination()
        try runOperation(bot, options) { _ in .insert(items: [item], destination: destination) }
    }
}

struct BotMoveColumnsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move-columns", abstract: "Move columns (in the order given) before another column, or to the end.",
        discussion: botExitStatuses)

    @OptionGroup var bot: BotOptions
    @OptionGroup var options: OperationOptions
    @Argument(help: "The columns to move.") var columns: [String]
    @Option(help: "The column to put them before (default: the end).") var before: String?

    func validate() throws {
        guard !columns.isEmpty else { throw ValidationError("name at least one column to move") }
    }

    func run() throws {
        let (columns, before) = (columns, before)
        try runOperation(bot, options) { _ in .moveCollections(collections: columns, before: before) }
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
