/// About how many bytes a history entry holds: the size of its event's JSON plus what its
/// effect keeps to undo it (a delete keeps every removed item, an update the old label and
/// data). What the history's byte budget counts.
///
/// An estimate, not a measurement of the heap: strings and data are counted by their UTF-8
/// and JSON size, and every entry pays a fixed overhead for what it holds besides (the
/// enum payloads, the positions, the array headers). Payload-heavy events, the ones a
/// byte budget is for, are dominated by the part counted exactly.
enum Footprint {
    /// What every entry costs besides its strings: event, effect and motion records.
    static let entryOverhead = 160
    /// What an id, a position or a small field costs besides its bytes.
    static let fieldOverhead = 16

    static func of(_ entry: HistoryEntry) -> Int {
        of(entry.event) + of(entry.effect)
    }

    static func of(_ event: CommittedEvent) -> Int {
        entryOverhead + text(event.opId) + text(event.client) + (event.by.map(text) ?? 0) + of(event.op)
    }

    static func of(_ operation: BoardOperation) -> Int {
        switch operation {
        case .move(let sources, let destination): ids(sources) + of(destination)
        case .insert(let items, let destination): items.reduce(of(destination)) { $0 + of($1) }
        case .delete(let items): ids(items)
        case .updateItem(let item, let label, let data): text(item) + (label.map(text) ?? 0) + of(data)
        case .updateFolder(let item, _): text(item) + fieldOverhead
        case .renameCollection(let collection, let title): text(collection) + text(title)
        case .renameBoard(let title): text(title)
        case .addCollection(let collection, let title, let before): text(collection) + text(title) + (before.map(text) ?? 0)
        case .removeCollection(let collection), .removeCollectionAndItems(let collection): text(collection)
        case .moveCollections(let collections, let before): ids(collections) + (before.map(text) ?? 0)
        case .lock: fieldOverhead
        }
    }

    static func of(_ effect: Effect) -> Int {
        switch effect {
        case .move(let from, _, _): from.count * fieldOverhead
        case .delete(let removed, let lists): removed.reduce(lists.count * fieldOverhead) { $0 + fieldOverhead + of($1.item) }
        case .updateItem(let previousLabel, let previousData): text(previousLabel) + (previousData.map(of) ?? 0)
        case .renameCollection(_, let previousTitle), .renameBoard(let previousTitle): text(previousTitle)
        case .removeCollection(_, _, let title, let removed, let lists):
            text(title) + removed.reduce(lists.count * fieldOverhead) { $0 + fieldOverhead + of($1.item) }
        case .insert(_, _, _, let lists): fieldOverhead * (1 + lists.count)
        case .moveCollections(let from, _): (1 + from.count) * fieldOverhead
        case .updateFolder, .addCollection, .lock: fieldOverhead
        }
    }

    static func of(_ item: Item) -> Int {
        text(item.id) + text(item.label) + (item.data.map(of) ?? 0)
    }

    private static func of(_ destination: Destination) -> Int {
        text(destination.collection) + (destination.before.map(text) ?? 0)
    }

    private static func of(_ change: DataChange) -> Int {
        if case .replace(let data) = change { return of(data) }
        return fieldOverhead
    }

    private static func of(_ data: JSONObject) -> Int {
        var budget = Int.max
        _ = JSONValue.object(data).fits(in: &budget)
        return Int.max - budget
    }

    private static func ids(_ ids: [String]) -> Int {
        ids.reduce(0) { $0 + text($1) }
    }

    private static func text(_ text: String) -> Int {
        fieldOverhead + text.utf8.count
    }
}

extension CommittedEvent {
    /// About how many bytes this event holds (`Footprint`): what a store that keeps events
    /// as values (the memory store) counts against its byte budget.
    public var footprint: Int { Footprint.of(self) }
}
