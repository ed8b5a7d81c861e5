import ArgumentParser
import CorkboardClient
import CorkboardSQLite
import CorkboardServeCommand
import CorkboardStore
import Foundation

/// `corkboard backup --output FILE`: the whole SQLite store, every board with everything kept
/// for it (log, remembered answers, revocations), copied at one instant while the server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the whole SQLite store into one file, consistent at one instant, while the server runs.",
        discussion: """
            Reads beside a running server (SQLite's online backup API from a read-only connection). \
            The file is written under a temporary name, checked (integrity_check, a schema this \
            version knows) and renamed; it is one SQLite file that `corkboard restore` puts back. \
            Prints each board with its seq. For --store postgres use pg_dump (docs/storage.md#backups).
            """)

    @OptionGroup var folder: DataFolderOption

    @Option(name: .shortAndLong, help: "File to write (replaced if it exists).")
    var output: String

    func run() throws {
        do {
            let contents = try StoreBackup.backUp(directory: folder.path, to: output)
            print("backed up \(contents.boards.count) board\(contents.boards.count == 1 ? "" : "s") to \(output)")
            printBoards(contents)
        } catch {
            fail(CommandFailure(error.description))
        }
    }
}

/// `corkboard restore FILE`: a backup into an empty data folder, ready for `corkboard serve`.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a file made by `corkboard backup` into an empty data folder.",
        discussion: """
            Only into an empty or missing --data folder, never over a database, and never while a \
            server holds the folder. The file must be a corkboard database of this version's \
            schema or an older one (migrated); a newer one is refused. Every board gets a fresh \
            epoch, so clients that saw operations after the backup reload instead of resuming \
            into a different history; --keep-epochs keeps them (only when the backup is the last \
            state the clients saw, e.g. taken with the server stopped).
            """)

    @OptionGroup var folder: DataFolderOption

    @Flag(help: "Keep the boards' epochs (clients resume) instead of giving each a fresh one.")
    var keepEpochs = false

    @Argument(help: "The backup file.")
    var file: String

    func run() throws {
        do {
            let contents = try StoreBackup.restore(from: file, into: folder.path, keepEpochs: keepEpochs)
            let epochs = keepEpochs ? "epochs kept" : "each with a fresh epoch"
            print("restored \(contents.boards.count) board\(contents.boards.count == 1 ? "" : "s") into \(folder.path) (\(epochs))")
            printBoards(contents)
        } catch {
            fail(CommandFailure(error.description))
        }
    }
}

/// One line per board: its id and seq (control characters escaped, one line each).
private func printBoards(_ contents: BackupContents) {
    for board in contents.boards {
        print("  \(board.id.escapingControlCharacters) seq \(board.seq)")
    }
}
