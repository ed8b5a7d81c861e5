/// Where something was in a list (items in a collection, or collections on the board), so it
/// can be put back: the neighbour that followed it and the one before it, leaving out what
/// moved with it, and its index among the rest.
public struct UndoPlace: Sendable, Hashable {
    public var next: String?
    public var previous: String?
    public var index: Int

    public init(next: String?, previous: String?, index: Int) {
        self.next = next
        self.previous = previous
        self.index = index
    }

    /// The place of `all[index]` among `all` without `leaving`.
    init(in all: [String], at index: Int, leaving: Set<String>) {
        next = all[(index + 1)...].first { !leaving.contains($0) }
        previous = all[..<index].last { !leaving.contains($0) }
        self.index = all[..<index].count { !leaving.contains($0) }
    }

    /// The where-it-was rule (docs/protocol.md#undo-and-redo): before the neighbour that followed
    /// it, if that one is in `ids` (the list now, without what is being put back); else right
    /// after the one before it, if that one is; else at the index it had, or the end (nil) when
    /// the list is shorter now.
    public func anchor(in ids: [String]) -> String? {
        if let next, ids.contains(next) { return next }
        if let previous, let at = ids.firstIndex(of: previous) { return at + 1 < ids.count ? ids[at + 1] : nil }
        return index < ids.count ? ids[index] : nil
    }
}
