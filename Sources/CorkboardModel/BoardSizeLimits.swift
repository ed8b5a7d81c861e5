/// The server's bounds on one whole board: the configurable item and collection counts
/// (`--max-items-per-board`, `--max-collections-per-board`) and the fixed bounds on an item's
/// `data`. Checked where a whole board arrives from outside (`POST /api/boards`,
/// `corkboard import`); operations are held to the same counts by the resolver
/// (`BoardEngine.maximumItems`, `maximumCollections`).
public struct BoardSizeLimits: Sendable, Hashable {
    /// Items the board may hold; nil: no limit.
    public var maximumItems: Int?
    /// Collections the board may hold; nil: no limit.
    public var maximumCollections: Int?

    public init(maximumItems: Int?, maximumCollections: Int?) {
        self.maximumItems = maximumItems
        self.maximumCollections = maximumCollections
    }

    /// What about `board` is past the limits: its counts, then each item whose data is too
    /// long or too deep, in board order. Empty when it fits.
    ///
    /// Not part of `Board.validationProblems()`: boards stored before these bounds (or under
    /// larger ones) must still load.
    public func problems(of board: Board) -> [String] {
        var problems: [String] = []
        let itemCount = board.collections.reduce(0) { $0 + $1.items.count } + board.folders.values.reduce(0) { $0 + $1.count }
        if let limit = maximumItems, itemCount > limit {
            problems.append("collections: a board holds at most \(limit) items; this one has \(itemCount)")
        }
        if let limit = maximumCollections, board.collections.count > limit {
            problems.append("collections: a board holds at most \(limit) collections; this one has \(board.collections.count)")
        }
        let lists =
            board.collections.enumerated().map { ("collections[\($0.offset)]", $0.element.items) }
            + board.folders.sorted { $0.key < $1.key }.map { ("folders[\($0.key.debugDescription)]", $0.value) }
        for (path, items) in lists {
            for (itemIndex, item) in items.enumerated() {
                if let problem = Limits.dataProblem(item.data, of: item.id) {
                    problems.append("\(path).items[\(itemIndex)].data: \(problem)")
                }
            }
        }
        return problems
    }
}
