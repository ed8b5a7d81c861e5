import ArgumentParser
import CorkboardClient

/// `corkboard bot random`: parses and wires; the strategy, its pace and its tally are `RandomPlayer`'s.
struct BotRandomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "random",
        abstract: "Drag and move cards at random, as a person would, for demos and soak tests.",
        discussion: """
            Each action is either a drag (drag.start, a few drag.over, then the drop as a move, as \
            the browser client does) or a plain move by anchor or by offsets. Rejections such as busy \
            are part of the game and counted, not failures. With --columns one action in five drags a \
            column instead (drag.start of the column, a few drag.over among the columns, then the drop \
            as a collection.move). Prints a summary at the end.

            \(botExitStatuses)
            """)

    @OptionGroup var bot: BotOptions
    @Option(help: "Actions per second.") var rate = 2.0
    @Option(help: "Seconds to run.") var duration = 10.0
    @Option(help: "Seed of the random choices (default: random).") var seed: UInt64?
    @Flag(help: "Also drag columns: one action in five is a drag of a column.") var columns = false

    func validate() throws {
        guard rate > 0, rate <= 1000 else { throw ValidationError("--rate must be above 0 and at most 1000") }
        guard duration > 0, duration <= 86_400 else { throw ValidationError("--duration must be above 0 and at most 86400 s") }
    }

    func run() throws {
        var settings = try bot.clientConfiguration(keepTrying: false)
        settings.maximumReconnectAttempts = 20
        let configuration = settings
        let (rate, duration, seed, columns) = (rate, duration, seed ?? UInt64.random(in: 0 ... .max), columns)
        runBot { () throws(BotExit) in
            let client = BoardClient(configuration)
            let events = client.events()
            let reconnects = Task {
                var count = 0
                for await event in events {
                    if case .connection(.disconnected) = event { count += 1 }
                }
                return count
            }
            _ = try await join(client)
            var player = RandomPlayer(client: client, seed: seed, interval: 1 / rate, dragsColumns: columns)
            let seconds = await player.play(rate: rate, duration: duration)
            await client.close()
            emit(player.tally.summary(seconds: seconds, reconnects: await reconnects.value))
        }
    }
}
