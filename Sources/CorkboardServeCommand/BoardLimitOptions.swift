import ArgumentParser
import CorkboardServer

/// The options of `BoardLimitValues`, shared by `serve` (of both executables) and `import`.
public struct BoardLimitOptions: ParsableArguments {
    @Option(
        help:
            "Items one board holds; an insert past it is rejected invalid, an import past it refused. 0: no limit (env: CORKBOARD_MAX_ITEMS_PER_BOARD; default 10000)."
    )
    var maxItemsPerBoard: Int?

    @Option(
        help:
            "Collections one board holds; a collection.add past it is rejected invalid, an import past it refused. 0: no limit (env: CORKBOARD_MAX_COLLECTIONS_PER_BOARD; default 1000)."
    )
    var maxCollectionsPerBoard: Int?

    public init() {}

    public var values: BoardLimitValues {
        BoardLimitValues(maxItemsPerBoard: maxItemsPerBoard, maxCollectionsPerBoard: maxCollectionsPerBoard)
    }
}
