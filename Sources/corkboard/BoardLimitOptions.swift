import ArgumentParser
import CorkboardHub
import CorkboardServer

/// The limits on one board's size, shared by `serve` (which holds operations to them) and
/// `import` (which refuses an archive past them), so that both read the same options and
/// variables with the same defaults: a board the server would not let grow never gets in
/// through a file either.
struct BoardLimitOptions: ParsableArguments {
    @Option(help: "Items one board holds; an insert past it is rejected invalid, an import past it refused. 0: no limit (env: CORKBOARD_MAX_ITEMS_PER_BOARD; default 10000).")
    var maxItemsPerBoard: Int?

    @Option(help: "Collections one board holds; a collection.add past it is rejected invalid, an import past it refused. 0: no limit (env: CORKBOARD_MAX_COLLECTIONS_PER_BOARD; default 1000).")
    var maxCollectionsPerBoard: Int?

    /// Sets the hub's limits: the option, else the variable, else the hub's default.
    /// Throws `EnvironmentSettings.InvalidValue` or a `ValidationError`.
    func apply(to hub: inout HubConfiguration, environment: EnvironmentSettings) throws {
        hub.maxItemsPerBoard = try limit(
            maxItemsPerBoard ?? environment.integer("CORKBOARD_MAX_ITEMS_PER_BOARD"), "--max-items-per-board",
            default: hub.maxItemsPerBoard)
        hub.maxCollectionsPerBoard = try limit(
            maxCollectionsPerBoard ?? environment.integer("CORKBOARD_MAX_COLLECTIONS_PER_BOARD"), "--max-collections-per-board",
            default: hub.maxCollectionsPerBoard)
    }
}
