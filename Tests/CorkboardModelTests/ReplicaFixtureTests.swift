import CorkboardModel
import TestSupport
import Testing

/// The shared fixtures (Tests/Fixtures/replica/*.json, which the browser SDK's unit tests load
/// too) through the model's `Replica`: the same board after the same events, the same refusals.
@Suite struct ReplicaFixtureTests {
    @Test(arguments: try ReplicaFixture.all())
    func theReplicaAppliesTheFixture(_ fixture: ReplicaFixture) throws {
        if let events = fixture.events {
            let after = try #require(fixture.after, "a fixture with events says the board after them")
            var replica = Replica(board: fixture.before, seq: 0)
            for event in events { try replica.apply(event) }
            #expect(replica.board == after)
            #expect(replica.seq == events.count)
        }
        for event in fixture.refused ?? [] {
            var replica = Replica(board: fixture.before, seq: 0)
            #expect(throws: BoardError.self, "\(event.op)") { try replica.apply(event) }
            #expect(replica.board == fixture.before, "a refused event changes nothing")
        }
    }

    @Test func theFixturesCoverEveryOperationType() throws {
        let events = try ReplicaFixture.all().flatMap { $0.events ?? [] }
        let kinds = Set(
            events.map { event -> String in
                switch event.op {
                case .move: "move"
                case .insert: "insert"
                case .delete: "delete"
                case .updateItem: "update item"
                case .updateFolder: "update folder"
                case .renameCollection: "update collection"
                case .addCollection: "collection.add"
                case .removeCollection: "collection.remove"
                case .removeCollectionAndItems: "collection.remove with its items"
                case .moveCollections: "collection.move"
                case .lock: "lock"
                case .renameBoard: "update board"
                }
            })
        #expect(kinds.count == 12, "\(kinds.sorted())")
        #expect(events.contains { $0.adjusted }, "an adjusted move")
    }
}
