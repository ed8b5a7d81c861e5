/// The resolution rules of docs/protocol.md#5-resolution, in the order given there. Each
/// rule that refuses throws a `Refusal`; what survives is one resolved operation (or a
/// noop).

struct Refusal: Error {
    var code: RejectionCode
    var message: String

    static func invalid(_ message: String) -> Refusal { Refusal(code: .invalid, message: message) }
    static func gone(_ message: String) -> Refusal { Refusal(code: .gone, message: message) }
}

enum Resolved {
    case change(BoardOperation, adjusted: Bool, leaseHits: [LeaseHit])
    /// A move that would leave the board as it is.
    case noop
}

/// A move in anchor form on its way through rules 3–6. For an offsets move the
/// sources and anchor are the ids read at the base seq.
struct AnchorMove {
    var sources: [ItemID]
    var destination: CollectionID
    var anchor: ItemID?
    /// Already adjusted before rule 3 (duplicate offsets).
    var adjusted: Bool
}

extension BoardEngine {
    func resolve(
        _ request: OperationRequest, client: ClientID, role: Role, leases: LeaseTable
    ) throws(Refusal) -> Resolved {
        let operation = request.operation
        // Rule 1: invalid (and gone for offsets past the window).
        let base = try checkedBaseSeq(request)
        try validateFields(operation)
        var offsetsMove: AnchorMove?
        var columnMove: ColumnMove?
        switch operation {
        case .moveByOffsets(let collection, let fromOffsets, let toOffset, let toCollection):
            offsetsMove = try readOffsets(
                collection: collection, fromOffsets: fromOffsets, toOffset: toOffset,
                toCollection: toCollection ?? collection, asOf: base!)
        case .insert(let items, _):
            if let existing = items.first(where: { current.contains($0.id) }) {
                throw .invalid("item \(existing.id) already exists")
            }
            if Set(items.map(\.id)).count != items.count { throw .invalid("an inserted id appears twice") }
            if let folder = items.first(where: { $0.folder != nil && current.key(of: $0.id) != nil }) {
                throw .invalid("folder \(folder.id) would have the id of a collection")
            }
        case .moveCollections(let collections, let before):
            try checkNamesColumns(collections, before: before)
            columnMove = ColumnMove(collections: collections, anchor: before, adjusted: false)
        case .moveCollectionsByOffsets(let fromOffsets, let toOffset):
            columnMove = try readColumnOffsets(fromOffsets: fromOffsets, toOffset: toOffset, asOf: base!)
        case .addCollection(let collection, _, _):
            if current.key(of: collection) != nil { throw .invalid("collection \(collection) already exists") }
        case .renameCollection(let collection, _), .removeCollection(let collection), .removeCollectionAndItems(let collection):
            if let index = current.collectionIndex(of: collection), current.collections[index].isFolder {
                throw .invalid("\(collection) is a folder: it is renamed and deleted as an item")
            }
        default:
            break
        }
        // Rule 2: locked, then role.
        if case .lock = operation {
            guard role.canLock else { throw Refusal(code: .forbidden, message: "only an owner may lock or unlock") }
        } else {
            if current.locked { throw Refusal(code: .locked, message: "the board is locked") }
            guard role.canEdit else { throw Refusal(code: .forbidden, message: "a \(role.rawValue) may not change the board") }
            // The board's name is the owner's, like its lock and its existence.
            if case .renameBoard = operation, !role.canLock {
                throw Refusal(code: .forbidden, message: "only an owner may rename a board")
            }
        }
        // The server's limit on the board's size, once the caller may insert at all.
        if case .insert(let items, _) = operation, let limit = maximumItems, current.itemCount + items.count > limit {
            throw .invalid("the board holds at most \(limit) items (it has \(current.itemCount))")
        }
        if case .addCollection = operation, let limit = maximumCollections, current.collections.count >= limit {
            throw .invalid("the board holds at most \(limit) collections")
        }
        // Rules 3–6, per operation.
        switch operation {
        case .move(let sources, let destination):
            let move = AnchorMove(
                sources: sources, destination: destination.collection, anchor: destination.before, adjusted: false)
            return try resolveMove(move, base: base!, client: client, leases: leases)
        case .moveByOffsets:
            return try resolveMove(offsetsMove!, base: base!, client: client, leases: leases)
        case .moveCollections, .moveCollectionsByOffsets:
            return try resolveColumnMove(columnMove!, base: base!, client: client, leases: leases)
        case .insert(let items, let destination):
            guard let target = current.collectionIndex(of: destination.collection) else {
                throw .gone("collection \(destination.collection) no longer exists")
            }
            try checkEntering(target, levels: 0)
            let (before, adjusted) = resolveAnchor(destination.before, in: target, sources: [], base: base!)
            let resolved = Destination(collection: destination.collection, before: before)
            return .change(.insert(items: items, destination: resolved), adjusted: adjusted, leaseHits: [])
        case .delete(let items):
            return try resolveDelete(items, leases: leases)
        case .updateItem(let item, _, _):
            guard current.contains(item) else { throw .gone("item \(item) no longer exists") }
            return .change(resolvedForm(operation), adjusted: false, leaseHits: [])
        case .updateFolder(let item, _):
            guard let handle = current.handle(of: item) else { throw .gone("item \(item) no longer exists") }
            guard current.record(handle).item.folder != nil else { throw .invalid("item \(item) is not a folder") }
            return .change(resolvedForm(operation), adjusted: false, leaseHits: [])
        case .renameCollection(let collection, _):
            guard current.key(of: collection) != nil else { throw .gone("collection \(collection) no longer exists") }
            return .change(resolvedForm(operation), adjusted: false, leaseHits: [])
        case .addCollection(let collection, let title, let before):
            // A vanished anchor collection falls back to the end, as rule 5 does for items.
            let anchorExists = before.map { current.collectionIndex(of: $0).map { $0 < current.columnCount } ?? false } ?? true
            let resolved = BoardOperation.addCollection(collection: collection, title: title, before: anchorExists ? before : nil)
            return .change(resolved, adjusted: !anchorExists, leaseHits: [])
        case .removeCollection(let collection):
            guard let index = current.collectionIndex(of: collection) else {
                throw .gone("collection \(collection) no longer exists")
            }
            guard current.collections[index].order.isEmpty else { throw .invalid("collection \(collection) is not empty") }
            return .change(resolvedForm(operation), adjusted: false, leaseHits: [])
        case .removeCollectionAndItems(let collection):
            guard let index = current.collectionIndex(of: collection) else {
                throw .gone("collection \(collection) no longer exists")
            }
            // Like a delete of what it holds: never busy, and the drags it hits are cleared.
            var hit: [ItemID] = []
            if !leases.holders.isEmpty {
                for handle in current.collections[index].order {
                    hit.append(current.itemID(handle))
                    if current.record(handle).item.folder != nil { hit += current.contents(of: handle).items.map(current.itemID) }
                }
            }
            let leaseHits = hit.compactMap { item in leases.holder(of: item).map { LeaseHit(item: item, holder: $0) } }
            return .change(resolvedForm(operation), adjusted: false, leaseHits: leaseHits)
        case .renameBoard, .lock:
            return .change(resolvedForm(operation), adjusted: false, leaseHits: [])
        }
    }

