import ArgumentParser
import CorkboardClient
import CorkboardHub
import CorkboardModel
import CorkboardSQLite
import CorkboardServeCommand
import CorkboardServer
import CorkboardStore
import Foundation
import Synchronization

/// The data folder the archive commands work on: `--data`, else CORKBOARD_DATA, else the
/// server's default, so they find the same database `corkboard serve` uses.
struct DataFolderOption: ParsableArguments {
    @Option(help: "Folder of the server's data (env: CORKBOARD_DATA; default ./data).")
    var data: String?

    var path: String {
        data ?? ProcessInfo.processInfo.environment["CORKBOARD_DATA"] ?? ServerConfiguration().dataDirectory
    }
}

/// `corkboard export`: one board (`--board ID`) as a pretty-printed archive, or every board
/// (`--all`) as JSON Lines, each with its kept log when `--history`; for backups, for seeding
/// other servers and for moving boards between stores. Reads beside a running server (SQLite's
/// WAL lets a reader in; PostgreSQL serves its nodes and this alike), through the store
/// contract, so both stores share this code.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write one board, or every board, as JSON (with --history, with its kept log).",
        discussion: """
            Works while the server runs. --board ID writes one archive; --all writes one line per \
            board (JSON Lines), in id order, each board as it was when it was read. --history adds \
            each board's kept log (archive format 2), so an import keeps its seqs and its log. \
            The file is what `corkboard import` reads.
            """)

    @OptionGroup var storage: ArchiveStoreOptions

    @Option(help: "Id of the board to export.")
    var board: String?

    @Flag(help: "Export every board, one archive per line (JSON Lines).")
    var all = false

    @Flag(help: "Include each board's kept log (the committed events the store still holds).")
    var history = false

    @Option(name: .shortAndLong, help: "File to write; standard output when left out.")
    var output: String?

    func validate() throws {
        guard (board != nil) != all else { throw ValidationError("give either --board ID or --all") }
    }

    func run() throws {
        do { try export() } catch let failure as CommandFailure { fail(failure) }
    }

    private func export() throws {
        let store = try storage.openForReading()
        defer { store.close() }
        if let board {
            guard let archive = try archive(of: board, in: store) else {
                throw CommandFailure("there is no board \"\(board)\" in \(storage.place)")
            }
            try write(archive.encoded() + Data("\n".utf8))
            if let output { FileHandle.standardError.write(Data("exported \(board) at seq \(archive.seq) to \(output)\n".utf8)) }
            return
        }
        let summaries = try answer(of: store.listBoards).get(or: storage.place)
        // A board at a time: a big store is never held whole. A file is written under a
        // temporary name and renamed once complete.
        let sink = try LineSink(output)
        var exported = 0
        for summary in summaries {
            // A board deleted since the listing is left out.
            guard let archive = try archive(of: summary.id, in: store) else { continue }
            try sink.write(try archive.encodedLine())
            exported += 1
        }
        try sink.finish()
        if let output { FileHandle.standardError.write(Data("exported \(exported) board\(exported == 1 ? "" : "s") to \(output)\n".utf8)) }
    }

    /// The board's archive through the store contract: its whole kept log loaded, folded
    /// into the board at its seq.
    private func archive(of id: String, in store: any BoardStore) throws -> BoardArchive? {
        guard let stored = try answer(of: { store.loadBoard(id, historyLimit: .max, $0) }).get(or: storage.place) else { return nil }
        do {
            return try BoardArchive(stored, history: history)
        } catch {
            throw CommandFailure("the stored log of \(String(reflecting: id)) in \(storage.place) does not apply: \(error)")
        }
    }

    private func write(_ data: Data) throws {
        guard let output else { return FileHandle.standardOutput.write(data) }
        do {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandFailure("cannot write \(output): \(error.localizedDescription)")
        }
    }
}

/// Where `export --all` writes its lines: standard output, or `path + ".partial"` renamed to
/// `path` by `finish`.
private struct LineSink {
    let path: String?
    let handle: FileHandle

    init(_ path: String?) throws {
        self.path = path
        guard let path else {
            handle = FileHandle.standardOutput
            return
        }
        guard FileManager.default.createFile(atPath: path + ".partial", contents: nil), let handle = FileHandle(forWritingAtPath: path + ".partial")
        else { throw CommandFailure("cannot write \(path)") }
        self.handle = handle
    }

    func write(_ data: Data) throws {
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw CommandFailure("cannot write \(path ?? "standard output"): \(error.localizedDescription)")
        }
    }

    func finish() throws {
        guard let path else { return }
        do {
            try handle.synchronize()
            try handle.close()
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        } catch {
            throw CommandFailure("cannot write \(path): \(error.localizedDescription)")
        }
    }
}

