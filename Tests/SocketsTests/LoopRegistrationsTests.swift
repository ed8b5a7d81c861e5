import Testing

@testable import Sockets

/// The loop's table of connections by descriptor: an event is taken back to its connection
/// only while that very registration stands.
struct LoopRegistrationsTests {
    private final class Member {}

    @Test func aRegisteredMemberIsFoundByItsTokenUntilRemoved() throws {
        var registrations = LoopRegistrations<Member>()
        let member = Member()
        let token = registrations.insert(member, descriptor: 7)
        #expect(registrations.member(for: token) === member)
        #expect(registrations.count == 1)

        registrations.remove(token: token)
        #expect(registrations.member(for: token) == nil)
        #expect(registrations.count == 0)
        // A second removal (a stale token) changes nothing.
        registrations.remove(token: token)
        #expect(registrations.count == 0)
    }

    @Test func aReusedDescriptorDoesNotAnswerTheOldToken() throws {
        var registrations = LoopRegistrations<Member>()
        let first = Member()
        let second = Member()
        let old = registrations.insert(first, descriptor: 12)
        registrations.remove(token: old)
        let new = registrations.insert(second, descriptor: 12)
        #expect(old != new)
        #expect(registrations.member(for: old) == nil, "an event fetched for the closed connection finds nothing")
        #expect(registrations.member(for: new) === second)
        // Removing by the stale token leaves the new registration alone.
        registrations.remove(token: old)
        #expect(registrations.member(for: new) === second)
        #expect(registrations.count == 1)
    }

    @Test func descriptorsAreKeptApart() throws {
        var registrations = LoopRegistrations<Member>()
        let members = (0..<5).map { _ in Member() }
        let tokens = members.enumerated().map { registrations.insert($0.element, descriptor: Int32(3 + $0.offset * 2)) }
        for (member, token) in zip(members, tokens) { #expect(registrations.member(for: token) === member) }
        // A descriptor never registered, past and within the table.
        #expect(registrations.member(for: 40) == nil)
        #expect(registrations.member(for: 4) == nil)
    }
}
