import CorkboardModel
import CorkboardStore
import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import CorkboardPostgres

/// Column leases between two nodes (the `BoardStore`-level rules are in the contract suite's
/// LeaseContractTests): two nodes asking for one column at once grant it once, and a
/// database whose `lease` table is migration 2's is upgraded in place by migration 11.
@Suite(.threadsOfTheirOwn) struct PostgresLeaseTests {
    @Test func twoNodesAskingForOneColumnAtOnceGrantItOnce() throws {
        let (first, second) = try TestDatabase.twoStoresWithABoard()
        defer {
            first.close()
            second.close()
        }
        for round in 0..<10 {
            let column = "column-\(round)"
            let answers = Mutex<[String: Result<ClientID?, StoreError>]>([:])
            let group = DispatchGroup()
            for (store, holder) in [(first, "ada-\(round)"), (second, "bob-\(round)")] {
                group.enter()
                store.lease(board: "b", columns: [column], holder: holder) { result in
                    answers.withLock { $0[holder] = result }
                    group.leave()
                }
            }
            #expect(group.wait(timeout: .now() + 15) == .success)
            let granted = answers.withLock { $0.filter { if case .success(nil) = $0.value { true } else { false } }.map(\.key) }
            let refused = answers.withLock { $0.values.compactMap { if case .success(let holder?) = $0 { holder } else { nil } } }
            #expect(granted.count == 1 && refused == granted, "round \(round): \(answers.withLock { $0 })")
        }
    }

    @Test func aDatabaseBeforeMigration11KeepsItsItemLeasesAndLeasesColumns() throws {
        let url = try TestDatabase.fresh()
        let first = try TestDatabase.open(url)
        // Back to migration 2's lease table and function, holding one item lease.
        let itemLeases = try #require(PostgresSchema.migrations.first { $0.version == 2 })
        try wait {
            first.run(
                [
                    PostgresStatement("DROP FUNCTION corkboard_lease_keys(text, text, text, text[], boolean, integer)"),
                    PostgresStatement("DROP FUNCTION corkboard_lease(text, text, text, text[], integer)"),
                    PostgresStatement("DROP TABLE lease"),
                    PostgresStatement("DO $old$ BEGIN \(itemLeases.sql) END $old$"),
                    PostgresStatement("DELETE FROM corkboard_migration WHERE version >= 11"),
                    PostgresStatement("SELECT corkboard_lease('b', 'ada', 'n1', '{todo}', 60000)"),
                ], $0)
        }.get()
        first.close()

        let store = try TestDatabase.open(url)
        defer { store.close() }
        let versions = try wait { store.run([PostgresStatement("SELECT max(version) AS version FROM corkboard_migration")], $0) }.get()
        #expect(versions[0].text(0, "version") == String(PostgresSchema.migrations.count))
        #expect(try wait { store.leases(board: "b", holder: "ada", $0) }.get() == HeldLeases(items: ["todo"]))
        // The item lease is still held; the column of that id is another lease.
        #expect(try wait { store.lease(board: "b", items: ["todo"], holder: "bob", $0) }.get() == "ada")
        #expect(try wait { store.lease(board: "b", columns: ["todo"], holder: "bob", $0) }.get() == nil)
        // A node not yet upgraded, calling migration 2's function, still leases items.
        let old = wait { store.send([PostgresStatement("SELECT corkboard_lease('b', 'cy', 'n2', '{todo}', 60000)")], $0) }
        let refusedBy: String? = if case .failure(.server(sqlState: "CB409", let holder)) = old { holder } else { nil }
        #expect(refusedBy == "ada", "the old lease function answered \(old)")
    }
}
