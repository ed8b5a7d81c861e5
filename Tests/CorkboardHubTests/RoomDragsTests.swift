import CorkboardModel
import CorkboardWire
import Dispatch
import Testing

@testable import CorkboardHub

/// The room's drag part (`RoomDrags`) and its drag batch's ticks (`DragBatch`), driven
/// directly: leases, generations, cool-downs, another node's drag from its first word to its
/// end, and when a batching board's tick is due. No room, no queue, no clock.
@Suite struct RoomDragsTests {
    static let over = DragTarget(collection: "done", index: 0, before: nil)

    @Test func aLeaseIsRefusedWithItsHolderUntilReleased() {
        let drags = RoomDrags()
        let granted = drags.lease(["i1", "i2"], to: "c1")
        let refused = drags.lease(["i2", "i3"], to: "c2")
        #expect(granted == nil && refused == "c1")
        drags.release(heldBy: "c1")
        let after = drags.lease(["i2", "i3"], to: "c2")
        #expect(after == nil)
        #expect(drags.leases.holder(of: "i2") == "c2")
    }

    @Test func everyDragHasAGenerationOfItsOwn() {
        let drags = RoomDrags()
        let generations = (0..<3).map { _ in drags.nextGeneration() }
        #expect(generations == [1, 2, 3])
    }

    @Test func anExpiredHolderWaitsOutTheCoolDown() {
        let drags = RoomDrags()
        drags.expired(["i1"], heldBy: ["client c1"], now: 100, until: 200)
        let during = drags.coolDown(before: ["i1"], by: ["client c1"], now: 150)
        let others = drags.coolDown(before: ["i1"], by: ["client c2"], now: 150)
        let atItsEnd = drags.coolDown(before: ["i1"], by: ["client c1"], now: 200)
        #expect(during == 50 && others == nil && atItsEnd == nil)
    }

    @Test func anotherNodesDragIsShownOnceItsItemsAreKnownAndEndsWithItsLeases() {
        let drags = RoomDrags()
        drags.begin(RemoteDrag(node: "n2", name: "Bo", items: nil, over: nil), ofRemote: "c1-n2")
        let hiddenMove = drags.move(remote: "c1-n2", to: Self.over)
        #expect(!hiddenMove, "not shown before its items are known")
        let lookup = drags.startLookup(ofRemote: "c1-n2")
        #expect(drags.awaits(lookup, ofRemote: "c1-n2"))
        let update = drags.show(["i1"], ofRemote: "c1-n2")
        #expect(update == DragUpdate(client: "c1-n2", name: "Bo", items: ["i1"], over: Self.over))
        #expect(!drags.awaits(lookup, ofRemote: "c1-n2"), "an answer after the items came is not wanted")
        #expect(drags.leases.holder(of: "i1") == "c1-n2", "counted as held here")
        let shownMove = drags.move(remote: "c1-n2", to: Self.over)
        #expect(shownMove)
        let ended = drags.end(remote: "c1-n2")
        #expect(ended?.items == ["i1"])
        #expect(drags.leases.holder(of: "i1") == nil)
        let again = drags.end(remote: "c1-n2")
        #expect(again == nil, "ends once")
    }

    @Test func anotherNodesDragOfColumnsIsShownAtItsStartAndHoldsItsColumnsHere() {
        let drags = RoomDrags()
        let over = DragTarget(collection: nil, index: 1, before: "done")
        drags.begin(RemoteDrag(node: "n2", name: "Bo", items: nil, over: over), ofRemote: "c1-n2")
        let update = drags.show(columns: ["todo"], ofRemote: "c1-n2")
        #expect(update == DragUpdate(client: "c1-n2", name: "Bo", items: [], collections: ["todo"], over: over))
        #expect(drags.leases.holder(ofColumn: "todo") == "c1-n2" && drags.leases.holder(of: "todo") == nil)
        let refused = drags.lease(columns: ["todo"], to: "c2")
        #expect(refused == "c1-n2")
        let ended = drags.end(remote: "c1-n2")
        #expect(ended?.collections == ["todo"])
        #expect(drags.leases.holder(ofColumn: "todo") == nil)
    }

    @Test func aLaterLookupMakesAnEarlierAnswerMootAndAnUnknownDragIsNotMoved() {
        let drags = RoomDrags()
        let unknown = drags.move(remote: "c9", to: Self.over)
        #expect(!unknown)
        drags.begin(RemoteDrag(node: "n2", name: "Bo", items: nil, over: nil), ofRemote: "c1-n2")
        let first = drags.startLookup(ofRemote: "c1-n2")
        let second = drags.startLookup(ofRemote: "c1-n2")
        #expect(!drags.awaits(first, ofRemote: "c1-n2") && drags.awaits(second, ofRemote: "c1-n2"))
        drags.forget(remote: "c1-n2")
        #expect(drags.remoteDrag(of: "c1-n2") == nil)
    }

    @Test func aBatchsTickIsDueOneIntervalAfterTheLastFlushOrAtOnce() {
        let start = DispatchTime(uptimeNanoseconds: 1_000_000_000)
        let interval = DispatchTimeInterval.milliseconds(50)
        let batch = DragBatch(now: start)
        let change = DragChange.cleared(client: "c1", reason: .cancel)
        let first = batch.add(change, skipping: nil, joinCounter: 1, now: start, interval: interval)
        let second = batch.add(change, skipping: nil, joinCounter: 1, now: start, interval: interval)
        #expect(first == start + interval, "one interval after the room opened")
        #expect(second == nil, "a tick is due already")
        batch.tickCame()
        let flushedAt = start + .milliseconds(60)
        let taken = batch.take(now: flushedAt)
        #expect(taken.count == 2)
        let next = batch.add(change, skipping: nil, joinCounter: 1, now: flushedAt + .milliseconds(10), interval: interval)
        #expect(next == flushedAt + interval)
        batch.tickCame()
        _ = batch.take(now: flushedAt + interval)
        let quiet = flushedAt + .seconds(5)
        let afterQuiet = batch.add(change, skipping: nil, joinCounter: 1, now: quiet, interval: interval)
        #expect(afterQuiet == quiet, "at once on a board that was quiet")
    }
}
