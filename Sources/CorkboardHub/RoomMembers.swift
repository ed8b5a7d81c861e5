/// A room's members on this node, by the key of their link, and the joins waiting for the room
/// to read the store first (a resume from a seq this node has not seen yet). A part of its
/// `BoardRoom`, held by `let` and, like all of the room's state, used only on the room's queue.
final class RoomMembers: Sequence {
    private var byKey: [MemberKey: Member] = [:]
    private var awaitedJoins: Set<MemberKey> = []

    subscript(key: MemberKey) -> Member? { byKey[key] }
    var count: Int { byKey.count }
    var keys: Dictionary<MemberKey, Member>.Keys { byKey.keys }
    var values: Dictionary<MemberKey, Member>.Values { byKey.values }

    func makeIterator() -> Dictionary<MemberKey, Member>.Iterator { byKey.makeIterator() }

    /// `member` is on the board from now on, as `key`.
    func admit(_ member: Member, as key: MemberKey) { byKey[key] = member }

    /// The member behind `key`, gone; nil if there was none.
    func remove(_ key: MemberKey) -> Member? { byKey.removeValue(forKey: key) }

    /// `key`'s join waits for the room to read the store.
    func awaitJoin(of key: MemberKey) { awaitedJoins.insert(key) }

    /// Whether `key`'s join was waiting (it is not any more): false once its link went meanwhile.
    @discardableResult
    func stopAwaitingJoin(of key: MemberKey) -> Bool { awaitedJoins.remove(key) != nil }

    /// No join waits any more (the board was deleted: nobody is admitted).
    func forgetAwaitedJoins() { awaitedJoins.removeAll() }
}
