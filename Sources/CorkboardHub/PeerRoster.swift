import CorkboardWire

/// The peers of a room in join order (observers are not peers), so that the latest ones for
/// a `welcome` and a `peers.list` page cost their length, not the board's size. Leaving
/// marks the member and the array is compacted once half of it is gone: O(1) amortized.
/// Confined to its room's queue like the member table.
struct PeerRoster {
    private var entries: [Member] = []
    private var departed = 0

    /// Peers on the board now.
    private(set) var count = 0

    mutating func add(_ member: Member) {
        entries.append(member)
        count += 1
    }

    mutating func remove(_ member: Member) {
        guard !member.departed else { return }
        member.departed = true
        count -= 1
        departed += 1
        if departed > entries.count / 2 {
            entries.removeAll { $0.departed }
            departed = 0
        }
    }

    /// Up to `limit` peers, the latest to join first, skipping those `excluded` says.
    func latest(_ limit: Int, excluding excluded: (Member) -> Bool) -> [Member] {
        var found: [Member] = []
        for member in entries.reversed() where found.count < limit {
            if !member.departed && !excluded(member) { found.append(member) }
        }
        return found
    }

    /// Up to `limit` peers that joined after the cursor `after` (a join order), oldest first,
    /// and the cursor of the next page (nil: this is the last).
    func page(after: Int?, limit: Int) -> (peers: [Member], next: Int?) {
        // Join orders grow along the array: the first entry past the cursor is found by halving.
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].order <= (after ?? 0) { low = middle + 1 } else { high = middle }
        }
        var peers: [Member] = []
        var index = low
        while index < entries.count && peers.count < limit {
            if !entries[index].departed { peers.append(entries[index]) }
            index += 1
        }
        let more = entries[index...].contains { !$0.departed }
        return (peers, more ? peers.last?.order : nil)
    }
}
