import Testing

@testable import CorkboardServer

/// The query of `GET /api/boards/{id}/ops`: `since` (or `cursor`) and `limit`, nothing else, each once.
@Suite struct OpsPageQueryTests {
    static func parse(_ pairs: [(String, String)]) -> Result<OpsPageQuery, QueryError> {
        OpsPageQuery.parse(pairs.map { (name: $0.0, value: $0.1) })
    }

    @Test func defaults() {
        #expect(Self.parse([]) == .success(OpsPageQuery(since: 0, limit: 1000)))
    }

    @Test func sinceAndLimit() {
        #expect(Self.parse([("since", "12"), ("limit", "1")]) == .success(OpsPageQuery(since: 12, limit: 1)))
        #expect(Self.parse([("limit", "10000")]) == .success(OpsPageQuery(since: 0, limit: 10_000)))
    }

    @Test(arguments: [
        ("limit", "0", "limit must be a whole number from 1 to 10000, not \"0\""),
        ("limit", "10001", "limit must be a whole number from 1 to 10000, not \"10001\""),
        ("limit", "-1", "limit must be a whole number from 1 to 10000, not \"-1\""),
        ("limit", "ten", "limit must be a whole number from 1 to 10000, not \"ten\""),
        ("limit", "", "limit must be a whole number from 1 to 10000, not \"\""),
        ("since", "-3", "since must be a seq (a whole number ≥ 0), not \"-3\""),
        ("since", "1.5", "since must be a seq (a whole number ≥ 0), not \"1.5\""),
        ("cursor", "x", "cursor must be a seq (a whole number ≥ 0), not \"x\""),
        ("Limit", "3", "unknown query parameter \"Limit\": GET …/ops takes since, cursor and limit"),
    ])
    func badQueriesAreRefused(name: String, value: String, message: String) {
        #expect(Self.parse([(name, value)]) == .failure(QueryError(message)))
    }

    /// `cursor` is the name every list takes (docs/protocol.md#conventions); for the log it is
    /// the same seq as `since`, so giving both is refused rather than one of them ignored.
    @Test func cursorIsSinceByTheConventionsName() {
        #expect(Self.parse([("cursor", "7"), ("limit", "2")]) == .success(OpsPageQuery(since: 7, limit: 2)))
        #expect(Self.parse([("since", "1"), ("cursor", "1")]) == .failure(QueryError("give since or cursor, not both: they are the same seq")))
    }

    @Test func aRepeatedParameterIsRefused() {
        #expect(Self.parse([("since", "1"), ("since", "2")]) == .failure(QueryError("since is given twice")))
    }
}