    // MARK: Rule 1

    /// The base seq where the operation needs one; nil where it is ignored
    /// (docs/protocol.md#4-operations).
    private func checkedBaseSeq(_ request: OperationRequest) throws(Refusal) -> Int? {
        guard request.operation.needsBaseSeq else { return nil }
        guard let base = request.baseSeq else { throw .invalid("baseSeq is required") }
        guard base >= 0 else { throw .invalid("baseSeq must not be negative") }
        guard base <= seq else { throw .invalid("baseSeq \(base) is ahead of the board (seq \(seq))") }
        return base
    }

    private func validateFields(_ operation: RequestedOperation) throws(Refusal) {
        func checkID(_ id: String, _ what: String) throws(Refusal) {
            guard Limits.isValidID(id) else { throw .invalid("\(what) id must be \(Limits.idRule)") }
        }
        func checkText(_ text: String, _ what: String) throws(Refusal) {
            if let problem = Limits.textProblem(text) { throw .invalid("\(what) \(problem)") }
        }
        func checkData(_ data: JSONObject?, of item: ItemID) throws(Refusal) {
            if let problem = Limits.dataProblem(data, of: item) { throw .invalid(problem) }
        }
        switch operation {
        case .move(let sources, let destination):
            guard !sources.isEmpty else { throw .invalid("a move needs at least one source") }
            for source in sources { try checkID(source, "source") }
            try checkID(destination.collection, "collection")
            if let before = destination.before { try checkID(before, "before") }
        case .moveByOffsets(let collection, let fromOffsets, _, let toCollection):
            guard !fromOffsets.isEmpty else { throw .invalid("a move needs at least one offset") }
            try checkID(collection, "collection")
            if let toCollection { try checkID(toCollection, "toCollection") }
        case .insert(let items, let destination):
            guard !items.isEmpty else { throw .invalid("an insert needs at least one item") }
            for item in items {
                try checkID(item.id, "item")
                try checkText(item.label, "label")
                try checkData(item.data, of: item.id)
            }
            try checkID(destination.collection, "collection")
            if let before = destination.before { try checkID(before, "before") }
        case .delete(let items):
            guard !items.isEmpty else { throw .invalid("a delete needs at least one item") }
            for item in items { try checkID(item, "item") }
        case .updateItem(let item, let label, let data):
            try checkID(item, "item")
            if let label { try checkText(label, "label") }
            if case .replace(let object) = data { try checkData(object, of: item) }
            if label == nil, data == .unchanged { throw .invalid("an update needs a label or data") }
        case .updateFolder(let item, _):
            try checkID(item, "item")
        case .renameCollection(let collection, let title):
            try checkID(collection, "collection")
            try checkText(title, "title")
        case .renameBoard(let title):
            try checkText(title, "title")
        case .addCollection(let collection, let title, let before):
            try checkID(collection, "collection")
            try checkText(title, "title")
            if let before { try checkID(before, "before") }
        case .removeCollection(let collection), .removeCollectionAndItems(let collection):
            try checkID(collection, "collection")
        case .moveCollections(let collections, let before):
            guard !collections.isEmpty else { throw .invalid("a collection move needs at least one collection") }
            for collection in collections { try checkID(collection, "collection") }
            if let before { try checkID(before, "before") }
        case .moveCollectionsByOffsets(let fromOffsets, _):
            guard !fromOffsets.isEmpty else { throw .invalid("a collection move needs at least one offset") }
        case .lock:
            break
        }
    }

