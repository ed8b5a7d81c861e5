import Testing

@testable import CorkboardServer

/// The pieces of the admin API that need no server: its listing query (the list conventions:
/// `limit` 1…1000, an opaque `cursor`, nothing else, nothing twice) and the drain's state (a
/// drain taken back and asked again is a new one, so the first one's delayed sending away of
/// members does not happen on its behalf).
@Suite struct AdminQueryAndDrainStateTests {
    @Test func aCursorNamesTheIdItFollowsWhateverItsCharacters() throws {
        for id in ["demo", "a b/c?d=e&f", "é", "x+y/z=="] {
            let cursor = AdminPageQuery.cursor(after: id)
            #expect(!cursor.contains { "+/=&?".contains($0) }, "\(cursor) goes in a query as it is")
            let query = try AdminPageQuery.parse([("cursor", cursor)]).get()
            #expect(query.after == id)
            #expect(query.limit == 100)
        }
    }

    @Test func theLimitIsOneToAThousandAndNothingElseIsTaken() throws {
        #expect(try AdminPageQuery.parse([("limit", "1")]).get().limit == 1)
        #expect(try AdminPageQuery.parse([("limit", "1000")]).get().limit == 1000)
        #expect(try AdminPageQuery.parse([]).get() == AdminPageQuery())
        let refused: [[(name: String, value: String)]] = [
            [("limit", "0")], [("limit", "1001")], [("limit", "ten")], [("limit", "5"), ("limit", "5")],
            [("cursor", "")], [("cursor", "!!")], [("after", "demo")],
        ]
        for pairs in refused {
            #expect(throws: AdminQueryError.self, "\(pairs)") { try AdminPageQuery.parse(pairs).get() }
        }
    }

    @Test func aDrainTakenBackAndAskedAgainIsANewOne() {
        let readiness = Readiness()
        #expect(!readiness.isDraining)
        let first = readiness.askDrain()
        #expect(first != nil && readiness.isDraining && !readiness.isShuttingDown)
        #expect(readiness.askDrain() == nil, "asking again changes nothing")
        #expect(readiness.isInForce(drain: first ?? 0))
        #expect(readiness.takeDrainBack())
        #expect(!readiness.isDraining && !readiness.isInForce(drain: first ?? 0))
        #expect(!readiness.takeDrainBack(), "there is none to take back")
        let second = readiness.askDrain()
        #expect(second != first && readiness.isInForce(drain: second ?? 0) && !readiness.isInForce(drain: first ?? 0))
        // A shutdown drains whatever an owner does.
        #expect(readiness.beginDraining())
        #expect(readiness.takeDrainBack() && readiness.isDraining && readiness.isShuttingDown)
    }
}
