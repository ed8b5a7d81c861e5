import ArgumentParser
import CorkboardClient
import CorkboardServeCommand

/// `corkboard boards list|delete`: board administration through a running server's HTTP API,
/// not on the store directly. Only the server can delete a board that people have open: it
/// sends its members `error gone` (on every node of a PostgreSQL cluster) and unloads it,
/// where a write into the database under it would leave them editing a board that no longer
/// exists. Needs an owner's token where the server has tokens.
struct BoardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boards",
        abstract: "List or delete the boards of a running server (over its HTTP API).",
        discussion: """
            These act on a running server, never on the data folder: a delete through the server \
            ends the board for everyone who has it open, on every node, as DELETE /api/boards/{id} \
            does (docs/protocol.md#8-http-api); a delete in the database under a running server would leave \
            them on a board that no longer exists. With a token file or a token secret, pass an \
            owner's token (--token or CORKBOARD_TOKEN). (`corkboard export` and `import` work on \
            the data folder instead.)

            Exit status: 0 done; 1 the server refused (unknown board, token not allowed) or could \
            not be reached, with one line on standard error; 64 bad usage.
            """,
        subcommands: [BoardsListCommand.self, BoardsDeleteCommand.self])
}

struct BoardsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print every board the token may see: id, title, seq and number of items.",
        discussion: "Reads GET /api/boards, then each board (for its items), one request at a time.")

    @OptionGroup var server: AdminServerOptions

    @Flag(help: #"One JSON object: {"boards":[{"id","title","seq","items"}]}, sorted by id."#)
    var json = false

    func run() throws {
        let administration = try server.administration()
        do {
            let rows = try administration.listedBoards()
            emit(json ? ListedBoard.json(rows) : ListedBoard.table(rows))
        } catch {
            fail(CommandFailure(error.description))
        }
    }
}

struct BoardsDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a board and everything kept for it; its members are sent away.",
        discussion: "Asks nothing. An unknown board exits 1 with one line on standard error.")

    @OptionGroup var server: AdminServerOptions

    @Argument(help: "Id of the board to delete.")
    var id: String

    func run() throws {
        let administration = try server.administration()
        do {
            try administration.deleteBoard(id)
            emit("deleted board \(id)")
        } catch {
            fail(CommandFailure(error.description))
        }
    }
}
