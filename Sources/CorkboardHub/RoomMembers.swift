/// A room's members on this node, by the key of their link, and the joins waiting for the room
/// to read the store first (a resume from a seq this node has not seen yet). A part of its
/// `BoardRoom`, held by `let` and, like all of the room's state, used only on the room's queue.
final class RoomMembers: Sequence {
    private var byKey: [MemberKey: Member] = [:]
    private var awaitedJoins: Set<MemberKey> = []
    /// The links `liveLinks` returned, until the members or one's replay change: every
    /// commit is broadcast to them, and gathering them anew each time cost an array and a
    /// retain and release of every member per commit.
    private var gatheredLiveLinks: [any MemberLink]?

    subscript(key: MemberKey) -> Member? { byKey[key] }
    var count: Int { byKey.count }
    var keys: Dictionary<MemberKey, Member>.Keys { byKey.keys }
    var values: Dictionary<MemberKey, Member>.Values { byKey.values }

    func makeIterator() -> Dictionary<MemberKey, Member>.Iterator { byKey.makeIterator() }

    /// The connections of the members that receive broadcasts (not replaying).
    var liveLinks: [any MemberLink] {
        if let gatheredLiveLinks { return gatheredLiveLinks }
        var links: [any MemberLink] = []
        links.reserveCapacity(byKey.count)
        for member in byKey.values where member.isLive { links.append(member.link) }
        gatheredLiveLinks = links
        return links
    }

    /// `member` is on the board from now on, as `key`.
    func admit(_ member: Member, as key: MemberKey) {
        byKey[key] = member
        gatheredLiveLinks = nil
    }

    /// The member behind `key`, gone; nil if there was none. Its roster entry, which may stay
    /// in the roster until it is compacted, lets go of it (the two hold each other strongly).
    func remove(_ key: MemberKey) -> Member? {
        gatheredLiveLinks = nil
        let member = byKey.removeValue(forKey: key)
        member?.listing?.member = nil
        return member
    }

    /// `member`'s replay is over: it receives broadcasts from now on.
    func turnLive(_ member: Member) {
        member.replayedThrough = nil
        gatheredLiveLinks = nil
    }

    /// `key`'s join waits for the room to read the store.
    func awaitJoin(of key: MemberKey) { awaitedJoins.insert(key) }

    /// Whether `key`'s join was waiting (it is not any more): false once its link went meanwhile.
    @discardableResult
    func stopAwaitingJoin(of key: MemberKey) -> Bool { awaitedJoins.remove(key) != nil }

    /// No join waits any more (the board was deleted: nobody is admitted).
    func forgetAwaitedJoins() { awaitedJoins.removeAll() }
}