    /// Reads an offsets move against the board as of `base`, exactly as
    /// `Array.move(fromOffsets:toOffset:)` reads its arguments: the sources are the
    /// items at the offsets in ascending order, the anchor is the item at `toOffset` in
    /// the destination list (`toOffset == count`: the end), sources included.
    private func readOffsets(
        collection: CollectionID, fromOffsets: [Int], toOffset: Int, toCollection: CollectionID, asOf base: Int
    ) throws(Refusal) -> AnchorMove {
        guard history.reaches(base) else { throw .gone("baseSeq \(base) is older than the kept history") }
        guard let source = pastCollection(collection, asOf: base) else {
            throw .invalid("there was no collection \(collection) at seq \(base)")
        }
        guard let target = collection == toCollection ? source : pastCollection(toCollection, asOf: base) else {
            throw .invalid("there was no collection \(toCollection) at seq \(base)")
        }
        let offsets = Array(Set(fromOffsets)).sorted()
        guard offsets.first! >= 0, offsets.last! < source.count else {
            throw .invalid("fromOffsets out of range 0..<\(source.count)")
        }
        guard toOffset >= 0, toOffset <= target.count else { throw .invalid("toOffset out of range 0...\(target.count)") }
        // One walk through the history follows the sources and the anchor together.
        var tracked = offsets.map { Position(key: source.key, index: $0) }
        if toOffset < target.count { tracked.append(Position(key: target.key, index: toOffset)) }
        var items = pastItems(at: tracked, asOf: base).map(\.id)
        let anchor = toOffset < target.count ? items.removeLast() : nil
        let sources = items
        return AnchorMove(
            sources: sources, destination: toCollection, anchor: anchor, adjusted: offsets.count != fromOffsets.count)
    }

