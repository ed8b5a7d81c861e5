import ArgumentParser
import CorkboardClient
import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import Synchronization

/// What every bot subcommand's help says about its exit status, so scripts can rely on it.
let botExitStatuses = """
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

            \(botExitStatuses)
            """,
        subcommands: [
            BotWatchCommand.self, BotMoveCommand.self, BotMoveColumnsCommand.self, BotInsertCommand.self, BotDeleteCommand.self, BotAcceptsCommand.self,
            BotLockCommand.self, BotUnlockCommand.self, BotSnapshotCommand.self, BotRandomCommand.self,
        ])
}

// MARK: Options and running

/// The options every bot subcommand takes.
struct BotOptions: ParsableArguments {
    @Option(help: "The server: ws://HOST:PORT[/PATH] or wss://HOST[:PORT][/PATH] (env: CORKBOARD_URL; default ws://127.0.0.1:8080; the path defaults to /ws).")
    var url: String?

    @Option(
        help:
            "With wss://: also trust the CA certificates of this PEM file (a private CA, or a self-signed server's own certificate); the system's CAs are always trusted (env: CORKBOARD_CA_FILE)."
    )
    var caFile: String?

    @Option(help: "Id of the board to join.")
    var board: String

    @Option(help: "Name the others see, at most 256 bytes.")
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
func runBot(_ body: @escaping @Sendable () async throws(BotExit) -> Void) -> Never {
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
func join(_ client: BoardClient) async throws(BotExit) -> Welcome {
    do {
        return try await client.connect()
    } catch {
        let untrusted = "\(error)".contains("certificate verification failed") && client.configuration.trustedCAFile == nil
        throw .cannotConnect("\(error)" + (untrusted ? " (to trust a private CA or a self-signed server, pass its certificate with --ca-file)" : ""))
    }
}

/// One line on standard output, written at once (a watcher is often read through a pipe).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func jsonLine(_ message: ServerMessage) -> String {
    (try? WireFormat.encode(message)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
}
