import Testing

@testable import CorkboardServer

/// The one reading of a query every route shares (docs/protocol.md#conventions), and the cursor
/// and page of every list.
@Suite struct QueryParametersTests {
    static func parse(_ pairs: [(String, String)], _ accepted: [String]) -> Result<[String: String], QueryError> {
        QueryParameters.parse(pairs.map { (name: $0.0, value: $0.1) }, accepting: accepted, route: "GET /x")
    }

    @Test func takesWhatTheRouteNamesEachOnce() {
        #expect(Self.parse([("limit", "2"), ("cursor", "YQ")], ["limit", "cursor"]) == .success(["limit": "2", "cursor": "YQ"]))
        #expect(Self.parse([], []) == .success([:]))
    }

    @Test func refusesAnUnknownOrRepeatedParameter() {
        #expect(Self.parse([("foo", "1")], []) == .failure(QueryError("unknown query parameter \"foo\": GET /x takes no query parameters")))
        #expect(Self.parse([("foo", "1")], ["limit"]) == .failure(QueryError("unknown query parameter \"foo\": GET /x takes only limit")))
        #expect(
            Self.parse([("foo", "1")], ["a", "b", "c"]) == .failure(QueryError("unknown query parameter \"foo\": GET /x takes a, b and c")))
        #expect(Self.parse([("limit", "1"), ("limit", "1")], ["limit"]) == .failure(QueryError("limit is given twice")))
    }

    @Test(arguments: ["a", "demo", "a/b c%", "é", String(repeating: "z", count: 300)])
    func aCursorGivesBackItsKey(key: String) {
        let cursor = PageCursor.encode(after: key)
        #expect(cursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(PageCursor.decode(cursor) == key)
    }

    @Test(arguments: ["", "%%%", "YQ==", "a b", "YR"])
    func aCursorThisServerNeverGaveIsRefused(cursor: String) {
        #expect(PageCursor.decode(cursor) == nil)
    }

    @Test func aListIsSlicedInPagesByKey() throws {
        let entries = ["c", "a", "e", "b", "d"]
        var page = ListPage(limit: 2)
        var seen: [String] = []
        for _ in 0..<5 {
            let slice = page.slice(entries) { $0 }
            seen += slice.entries
            guard let next = slice.next else { break }
            page.after = PageCursor.decode(next)
        }
        #expect(seen == ["a", "b", "c", "d", "e"])
        #expect(ListPage(limit: 5).slice(entries) { $0 }.next == nil, "the last page has no next")
    }

    @Test func aListsQueryIsChecked() {
        #expect(ListPage.parse([:]) == .success(ListPage(limit: 100)))
        #expect(ListPage.parse(["limit": "1000"]) == .success(ListPage(limit: 1000)))
        #expect(ListPage.parse(["limit": "0"]) == .failure(QueryError("limit must be a whole number from 1 to 1000, not \"0\"")))
        #expect(ListPage.parse(["limit": "1001"]) == .failure(QueryError("limit must be a whole number from 1 to 1000, not \"1001\"")))
        #expect(ListPage.parse(["cursor": "%"]) == .failure(QueryError("cursor must be a \"next\" this server gave, not \"%\"")))
    }
}