    // MARK: Rules 3–6

    private func resolveMove(
        _ move: AnchorMove, base: Int, client: ClientID, leases: LeaseTable
    ) throws(Refusal) -> Resolved {
        // Rule 3: drop duplicates (keeping the first) and ids not on the board.
        var survivors: [ItemID] = []
        var handles: [ItemHandle] = []
        survivors.reserveCapacity(move.sources.count)
        handles.reserveCapacity(move.sources.count)
        for source in move.sources {
            guard let handle = current.handle(of: source), !handles.contains(handle) else { continue }
            survivors.append(source)
            handles.append(handle)
        }
        guard !survivors.isEmpty else { throw .gone("none of the items to move exists any more") }
        if !leases.holders.isEmpty, let (item, holder) = heldByOther(handles, client: client, leases: leases) {
            throw Refusal(code: .busy, message: "item \(item) is being dragged by \(holder)")
        }
        // Rule 4.
        guard let target = current.collectionIndex(of: move.destination) else {
            throw .gone("collection \(move.destination) no longer exists")
        }
        try checkFolders(moving: handles, into: target)
        // Rule 5.
        let (before, anchorAdjusted) = resolveAnchor(move.anchor, in: target, sources: handles, base: base)
        if isInPlace(handles, in: target, before: before) { return .noop }
        let adjusted = move.adjusted || anchorAdjusted || survivors.count != move.sources.count
        return .change(
            .move(sources: survivors, destination: Destination(collection: move.destination, before: before)),
            adjusted: adjusted, leaseHits: [])
    }

    /// Rule 5: where the anchor lands, and whether that differs from what was asked.
    /// The result is nil (the end) or an item of the destination that is not a source.
    func resolveAnchor(
        _ anchor: ItemID?, in target: Int, sources: [ItemHandle], base: Int
    ) -> (before: ItemID?, adjusted: Bool) {
        guard let anchor else { return (nil, false) }
        let destination = current.collections[target]
        if let handle = current.handle(of: anchor), current.record(handle).collection == destination.key {
            guard sources.contains(handle) else { return (anchor, false) }
            // Moving items before one of themselves gathers them in place.
            let order = destination.order
            var index = order.firstIndex(of: handle)! + 1
            while index < order.count, sources.contains(order[index]) { index += 1 }
            return (index < order.count ? current.itemID(order[index]) : nil, false)
        }
        // The anchor left the destination (moved away or deleted): take the next item
        // after it in the destination as the client saw it at `base` that still is a
        // non-source item of the destination.
        guard history.reaches(base), let pastOrder = pastOrder(of: destination.id, asOf: base),
            let pastIndex = pastOrder.firstIndex(of: anchor)
        else { return (nil, true) }
        for candidate in pastOrder[(pastIndex + 1)...] {
            if let handle = current.handle(of: candidate), current.record(handle).collection == destination.key,
                !sources.contains(handle)
            {
                return (candidate, true)
            }
        }
        return (nil, true)
    }

    /// True when the sources already sit, in order, right before the anchor (or at the
    /// end of the destination): the move would change nothing.
    private func isInPlace(_ sources: [ItemHandle], in target: Int, before: ItemID?) -> Bool {
        let order = current.collections[target].order
        guard let first = order.firstIndex(of: sources[0]), first + sources.count <= order.count else { return false }
        for (offset, source) in sources.enumerated() where order[first + offset] != source { return false }
        let next = first + sources.count
        guard let before else { return next == order.count }
        return next < order.count && order[next] == current.handle(of: before)
    }

