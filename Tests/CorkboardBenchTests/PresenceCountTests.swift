import CorkboardWire
import Testing

@testable import CorkboardBench

/// How the presence bench counts the `drag` and `drag.over` changes a watcher read from a
/// batch's bytes, in either form (docs/protocol.md#compact-drags): the same count for the same
/// changes, clears left out, brackets and commas inside strings not mistaken for structure.
struct PresenceCountTests {
    static let changes: [DragChange] = [
        .started(DragUpdate(client: "c7", name: #"Ada "[,]" \ Lovelace"#, items: ["i1", "i,2"], over: nil)),
        .moved(client: "c7", over: DragTarget(collection: "done", index: 2, before: nil)),
        .started(DragUpdate(client: "c8", name: "Bob", items: ["i3"], over: DragTarget(collection: "b", index: 0, before: "y1"))),
        .cleared(client: "c7", reason: .drop),
        .moved(client: "c8", over: DragTarget(collection: "b", index: 5, before: "y6")),
    ]

    @Test func bothFormsCountTheSameStartsAndMoves() throws {
        #expect(BoardMember.countUpdates(inCompactBatch: CompactDrags.text(Self.changes)) == 4)
        #expect(BoardMember.countUpdates(inBatch: try WireFormat.text(.drags(Self.changes))) == 4)
    }

    @Test func aBatchOfClearsCountsNothing() {
        #expect(BoardMember.countUpdates(inCompactBatch: CompactDrags.text([.cleared(client: "c1", reason: .left)])) == 0)
    }
}
