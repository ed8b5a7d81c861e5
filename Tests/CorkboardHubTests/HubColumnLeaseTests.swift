import CorkboardModel
import CorkboardStore
import CorkboardWire
import Dispatch
import HubTestSupport
import TestSupport
import Testing

@testable import CorkboardHub

/// A drag of columns on a hub whose store other nodes share (`SharedLeaseStore`): its columns
/// are asked of the store before it is granted, given back there when it ends (here at its
/// timeout, on the hub's `ManualClock`), and another node's drag of columns whose start came
/// without them is read from the store's leases.
@Suite(.threadsOfTheirOwn) struct HubColumnLeaseTests {
    static func pair() throws -> (HubFixture, SharedLeaseStore, ManualClock, BoardTestClient, BoardTestClient) {
        let store = SharedLeaseStore()
        let clock = ManualClock()
        let fixture = try HubFixture(store: store) {
            $0.clock = clock
            $0.dragTimeout = .seconds(30)
        }
        let (ada, bob) = try fixture.joinAdaAndBob()
        return (fixture, store, clock, ada, bob)
    }

    @Test func aColumnHeldInTheStoreIsBusyAndAGrantedOneIsLeasedThereUntilItsDragEnds() throws {
        let (fixture, store, clock, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        // Held by a member of another node this hub never heard of: the store refuses it.
        store.hold(columns: ["todo"], by: "c9-n2")
        try ada.send(.dragStartColumns(collections: ["todo"]))
        let busy = try #require(try ada.waitFor(type: "rejected").rejection)
        #expect(busy.ref == "drag.start" && busy.code == .busy && busy.holder == "c9-n2")
        #expect(store.held(by: ada.clientID).isEmpty)
        // A card named like a held column is another lease.
        try ada.send(.dragStartColumns(collections: ["done"]))
        #expect(try bob.waitFor(type: "drag").dragUpdate?.collections == ["done"])
        #expect(try ada.sync().isEmpty)
        #expect(store.held(by: ada.clientID) == HeldLeases(columns: ["done"]))

        clock.advance(by: .seconds(30))
        #expect(try bob.waitFor(type: "drag.cleared").dragClear.map { $0 == (ada.clientID, .timeout) } == true)
        #expect(try ada.sync().allSatisfy { $0.dragClear == nil })
        #expect(store.held(by: ada.clientID).isEmpty, "given back in the store at its timeout")
    }

    @Test func anotherNodesDragOfColumnsStartedWithoutThemIsReadFromTheStore() throws {
        let (fixture, store, _, _, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        store.hold(columns: ["todo"], by: "c9-n2")
        // A start too long for one notice: neither items nor columns.
        let start = NodePresence(node: "n2", board: "board", seq: 0, kind: .drag, client: "c9-n2", name: "Cy")
        store.hear(.presence(start.encoded()))
        let update = try #require(try bob.waitFor(type: "drag").dragUpdate)
        #expect(update == DragUpdate(client: "c9-n2", name: "Cy", items: [], collections: ["todo"], over: nil))
        #expect(try bob.reject(.moveCollections(collections: ["todo"], before: nil)).code == .busy)
    }
}
