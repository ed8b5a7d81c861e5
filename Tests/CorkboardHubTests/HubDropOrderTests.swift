import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// A drop's `drag.cleared` (`drop`) reaches the others after the `committed` of the holder's
/// move (docs/protocol.md#6-presence-drag-state), in both forms drag changes take: single
/// messages on a small board, `drags` batches on a big audience.
@Suite(.threadsOfTheirOwn) struct HubDropOrderTests {
    enum Form: String, CaseIterable {
        case single, batched

        func configure(_ configuration: inout HubConfiguration) {
            switch self {
            case .single: configuration.dragBatchAudience = nil
            case .batched: HubDragBatchTests.batching(&configuration)
            }
        }
    }

    /// What `watcher` reads until Ada's drag is cleared: each message, and each change of a
    /// batch, in the order it came.
    static func heard(by watcher: BoardTestClient, until ada: BoardTestClient) throws -> [ServerMessage] {
        var heard: [ServerMessage] = []
        for _ in 0..<BoardTestClient.readBound {
            let message = try watcher.nextMessage()
            let unpacked = if case .drags(let changes) = message { changes.map(\.message) } else { [message] }
            heard += unpacked
            if unpacked.contains(where: { $0.dragClear?.client == ada.clientID }) { return heard }
        }
        throw HubTestFailure("\(watcher.name): no clear of \(ada.name)'s drag")
    }

    @Test(arguments: Form.allCases)
    func theDropsCommittedComesBeforeItsClear(form: Form) throws {
        let (fixture, ada, bob) = try HubFixture.pair(form.configure)
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1"]))
        // Placeholder moves still waiting (paced, or for the tick) when the drop comes.
        for index in 0..<3 { try ada.send(.dragOver(collection: "done", index: index)) }
        let opId = try ada.send(.move(sources: ["i1"], destination: Destination(collection: "done", before: "i8")))
        let heard = try Self.heard(by: bob, until: ada)
        let committed = heard.firstIndex { if case .committed(let event) = $0 { event.opId == opId } else { false } }
        let cleared = heard.firstIndex { $0.dragClear.map { $0 == (ada.clientID, .drop) } ?? false }
        #expect(committed != nil && cleared != nil && committed! < cleared!, "\(form): \(heard.map(\.typeName))")
        // Nothing of the drag after its clear.
        #expect(try bob.sync().allSatisfy { $0.dragOverTarget == nil && $0.typeName != "drags" }, "\(form)")
    }
}
