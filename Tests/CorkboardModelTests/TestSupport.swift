import CorkboardModel
import Foundation

/// Boards written as text keep the tables readable: `"todo: a b c; done: x"` is a
/// board with collections `todo` (items a, b, c) and `done` (item x), labels = ids.
/// Folders: `f/` is a folder item `f` (`f/!` one that does not accept drops), and the part
/// `/f: y z` its contents.
func makeBoard(_ layout: String, locked: Bool = false) -> Board {
    var collections: [BoardCollection] = []
    var folders: [ItemID: [Item]] = [:]
    for part in layout.split(separator: ";") {
        let halves = part.split(separator: ":", maxSplits: 1)
        let id = halves[0].trimmingCharacters(in: .whitespaces)
        let items =
            halves.count > 1
            ? halves[1].split(separator: " ").map { token -> Item in
                guard let slash = token.firstIndex(of: "/") else { return Item(id: String(token), label: String(token)) }
                let id = String(token[..<slash])
                return Item(id: id, label: id, folder: Folder(accepts: !token.hasSuffix("!")))
            } : []
        if id.hasPrefix("/") {
            folders[String(id.dropFirst())] = items
        } else {
            collections.append(BoardCollection(id: id, title: id.uppercased(), items: items))
        }
    }
    for collection in collections { for item in collection.items where item.folder != nil { folders[item.id, default: []] += [] } }
    for (_, items) in folders { for item in items where item.folder != nil { folders[item.id, default: []] += [] } }
    return Board(id: "b", title: "Test", locked: locked, collections: collections, folders: folders)
}

/// The inverse of `makeBoard`: the layout of a board as text.
func layout(_ board: Board) -> String {
    func token(_ item: Item) -> String {
        guard let folder = item.folder else { return item.id }
        return item.id + (folder.accepts ? "/" : "/!")
    }
    let columns = board.collections.map { ([$0.id + ":"] + $0.items.map(token)).joined(separator: " ") }
    let folders = board.folders.sorted { $0.key < $1.key }.map { (["/" + $0.key + ":"] + $0.value.map(token)).joined(separator: " ") }
    return (columns + folders).joined(separator: "; ")
}

func makeEngine(_ layoutText: String, locked: Bool = false, historyCapacity: Int = 1_000) throws -> BoardEngine {
    try BoardEngine(board: makeBoard(layoutText, locked: locked), historyCapacity: historyCapacity)
}

extension BoardEngine {
    var layoutText: String { layout(board) }
}

/// Request shorthands for the tables.
func move(
    _ opId: String, base: Int, _ sources: [String], to collection: String, before: String? = nil
) -> OperationRequest {
    OperationRequest(opId: opId, baseSeq: base, .move(sources: sources, destination: Destination(collection: collection, before: before)))
}

func moveOffsets(
    _ opId: String, base: Int, _ collection: String, from offsets: [Int], to toOffset: Int, in toCollection: String? = nil
) -> OperationRequest {
    OperationRequest(
        opId: opId, baseSeq: base,
        .moveByOffsets(collection: collection, fromOffsets: offsets, toOffset: toOffset, toCollection: toCollection))
}

func delete(_ opId: String, base: Int, _ items: [String]) -> OperationRequest {
    OperationRequest(opId: opId, baseSeq: base, .delete(items: items))
}

func insert(_ opId: String, base: Int, _ ids: [String], to collection: String, before: String? = nil) -> OperationRequest {
    OperationRequest(
        opId: opId, baseSeq: base,
        .insert(items: ids.map { Item(id: $0, label: $0) }, destination: Destination(collection: collection, before: before)))
}

extension Outcome {
    /// The committed event, if this outcome is a new commit.
    var event: CommittedEvent? {
        if case .committed(let commit) = self { return commit.event }
        return nil
    }

    var rejection: Rejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }

    var rejectionCode: RejectionCode? { rejection?.code }

    var isNoop: Bool {
        if case .noop = self { return true }
        return false
    }
}

/// The documented semantics of `MutableCollection.move(fromOffsets:toOffset:)`, which
/// Swift ships only in SwiftUI (not on Linux): remove the elements at the offsets,
/// keeping their order, then insert them at `toOffset` minus the number of removed
/// offsets below it.
func referenceMove<Element>(_ array: [Element], fromOffsets offsets: Set<Int>, toOffset: Int) -> [Element] {
    let moving = offsets.sorted().map { array[$0] }
    var rest = array.indices.filter { !offsets.contains($0) }.map { array[$0] }
    rest.insert(contentsOf: moving, at: toOffset - offsets.filter { $0 < toOffset }.count)
    return rest
}
