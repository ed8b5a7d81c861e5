import ArgumentParser
import CorkboardServeCommand

/// `corkboard serve`: the options (`ServeArguments`, completed from the environment and checked
/// by `ServeSettings`), then the server until a signal ends it (`ServerMain`).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Corkboard server.",
        discussion: ServeArguments.discussion)

    @OptionGroup var arguments: ServeArguments

    func run() throws {
        try ServerMain.run(arguments)
    }
}
