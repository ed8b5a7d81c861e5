import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The drag bounds of HostileDragLimitTests, set by `corkboard serve`'s options.
@Suite(.threadsOfTheirOwn) struct ServeDragLimitOptionsTests {
    /// `corkboard serve --max-drag-items 2 --max-drag-seconds 1`: both options are in force.
    @Test func serveTakesTheDragLimitsFromItsOptions() async throws {
        try await offPool {
            let server = try ChildServer(["--max-drag-items", "2", "--max-drag-seconds", "1"])
            let ada = try BoardTestClient(port: server.port, board: "board", name: "Ada")
            try ada.send(.dragStart(items: ["i1", "i2", "i3"]))
            #expect(try ada.waitFor(type: "rejected").rejection?.message == "a drag holds at most 2 items, not 3")
            try ada.send(.dragStart(items: ["i1", "i2"]))
            ada.ws.setReceiveTimeout(10)
            #expect((try ada.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .expired) } == true)
        }
    }
}
