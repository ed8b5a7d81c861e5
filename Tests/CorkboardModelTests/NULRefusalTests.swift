import CorkboardModel
import Testing

/// No string the server keeps holds U+0000 (`Limits.textProblem`): PostgreSQL's `text` and
/// `jsonb` cannot store it, so an operation carrying one failed in the store on every try,
/// and took the other members' operations batched with it down too. It is refused `invalid`
/// at the edge instead, on every store, and the board is unchanged.
@Suite struct NULRefusalTests {
    static let nul = "a\u{0}b"

    @Test(arguments: [
        ("label", OperationRequest(opId: "o", baseSeq: 0, .updateItem(item: "a", label: nul, data: .unchanged)), "label holds a NUL character"),
        (
            "data value", OperationRequest(opId: "o", baseSeq: 0, .updateItem(item: "a", label: nil, data: .replace(["k": .array([.string(nul)])]))),
            "data of item a holds a NUL character"
        ),
        (
            "data key", OperationRequest(opId: "o", baseSeq: 0, .updateItem(item: "a", label: nil, data: .replace(["k": .object([nul: .null])]))),
            "data of item a holds a NUL character"
        ),
        (
            "inserted label",
            OperationRequest(opId: "o", baseSeq: 0, .insert(items: [Item(id: "n", label: nul)], destination: Destination(collection: "todo"))),
            "label holds a NUL character"
        ),
        (
            "item id",
            OperationRequest(opId: "o", baseSeq: 0, .insert(items: [Item(id: nul, label: "n")], destination: Destination(collection: "todo"))),
            "item id must be \(Limits.idRule)"
        ),
        ("collection title", OperationRequest(opId: "o", .addCollection(collection: "c", title: nul, before: nil)), "title holds a NUL character"),
        ("opId", OperationRequest(opId: nul, baseSeq: 0, .updateItem(item: "a", label: "x", data: .unchanged)), "opId must be \(Limits.idRule)"),
    ])
    func aNULAnywhereIsRefusedInvalid(field: String, request: OperationRequest, message: String) throws {
        var engine = try makeEngine("todo: a")
        let before = engine.board
        let outcome = engine.apply(request, client: "c", role: .editor)
        #expect(outcome.rejectionCode == .invalid, "\(field)")
        #expect(outcome.rejection?.message == message, "\(field)")
        #expect(engine.board == before)
    }

    @Test func namesAndImportedBoardsAreHeldToTheSameRule() {
        #expect(Limits.nameProblem("Ada\u{0}") == "holds a NUL character")
        #expect(Limits.nameProblem("Ada") == nil)
        let board = Board(id: "b", title: Self.nul, collections: [BoardCollection(id: "todo", title: "t", items: [Item(id: "i", label: Self.nul)])])
        #expect(
            board.validationProblems() == [
                "title: board title holds a NUL character", "collections[0].items[0].label: label of item i holds a NUL character",
            ])
        // What SQLite stored before 0.25 still loads.
        #expect(board.validationProblems(acceptingStoredIDs: true).isEmpty)
        #expect(Limits.dataProblem(["k": .string(Self.nul)], of: "i") == "data of item i holds a NUL character")
    }
}
