import ArgumentParser
import CorkboardClient
import CorkboardHub
import CorkboardSQLite
import CorkboardServer
import CorkboardStore
import Foundation

/// The data folder the archive commands work on: `--data`, else CORKBOARD_DATA, else the
/// server's default, so they find the same database `corkboard serve` uses.
struct DataFolderOption: ParsableArguments {
    @Option(help: "Folder of the server's data (env: CORKBOARD_DATA; default ./data).")
    var data: String?

    var path: String {
        data ?? ProcessInfo.processInfo.environment["CORKBOARD_DATA"] ?? ServerConfiguration().dataDirectory
    }
}

/// `corkboard export --board ID`: the board's durable state as JSON, for backups and for
/// seeding other servers. Reads beside a running server (SQLite's WAL lets a reader in).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write one board (its items in order, seq and epoch) as JSON.",
        discussion: "Works while the server runs. The file is what `corkboard import` reads; history is not included.")

    @OptionGroup var folder: DataFolderOption

    @Option(help: "Id of the board to export.")
    var board: String

    @Option(name: .shortAndLong, help: "File to write; standard output when left out.")
    var output: String?

    func run() throws {
        do { try export() } catch let failure as CommandFailure { fail(failure) }
    }

    private func export() throws {
        let store = try openOrExplain { try SQLiteStore.openReadOnly(directory: folder.path) }
        defer { store.close() }
        guard let archive = try openOrExplain({ try store.exportBoard(board) }) else {
            throw CommandFailure("there is no board \"\(board)\" in \(store.databasePath)")
        }
        let json = try archive.encoded() + Data("\n".utf8)
        if let output {
            do {
                try json.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw CommandFailure("cannot write \(output): \(error.localizedDescription)")
            }
            FileHandle.standardError.write(Data("exported \(board) at seq \(archive.seq) to \(output)\n".utf8))
        } else {
            FileHandle.standardOutput.write(json)
        }
    }
}

/// `corkboard import FILE`: puts an exported board into the data folder, replacing a board
/// with the same id (which then gets a new epoch, so its clients reload rather than resume).
/// Needs the server stopped: the store takes the folder's lock. The board is held to every
/// limit the server holds boards to (the size limits as `serve` reads them), so nothing
/// gets in through a file that the server could not have made, or could not serve.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a board from a JSON file made by `corkboard export` (or by hand) into the data folder.",
        discussion: """
            Stop the server first. A board with the same id is replaced and gets a new epoch. \
            A board past the server's limits (items, collections, ids, labels and titles, data, \
            JSON nesting, seq 0…2^53 − 1) is refused whole, naming the board and what is wrong.
            """)

    @OptionGroup var folder: DataFolderOption

    @OptionGroup var boardLimits: BoardLimitOptions

    @Argument(help: "The JSON file to import; - for standard input.")
    var file: String

    func run() throws {
        do { try importArchive() } catch let failure as CommandFailure { fail(failure) }
    }

    private func importArchive() throws {
        var hub = HubConfiguration()
        do {
            try boardLimits.values.apply(to: &hub, environment: EnvironmentSettings(ProcessInfo.processInfo.environment))
        } catch {
            throw error.usageError
        }
        let data: Data
        do {
            data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure("cannot read \(file): \(error.localizedDescription)")
        }
        let archive: BoardArchive
        do throws(ArchiveDecodingError) {
            archive = try BoardArchive.decode(data)
        } catch {
            let named = error.board.map { "board \(String(reflecting: $0)) in " } ?? ""
            throw CommandFailure("\(named)\(file) is not a board archive: \(error)")
        }
        let store = try openOrExplain { try SQLiteStore(directory: folder.path) }
        defer { store.close() }
        let imported = try openOrExplain { try store.importBoard(archive, limits: hub.boardSizeLimits) }
        let verb = imported.replacedExisting ? "replaced" : "created"
        print("\(verb) board \(imported.id) at seq \(imported.seq), epoch \(imported.epoch)")
    }
}

/// A failure the user can act on: one line on standard error (`corkboard: error: …`, as
/// `serve` reports its startup errors), exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    /// Line breaks and other control characters (an id may hold them) are written escaped,
    /// so the failure stays one line.
    init(_ description: String) {
        self.description = description.escapingControlCharacters
    }
}

/// Turns the store's typed errors into one-line command failures.
private func openOrExplain<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as SQLiteStoreError {
        throw CommandFailure(error.description)
    }
}