    private func resolveDelete(_ items: [ItemID], leases: LeaseTable) throws(Refusal) -> Resolved {
        var survivors: [ItemID] = []
        var seen = Set<ItemID>()
        for item in items where seen.insert(item).inserted && current.contains(item) {
            survivors.append(item)
        }
        guard !survivors.isEmpty else { throw .gone("none of the items to delete exists any more") }
        // Delete is never busy: it wins, and the drags it hits (inside deleted folders too)
        // are reported for clearing.
        var hit = survivors
        if !leases.holders.isEmpty {
            for item in survivors {
                let handle = current.handle(of: item)!
                guard current.record(handle).item.folder != nil else { continue }
                hit += current.contents(of: handle).items.map(current.itemID).filter { seen.insert($0).inserted }
            }
        }
        let leaseHits = hit.compactMap { item in leases.holder(of: item).map { LeaseHit(item: item, holder: $0) } }
        return .change(.delete(items: survivors), adjusted: survivors.count != items.count, leaseHits: leaseHits)
    }

    /// The resolved form of an operation that resolution does not reshape.
    private func resolvedForm(_ operation: RequestedOperation) -> BoardOperation {
        switch operation {
        case .move(let sources, let destination): .move(sources: sources, destination: destination)
        case .insert(let items, let destination): .insert(items: items, destination: destination)
        case .delete(let items): .delete(items: items)
        case .updateItem(let item, let label, let data): .updateItem(item: item, label: label, data: data)
        case .updateFolder(let item, let accepts): .updateFolder(item: item, accepts: accepts)
        case .renameCollection(let collection, let title): .renameCollection(collection: collection, title: title)
        case .addCollection(let collection, let title, let before):
            .addCollection(collection: collection, title: title, before: before)
        case .removeCollection(let collection): .removeCollection(collection: collection)
        case .removeCollectionAndItems(let collection): .removeCollectionAndItems(collection: collection)
        case .renameBoard(let title): .renameBoard(title: title)
        case .lock(let locked): .lock(locked: locked)
        case .moveCollections(let collections, let before): .moveCollections(collections: collections, before: before)
        case .moveByOffsets, .moveCollectionsByOffsets: preconditionFailure("an offsets move is resolved into anchor form first")
        }
    }

    // MARK: Folders

    /// Items may enter the list at `index` (reaching `levels` below themselves): a folder's
    /// list must accept drops, and nothing may sit deeper than `Limits.maximumFolderDepth`.
    private func checkEntering(_ index: Int, levels: Int) throws(Refusal) {
        let enclosing = current.enclosingFolders(ofList: index)
        guard let folder = enclosing.first else { return }
        guard current.record(folder).item.folder!.accepts else {
            throw .invalid("folder \(current.itemID(folder)) does not accept drops")
        }
        let depth = enclosing.count + 1 + levels
        guard depth <= Limits.maximumFolderDepth else {
            throw .invalid("items would sit \(depth) levels deep; folders nest at most \(Limits.maximumFolderDepth) levels")
        }
    }

    /// A move's folder rules: no folder into itself or a folder inside it, and what enters a
    /// folder from elsewhere obeys `checkEntering`.
    private func checkFolders(moving sources: [ItemHandle], into target: Int) throws(Refusal) {
        let enclosing = current.enclosingFolders(ofList: target)
        guard !enclosing.isEmpty else { return }
        if let folder = enclosing.first(where: sources.contains) {
            throw .invalid("folder \(current.itemID(folder)) cannot go inside itself")
        }
        let key = current.collections[target].key
        let entering = sources.filter { current.record($0).collection != key }
        guard !entering.isEmpty else { return }
        let levels = entering.map { current.record($0).item.folder == nil ? 0 : current.contents(of: $0).levels }.max()!
        try checkEntering(target, levels: levels)
    }

    /// The first of the items (or of what is inside them, or a folder around them) that
    /// another client is dragging: a lease on a folder covers its contents.
    func heldByOther(_ items: [ItemHandle], client: ClientID, leases: LeaseTable) -> (ItemID, ClientID)? {
        for handle in items {
            var covering = [handle] + current.enclosingFolders(ofList: current.collectionIndex(ofKey: current.record(handle).collection)!)
            if current.record(handle).item.folder != nil { covering += current.contents(of: handle).items }
            for item in covering {
                if let holder = leases.holder(of: current.itemID(item)), holder != client { return (current.itemID(handle), holder) }
            }
        }
        return nil
    }
}
