import ArgumentParser
import CorkboardServer

@main
struct Corkboard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corkboard",
        abstract: "Corkboard: shared boards that many people and bots reorder together, live.",
        version: CorkboardVersion.line,
        subcommands: [
            ServeCommand.self, ExportCommand.self, ImportCommand.self, BackupCommand.self, RestoreCommand.self,
            BotCommand.self, TokenCommand.self, BoardsCommand.self, WebhookCommand.self,
        ])
}
