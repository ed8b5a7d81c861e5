/// The connections an `IOLoop` watches, by descriptor, and the token each registration hands
/// epoll: the descriptor in the low 32 bits, a serial number in the high ones. A readiness
/// event is taken back to its connection only while that very registration stands, so an
/// event fetched in the same batch as the connection's close (closed by another connection's
/// handler, earlier in the batch) finds nothing, even if the descriptor's number was reused.
///
/// Holding the connection here is also what keeps a connection alive while it waits for its
/// peer. Confinement: the loop's, like everything else it owns.
struct LoopRegistrations<Member: AnyObject> {
    private var slots: [(member: Member, serial: UInt32)?] = []
    private var nextSerial: UInt32 = 0
    private(set) var count = 0

    /// Registers `member` on `descriptor` (not registered now) and returns its token.
    mutating func insert(_ member: Member, descriptor: Int32) -> UInt64 {
        let index = Int(descriptor)
        if index >= slots.count { slots.append(contentsOf: repeatElement(nil, count: index + 1 - slots.count)) }
        precondition(slots[index] == nil, "descriptor \(descriptor) is registered twice")
        nextSerial &+= 1
        slots[index] = (member, nextSerial)
        count += 1
        return UInt64(nextSerial) << 32 | UInt64(UInt32(bitPattern: descriptor))
    }

    /// Forgets the registration `token` names, if it still stands.
    mutating func remove(token: UInt64) {
        guard member(for: token) != nil else { return }
        slots[Self.index(of: token)] = nil
        count -= 1
    }

    /// The member whose registration is `token`: nil once it was removed.
    func member(for token: UInt64) -> Member? {
        let index = Self.index(of: token)
        guard index < slots.count, let slot = slots[index], slot.serial == UInt32(truncatingIfNeeded: token >> 32) else { return nil }
        return slot.member
    }

    private static func index(of token: UInt64) -> Int { Int(UInt32(truncatingIfNeeded: token)) }
}
