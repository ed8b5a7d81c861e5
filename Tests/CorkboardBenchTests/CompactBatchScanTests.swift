import CorkboardModel
import CorkboardWire
import Testing

@testable import CorkboardBench

@Suite struct CompactBatchScanTests {
    @Test func readsStartsAndMovesAndPassesOverTheRest() {
        let text =
            #"{"changes":[["c7","Ada",["card-bot"],null],["c9",2,null,"done"],["c4","drop"],["c5","Bo",["doing"],0,null],["c6",1,"todo"],["c8","Cy",["x1","x2"],[3,"x9","b"]]],"type":"drags.compact"}"#
        #expect(
            CompactBatchScan.changes(in: text) == [
                .started(client: "c7", name: "Ada"), .moved(client: "c9", index: 2), .other, .other, .other,
                .started(client: "c8", name: "Cy"),
            ])
    }

    @Test func readsWhatTheServerEncodes() {
        let changes: [DragChange] = [
            .started(DragUpdate(client: "c1", name: "bench-1", items: ["y1"], over: nil)),
            .moved(client: "c1", over: DragTarget(collection: "b", index: 41, before: "y42")),
            .cleared(client: "c2", reason: .drop),
        ]
        #expect(
            CompactBatchScan.changes(in: CompactDrags.text(changes)) == [
                .started(client: "c1", name: "bench-1"), .moved(client: "c1", index: 41), .other,
            ])
    }

    @Test func takesNoOtherShape() {
        for text in [
            #"{"changes":[{"client":"c1","name":"A","type":"drag"}],"type":"drags"}"#, #"{"changes":[["c1",2,null,"b"]"#,
            #"{"type":"drags.compact"}"#, "", #"{"changes":[["c1\"x",2,null,"b"]],"type":"drags.compact"}"#,
        ] {
            let changes = CompactBatchScan.changes(in: text)
            #expect(changes == nil || changes == [.other], "\(text)")
        }
        #expect(CompactBatchScan.changes(in: #"{"changes":[],"type":"drags.compact"}"#) == [])
    }
}