/// `corkboard import FILE`: puts the boards of an archive file (one board, or JSON Lines of
/// several) into the store, replacing boards with the same ids (which then get a new epoch,
/// so their clients reload rather than resume). With SQLite it needs the server stopped: the
/// store takes the folder's lock. Each board is held to every limit the server holds boards
/// to (the size limits as `serve` reads them), so nothing gets in through a file that the
/// server could not have made, or could not serve; the whole file is checked before any
/// board is written.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read boards from a file made by `corkboard export` (or by hand) into the store.",
        discussion: """
            Into the store (--store, --data, --database-url; with SQLite, stop the server \
            first): a board with the same id is replaced and gets a new epoch. Into a running \
            server (--url, with an owner's --token where it has tokens): each board through PUT \
            /api/boards/{id}/archive, at most 1 MiB each, one that exists replaced only with \
            --replace (its members are closed to join again). A board with history keeps its \
            seqs and log. A board past the server's limits (items, collections, ids, labels and \
            titles, data, JSON nesting, seq 0…2^53 − 1), or whose history does not lead to it, \
            is refused, naming the board and what is wrong, before anything is written.
            """)

    @OptionGroup var storage: ArchiveStoreOptions

    @OptionGroup var boardLimits: BoardLimitOptions

    @OptionGroup(title: "Into a running server (--url): through PUT /api/boards/{id}/archive")
    var server: AdminServerOptions

    @Flag(help: "With --url: replace boards that exist (without it the server refuses them, 409).")
    var replace = false

    @Argument(help: "The archive file (one board, or JSON Lines of several); - for standard input.")
    var file: String

    func run() throws {
        do { try importArchives() } catch let failure as CommandFailure { fail(failure) }
    }

    private func importArchives() throws {
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
        let archives: [BoardArchive]
        do throws(ArchiveDecodingError) {
            archives = try BoardArchive.decodeAll(data)
        } catch {
            let named = error.board.map { "board \(String(reflecting: $0)) in " } ?? ""
            throw CommandFailure("\(named)\(file) is not a board archive: \(error)")
        }
        var seen = Set<String>()
        for archive in archives {
            guard seen.insert(archive.board.id).inserted else {
                throw CommandFailure("board \(String(reflecting: archive.board.id)) appears twice in \(file)")
            }
            let problems = archive.validationProblems(limits: hub.boardSizeLimits)
            guard problems.isEmpty else { throw CommandFailure(SQLiteStoreError.invalidArchive(board: archive.board.id, problems: problems).description) }
        }
        if server.url != nil { return try send(archives) }
        let store = try storage.openForWriting()
        defer { store.close() }
        for archive in archives {
            let imported: ImportedBoard
            switch answer(of: { store.importBoard(archive, replacing: true, $0) }) {
            case .success(let done): imported = done
            case .failure(.conflict(let current)):
                throw CommandFailure(
                    SQLiteStoreError.invalidArchive(
                        board: archive.board.id,
                        problems: [
                            "the board here is at seq \(current); a replacement needs a seq above \(max(current, archive.seq)), past the last a board reaches (\(Limits.maximumSeq))"
                        ]
                    ).description)
            case .failure(let error):
                throw CommandFailure("cannot import board \(String(reflecting: archive.board.id)) into \(storage.place): \(error)")
            }
            let verb = imported.replacedExisting ? "replaced" : "created"
            print("\(verb) board \(imported.id) at seq \(imported.seq), epoch \(imported.epoch)")
        }
    }
}

extension ImportCommand {
    /// `--url`: each board to the running server, one request each (the server holds each
    /// body to 1 MiB), with an owner's token where the server has tokens.
    fileprivate func send(_ archives: [BoardArchive]) throws {
        let administration = try server.administration()
        for archive in archives {
            do {
                let answer = try administration.importArchive(Array(try archive.encoded()), board: archive.board.id, replace: replace)
                print("\(answer.replaced ? "replaced" : "created") board \(answer.id) at seq \(answer.seq), epoch \(answer.epoch)")
            } catch let error as BoardAdministrationError {
                throw CommandFailure("board \(String(reflecting: archive.board.id)): \(error.description)")
            }
        }
    }
}

/// A store call's answer, waited for: the command line has nothing else to do meanwhile.
func answer<T: Sendable>(of call: (@escaping @Sendable (Result<T, StoreError>) -> Void) -> Void) -> Result<T, StoreError> {
    let answered = DispatchSemaphore(value: 0)
    let result = Mutex<Result<T, StoreError>?>(nil)
    call { outcome in
        result.withLock { $0 = outcome }
        answered.signal()
    }
    answered.wait()
    return result.withLock { $0! }
}

extension Result where Failure == StoreError {
    /// The value, or a one-line failure naming where the store is.
    func get(or place: String) throws -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw CommandFailure("\(place): \(error)")
        }
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
