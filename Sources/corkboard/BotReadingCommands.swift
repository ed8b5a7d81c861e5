import ArgumentParser
import CorkboardClient
import CorkboardWire
import Foundation

struct BotSnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Print the board as JSON, as GET /api/boards/{id} does (with seq and epoch).",
        discussion: botExitStatuses)

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
            peer.joined, peer.left, peers, peers.page, drag, drag.over, drag.cleared, rejected, error), and connection changes go to \
            standard error. Reconnects and resumes until stopped; no event is printed twice.

            \(botExitStatuses)
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
        var observing = try bot.clientConfiguration(keepTrying: true)
        // A watcher is not a person at the board: nobody should see it among the peers.
        observing.observes = true
        let configuration = observing
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
