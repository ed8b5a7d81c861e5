import CorkboardModel
import Testing

/// Rule 1 of docs/protocol.md#5-resolution (invalid, and gone for offsets past the window)
/// and rule 2 (locked, then role).
@Suite struct ResolverRule1And2Tests {
    @Test func baseSeqAheadOfTheBoardIsInvalid() throws {
        var engine = try makeEngine("todo: a b c")
        #expect(engine.apply(move("m1", base: 1, ["a"], to: "todo"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(move("m2", base: -1, ["a"], to: "todo"), client: "c1", role: .editor).rejectionCode == .invalid)
    }

    @Test func baseSeqIsRequiredWhereTheSpecSaysSo() throws {
        var engine = try makeEngine("todo: a b c")
        let noBase = OperationRequest(opId: "m1", .move(sources: ["a"], destination: Destination(collection: "todo")))
        #expect(engine.apply(noBase, client: "c1", role: .editor).rejectionCode == .invalid)
        // Lock and collection operations ignore it, even when it is nonsense.
        let lock = OperationRequest(opId: "l1", baseSeq: 99, .lock(locked: true))
        #expect(engine.apply(lock, client: "c1", role: .owner).event?.seq == 1)
    }

    @Test(arguments: [
        ("todo: a b c", [3], 0, nil as String?),
        ("todo: a b c", [-1], 0, nil),
        ("todo: a b c", [0], 4, nil),
        ("todo: a b c", [0], -1, nil),
        ("todo: a b c; done: x", [0], 2, "done"),
        ("todo: a b c", [0], 0, "nowhere"),
    ])
    func offsetsOutOfRangeAreInvalid(layoutText: String, offsets: [Int], toOffset: Int, toCollection: String?) throws {
        var engine = try makeEngine(layoutText)
        let request = moveOffsets("m1", base: 0, "todo", from: offsets, to: toOffset, in: toCollection)
        #expect(engine.apply(request, client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.seq == 0)
    }

    @Test func offsetsOlderThanTheWindowAreGone() throws {
        var engine = try makeEngine("todo: a b c", historyCapacity: 2)
        for item in ["a", "b", "c"] {
            _ = engine.apply(move("m-\(item)", base: engine.seq, [item], to: "todo"), client: "c1", role: .editor)
        }
        #expect(engine.seq == 3)
        #expect(engine.oldestReachableSeq == 1)
        let stale = moveOffsets("old", base: 0, "todo", from: [0], to: 3)
        #expect(engine.apply(stale, client: "c1", role: .editor).rejectionCode == .gone)
        let edge = moveOffsets("edge", base: 1, "todo", from: [0], to: 3)
        #expect(engine.apply(edge, client: "c1", role: .editor).event != nil)
    }

    @Test func insertingAnExistingOrRepeatedIdIsInvalid() throws {
        var engine = try makeEngine("todo: a b c")
        #expect(engine.apply(insert("i1", base: 0, ["b"], to: "todo"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(insert("i2", base: 0, ["n", "n"], to: "todo"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(insert("i3", base: 0, ["n"], to: "todo"), client: "c1", role: .editor).event != nil)
    }

    @Test func idsMustBeOneTo128Bytes() throws {
        var engine = try makeEngine("todo: a")
        let longest = String(repeating: "é", count: 64) // 128 bytes in UTF-8
        let tooLong = longest + "x"
        #expect(engine.apply(insert("i1", base: 0, [""], to: "todo"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(insert("i2", base: 0, [tooLong], to: "todo"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(insert("i3", base: 0, [longest], to: "todo"), client: "c1", role: .editor).event != nil)
        #expect(engine.apply(move("", base: 0, ["a"], to: "todo"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(move("m1", base: 0, [], to: "todo"), client: "c1", role: .editor).rejectionCode == .invalid)
    }

    @Test func updatesMustChangeSomethingAndTextsAreBounded() throws {
        var engine = try makeEngine("todo: a")
        let empty = OperationRequest(opId: "u1", baseSeq: 0, .updateItem(item: "a", label: nil, data: .unchanged))
        #expect(engine.apply(empty, client: "c1", role: .editor).rejectionCode == .invalid)
        let huge = String(repeating: "x", count: Limits.maximumTextBytes + 1)
        let tooLong = OperationRequest(opId: "u2", baseSeq: 0, .updateItem(item: "a", label: huge, data: .unchanged))
        #expect(engine.apply(tooLong, client: "c1", role: .editor).rejectionCode == .invalid)
    }

    @Test func aLockedBoardRejectsEverythingButLock() throws {
        var engine = try makeEngine("todo: a b", locked: true)
        let requests = [
            move("m", base: 0, ["a"], to: "todo"),
            moveOffsets("o", base: 0, "todo", from: [0], to: 2),
            insert("i", base: 0, ["n"], to: "todo"),
            delete("d", base: 0, ["a"]),
            OperationRequest(opId: "u", baseSeq: 0, .updateItem(item: "a", label: "A", data: .unchanged)),
            OperationRequest(opId: "r", .renameCollection(collection: "todo", title: "T")),
            OperationRequest(opId: "ca", .addCollection(collection: "new", title: "N", before: nil)),
            OperationRequest(opId: "cr", .removeCollection(collection: "todo")),
        ]
        for request in requests {
            #expect(engine.apply(request, client: "c1", role: .owner).rejectionCode == .locked, "\(request.opId)")
        }
        // Locked is transient: the same opId goes through once the board is unlocked.
        #expect(engine.apply(OperationRequest(opId: "unlock", .lock(locked: false)), client: "c1", role: .owner).event?.op == .lock(locked: false))
        #expect(engine.apply(requests[0], client: "c1", role: .owner).event?.seq == 2)
    }

    @Test(arguments: [
        (Role.viewer, false, false),
        (Role.editor, true, false),
        (Role.owner, true, true),
    ])
    func rolesDecideWhoMayEditAndLock(role: Role, mayEdit: Bool, mayLock: Bool) throws {
        var engine = try makeEngine("todo: a b")
        let edit = engine.apply(move("m", base: 0, ["a"], to: "todo"), client: "c1", role: role)
        #expect((edit.event != nil) == mayEdit)
        if !mayEdit { #expect(edit.rejectionCode == .forbidden) }
        let lock = engine.apply(OperationRequest(opId: "l", .lock(locked: true)), client: "c1", role: role)
        #expect((lock.event != nil) == mayLock)
        if !mayLock { #expect(lock.rejectionCode == .forbidden) }
    }

    @Test func lockedComesBeforeTheRoleCheck() throws {
        var engine = try makeEngine("todo: a b", locked: true)
        #expect(engine.apply(move("m", base: 0, ["a"], to: "todo"), client: "c1", role: .viewer).rejectionCode == .locked)
        // An editor may not unlock: forbidden, and the board stays locked.
        #expect(engine.apply(OperationRequest(opId: "l", .lock(locked: false)), client: "c1", role: .editor).rejectionCode == .forbidden)
        #expect(engine.isLocked)
    }

    @Test func invalidComesBeforeLocked() throws {
        var engine = try makeEngine("todo: a b", locked: true)
        #expect(engine.apply(move("m", base: 5, ["a"], to: "todo"), client: "c1", role: .owner).rejectionCode == .invalid)
    }
}
