/// Items kept by small integer handle, a freed handle reused for the next item, and each
/// item's handle by id: how `IndexedBoard` and ``FoldingBoard`` hold their items, so that their
/// lists hold `Int32`s rather than ids.
struct ItemSlots<Record: HoldingAnItem> {
    /// By handle; nil for a free handle.
    private var records: [Record?] = []
    private var handles: [ItemID: ItemHandle] = [:]
    private var freeHandles: [ItemHandle] = []

    /// How many items are held.
    var count: Int { handles.count }

    func handle(of item: ItemID) -> ItemHandle? { handles[item] }

    /// The record of a handle in use.
    subscript(handle: ItemHandle) -> Record {
        get { records[Int(handle)]! }
        _modify { yield &records[Int(handle)]! }
    }

    /// Holds `record` under a free handle (a freed one first) and returns it.
    mutating func allocate(_ record: Record) -> ItemHandle {
        let handle: ItemHandle
        if let reused = freeHandles.popLast() {
            handle = reused
            records[Int(handle)] = record
        } else {
            handle = ItemHandle(records.count)
            records.append(record)
        }
        handles[record.item.id] = handle
        return handle
    }

    mutating func free(_ handle: ItemHandle) {
        handles[records[Int(handle)]!.item.id] = nil
        records[Int(handle)] = nil
        freeHandles.append(handle)
    }
}

extension ItemSlots: Sendable where Record: Sendable {}

/// A record that `ItemSlots` holds: it knows its item, and so the id it is found by.
protocol HoldingAnItem {
    var item: Item { get }
}
