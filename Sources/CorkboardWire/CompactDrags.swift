import CorkboardModel

/// The compact form of a `drags` batch (docs/protocol.md#compact-drags), for members whose
/// `hello` asked for `"presence":"compact"`: the same changes as arrays without keys,
///
///     {"changes":[["c7","Ada",["card-bot"],null],["c9",2,null,"done"],["c4","drop"]],"type":"drags.compact"}
///
/// a `drag` as `[client, name, items, over]`, a `drag.over` as `[client, index, before,
/// collection]`, a `drag.cleared` as `[client, reason]`, an `over` as `[index, before,
/// collection]`. A drag of columns, which older readers must not take for one of items, has
/// lengths of its own: its `drag` is `[client, name, collections, index, before]` (index and
/// before null while its `over` is null) and its `drag.over` `[client, index, before]`.
/// Nothing of the long form is left out, and nothing depends on an earlier
/// message: each batch decodes on its own into exactly the long form's changes. A watcher of
/// 100 draggers reads about a quarter of the bytes (the keys were most of a `drag.over`).
public enum CompactDrags {
    /// The message's `type`.
    public static let typeName = "drags.compact"

    /// The batch's text, encoded once for every compact member it goes to.
    public static func text(_ changes: [DragChange]) -> String {
        var json = JSONWriter(capacity: 32 * changes.count + 40)
        json.openObject()
        json.key("changes")
        json.openArray()
        for change in changes { json.writeCompact(change) }
        json.closeArray()
        json.key("type")
        json.string(typeName)
        json.closeObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// Why a compact change cannot be read.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// One compact change as the long form's change it stands for.
    public static func change(_ value: JSONValue) throws(Malformed) -> DragChange {
        guard case .array(let fields) = value, let first = fields.first, case .string(let client) = first else {
            throw Malformed(description: "a compact drag change is an array that starts with the client id")
        }
        switch fields.count {
        case 2:
            guard case .string(let word) = fields[1], let reason = DragClearReason(rawValue: word) else {
                throw Malformed(description: "a compact drag.cleared is [client, reason]")
            }
            return .cleared(client: client, reason: reason)
        case 3:
            guard isNumber(fields[1]) else { throw Malformed(description: "a compact column drag.over is [client, index, before]") }
            return .moved(client: client, over: try columnTarget(fields[1], fields[2]))
        case 5:
            guard case .string(let name) = fields[1], case .array(let columnValues) = fields[2] else {
                throw Malformed(description: "a compact column drag is [client, name, collections, index, before]")
            }
            let collections = try columnValues.map { value throws(Malformed) -> CollectionID in
                guard case .string(let column) = value else { throw Malformed(description: "a compact drag's collections are strings") }
                return column
            }
            let over: DragTarget?
            if case .null = fields[3] {
                guard case .null = fields[4] else { throw Malformed(description: "a compact column drag without index has no before") }
                over = nil
            } else {
                over = try columnTarget(fields[3], fields[4])
            }
            return .started(DragUpdate(client: client, name: name, items: [], collections: collections, over: over))
        case 4 where isNumber(fields[1]):
            return .moved(client: client, over: try target(Array(fields[1...])))
        case 4:
            guard case .string(let name) = fields[1], case .array(let itemValues) = fields[2] else {
                throw Malformed(description: "a compact drag is [client, name, items, over]")
            }
            let items = try itemValues.map { value throws(Malformed) -> ItemID in
                guard case .string(let item) = value else { throw Malformed(description: "a compact drag's items are strings") }
                return item
            }
            let over: DragTarget?
            switch fields[3] {
            case .null: over = nil
            case .array(let target): over = try Self.target(target)
            default: throw Malformed(description: "a compact drag's over is null or [index, before, collection]")
            }
            return .started(DragUpdate(client: client, name: name, items: items, over: over))
        default:
            throw Malformed(description: "a compact drag change has 2 to 5 elements, not \(fields.count)")
        }
    }

    private static func isNumber(_ value: JSONValue) -> Bool {
        if case .number = value { true } else { false }
    }

    /// A placeholder among the columns: `index, before`.
    private static func columnTarget(_ indexValue: JSONValue, _ beforeValue: JSONValue) throws(Malformed) -> DragTarget {
        guard case .number(let number) = indexValue, let index = Int(exactly: number) else {
            throw Malformed(description: "a compact column over's index is a whole number")
        }
        switch beforeValue {
        case .null: return DragTarget(collection: nil, index: index, before: nil)
        case .string(let before): return DragTarget(collection: nil, index: index, before: before)
        default: throw Malformed(description: "a compact column over's before is a column id or null")
        }
    }

    /// `[index, before, collection]`.
    private static func target(_ fields: [JSONValue]) throws(Malformed) -> DragTarget {
        guard fields.count == 3, case .number(let number) = fields[0], let index = Int(exactly: number),
            case .string(let collection) = fields[2]
        else { throw Malformed(description: "a compact over is [index, before, collection]") }
        switch fields[1] {
        case .null: return DragTarget(collection: collection, index: index, before: nil)
        case .string(let before): return DragTarget(collection: collection, index: index, before: before)
        default: throw Malformed(description: "a compact over's before is an item id or null")
        }
    }
}

extension JSONWriter {
    fileprivate mutating func writeCompact(_ change: DragChange) {
        openArray()
        switch change {
        case .started(let update) where update.collections != nil:
            string(update.client)
            string(update.name)
            strings(update.collections!)
            if let over = update.over {
                int(over.index)
                if let before = over.before { string(before) } else { null() }
            } else {
                null()
                null()
            }
        case .started(let update):
            string(update.client)
            string(update.name)
            strings(update.items)
            if let over = update.over { writeCompact(over) } else { null() }
        case .moved(let client, let over) where over.collection == nil:
            string(client)
            int(over.index)
            if let before = over.before { string(before) } else { null() }
        case .moved(let client, let over):
            string(client)
            writeCompactFields(over)
        case .cleared(let client, let reason):
            string(client)
            string(reason.rawValue)
        }
        closeArray()
    }

    private mutating func writeCompact(_ target: DragTarget) {
        openArray()
        writeCompactFields(target)
        closeArray()
    }

    private mutating func writeCompactFields(_ target: DragTarget) {
        int(target.index)
        if let before = target.before { string(before) } else { null() }
        string(target.collection ?? "")
    }
}
