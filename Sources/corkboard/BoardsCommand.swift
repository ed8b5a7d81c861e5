import ArgumentParser
import CorkboardModel
import CorkboardWire
import Foundation

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
        let api = try server.api()
        do {
            let list = try api.decode(BoardList.self, from: try api.call(.GET, "/api/boards"))
            // A board deleted between the listing and its reading is left out, not an error.
            let rows = try list.boards.compactMap { summary -> ListedBoard? in
                guard let body = try api.callUnlessMissing(.GET, "/api/boards/" + AdminAPI.pathSegment(summary.id)) else { return nil }
                let document = try api.decode(BoardDocument.self, from: body)
                return ListedBoard(id: summary.id, title: document.board.title, seq: document.seq, items: document.board.itemCount)
            }
            if json {
                emit(String(decoding: try JSONEncoder.sorted.encode(["boards": rows]), as: UTF8.self))
            } else {
                emit(ListedBoard.table(rows))
            }
        } catch let failure as CommandFailure {
            fail(failure)
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
        let api = try server.api()
        do {
            _ = try api.call(.DELETE, "/api/boards/" + AdminAPI.pathSegment(id), notFound: "there is no board \(String(reflecting: id))")
            emit("deleted board \(id)")
        } catch let failure as CommandFailure {
            fail(failure)
        }
    }
}

/// One row of `boards list`.
struct ListedBoard: Encodable {
    var id: String
    var title: String
    var seq: Int
    var items: Int

    /// Columns padded to their widest cell, a header first.
    static func table(_ rows: [ListedBoard]) -> String {
        let cells =
            [["ID", "TITLE", "SEQ", "ITEMS"]]
            + rows.map { [$0.id.escapingControlCharacters, $0.title.escapingControlCharacters, String($0.seq), String($0.items)] }
        let widths = (0..<4).map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { row in
            row.enumerated().map { column, cell in
                column == 3 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension Board {
    var itemCount: Int { collections.reduce(0) { $0 + $1.items.count } }
}
