import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The shared fixtures (Tests/Fixtures/replica/*.json, which the browser SDK's unit tests load
/// too) through the Swift client: a scripted server welcomes it with the fixture's board and
/// sends its events; the client's replica must end as the fixture's board after them.
@Suite(.threadsOfTheirOwn) struct ClientReplicaFixtureTests {
    static let fixtures = (try? ReplicaFixture.all().filter { $0.events != nil && $0.after != nil }) ?? []

    @Test func theFixturesLoad() throws {
        #expect(try ReplicaFixture.all().count == Self.fixtures.count + 1, "every fixture but out-of-step applies its events")
    }

    @Test(arguments: fixtures)
    func theClientsReplicaFollowsTheFixture(_ fixture: ReplicaFixture) async throws {
        let events = try #require(fixture.events)
        let fake = try FakeServer()
        var configuration = BoardClientConfiguration(port: fake.port, board: fixture.before.id, name: "fixtures")
        configuration.offersDeflate = false
        configuration.operationTimeout = 90
        let client = BoardClient(configuration)
        let script = BlockingWork { () in
            let connection = try fake.accept()
            _ = try connection.receiveObject()
            let welcome = Welcome(client: "c1", role: .owner, epoch: "e1", seq: 0, resumed: false, board: fixture.before, peers: [])
            try connection.send(ScriptedServerTests.text(.welcome(welcome)))
            for event in events { try connection.send(ScriptedServerTests.text(.committed(event))) }
            _ = try? connection.receive() // hold the connection until the client leaves
        }
        try await client.connect()
        let replica = await client.waitForReplica { $0.seq == events.count }
        #expect(replica?.board == fixture.after)
        await client.close()
        try await script.value
    }
}
