import CorkboardModel

extension HubConfiguration {
    /// `maxItemsPerBoard` and `maxCollectionsPerBoard` as the model checks a whole board
    /// against them: a board created over HTTP, and `corkboard import` (which reads the same
    /// options, so an imported board is one the server would have let grow).
    public var boardSizeLimits: BoardSizeLimits {
        BoardSizeLimits(maximumItems: maxItemsPerBoard, maximumCollections: maxCollectionsPerBoard)
    }
}
