import ArgumentParser
import CorkboardServer
import CorkboardSQLite
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
/// Needs the server stopped: the store takes the folder's lock.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a board from a JSON file made by `corkboard export` (or by hand) into the data folder.",
        discussion: "Stop the server first. A board with the same id is replaced and gets a new epoch.")

    @OptionGroup var folder: DataFolderOption

    @Argument(help: "The JSON file to import; - for standard input.")
    var file: String

    func run() throws {
        do { try importArchive() } catch let failure as CommandFailure { fail(failure) }
    }

    private func importArchive() throws {
        let data: Data
        do {
            data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure("cannot read \(file): \(error.localizedDescription)")
        }
        let archive: BoardArchive
        do {
            archive = try BoardArchive.decode(data)
        } catch {
            throw CommandFailure("\(file) is not a board archive: \(Self.describe(error))")
        }
        let store = try openOrExplain { try SQLiteStore(directory: folder.path) }
        defer { store.close() }
        let imported = try openOrExplain { try store.importBoard(archive) }
        let verb = imported.replacedExisting ? "replaced" : "created"
        print("\(verb) board \(imported.id) at seq \(imported.seq), epoch \(imported.epoch)")
    }

    /// JSON decoding errors name the field that is wrong, not Foundation's whole context.
    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "the field \"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context): context.debugDescription
        default: "\(error)"
        }
    }
}

/// A failure the user can act on: one line on standard error (`corkboard: error: …`, as
/// `serve` reports its startup errors), exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Turns the store's typed errors into one-line command failures.
private func openOrExplain<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as SQLiteStoreError {
        throw CommandFailure(error.description)
    }
}
