import CorkboardModel
import Testing

/// An item's `data` nests at most `Limits.maximumDataDepth` levels: a `welcome`, a page of
/// events and an archive carry it six levels down, so deeper data would make texts no
/// client (nor `corkboard import`) reads back within `Limits.maximumJSONDepth`.
@Suite struct DataDepthLimitTests {
    /// An object holding `levels - 1` nested arrays: `levels` deep in all.
    private func data(nesting levels: Int) -> JSONObject {
        var value: JSONValue = .number(1)
        for _ in 1..<levels { value = .array([value]) }
        return ["v": value]
    }

    @Test func dataUpToTheDepthIsKeptAndDeeperRejected() throws {
        #expect(Limits.maximumDataDepth == 506)
        #expect(Limits.dataProblem(data(nesting: 506), of: "a") == nil)
        #expect(Limits.dataProblem(data(nesting: 507), of: "a") == "data of item a nests deeper than 506 levels")
        var engine = try makeEngine("todo: a")
        let deep = OperationRequest(opId: "u1", baseSeq: 0, .updateItem(item: "a", label: nil, data: .replace(data(nesting: 507))))
        let refused = engine.apply(deep, client: "c", role: .editor)
        #expect(refused.rejection?.message == "data of item a nests deeper than 506 levels")
        let kept = OperationRequest(opId: "u2", baseSeq: 0, .updateItem(item: "a", label: nil, data: .replace(data(nesting: 506))))
        #expect(engine.apply(kept, client: "c", role: .editor).event != nil)
    }

    @Test func theServersBoardLimitsNameWhatIsPastThem() {
        let board = Board(
            id: "b", title: "B",
            collections: [
                BoardCollection(id: "c1", title: "C1", items: [Item(id: "a", label: "A"), Item(id: "d", label: "D", data: data(nesting: 600))]),
                BoardCollection(id: "c2", title: "C2", items: [Item(id: "e", label: "E")]),
            ])
        #expect(
            BoardSizeLimits(maximumItems: 2, maximumCollections: 1).problems(of: board) == [
                "collections: a board holds at most 2 items; this one has 3",
                "collections: a board holds at most 1 collections; this one has 2",
                "collections[0].items[1].data: data of item d nests deeper than 506 levels",
            ])
        #expect(
            BoardSizeLimits(maximumItems: 3, maximumCollections: nil).problems(of: board) == [
                "collections[0].items[1].data: data of item d nests deeper than 506 levels"
            ])
    }
}
