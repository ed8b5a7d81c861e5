import CorkboardHub

/// The limits on one board's size as given on a command line, shared by `serve` (which holds
/// operations to them) and `import` (which refuses an archive past them), so that both read
/// the same options and variables with the same defaults: a board the server would not let
/// grow never gets in through a file either.
public struct BoardLimitValues: Sendable {
    /// `--max-items-per-board`.
    public var maxItemsPerBoard: Int?
    /// `--max-collections-per-board`.
    public var maxCollectionsPerBoard: Int?

    public init(maxItemsPerBoard: Int? = nil, maxCollectionsPerBoard: Int? = nil) {
        self.maxItemsPerBoard = maxItemsPerBoard
        self.maxCollectionsPerBoard = maxCollectionsPerBoard
    }

    /// Sets the hub's limits: the option, else the variable (CORKBOARD_MAX_ITEMS_PER_BOARD,
    /// CORKBOARD_MAX_COLLECTIONS_PER_BOARD), else the hub's default; 0 turns a limit off.
    public func apply(to hub: inout HubConfiguration, environment: EnvironmentSettings) throws(ServeSettingError) {
        let values = SettingValues(environment: environment)
        hub.maxItemsPerBoard = try values.limit(
            values.integer(maxItemsPerBoard, "CORKBOARD_MAX_ITEMS_PER_BOARD"), "--max-items-per-board",
            default: hub.maxItemsPerBoard)
        hub.maxCollectionsPerBoard = try values.limit(
            values.integer(maxCollectionsPerBoard, "CORKBOARD_MAX_COLLECTIONS_PER_BOARD"), "--max-collections-per-board",
            default: hub.maxCollectionsPerBoard)
    }
}
