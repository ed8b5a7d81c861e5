import CorkboardModel
import CorkboardStore
import Foundation
import TestSupport
import Testing

/// Every store keeps what webhooks need (docs/integrations.md#webhooks): the endpoints made
/// through the API, each endpoint's cursors and last status, the outbox of boards created and
/// deleted (written by createBoard and deleteBoard themselves), and the delivery lease.
@Suite(.threadsOfTheirOwn) struct WebhookContractTests {
    static let retention = LogRetention(retained: 100)

    static func keeping(_ store: any BoardStore) throws -> any WebhookStore {
        try #require(store as? any WebhookStore)
    }

    static func board(_ id: String) -> Board {
        Board(id: id, title: id, collections: [BoardCollection(id: "c", title: "C", items: [])])
    }

    @Test(arguments: StoreFactory.all) func endpointsAreAddedListedAndRemoved(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = try Self.keeping(opened.store)
        #expect(try wait { store.webhookEndpoints($0) }.get().isEmpty)

        let every = WebhookEndpointRecord(
            id: "wh_b", url: "https://example.com/hook?x=1", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", boards: nil,
            createdAtMilliseconds: 1_795_575_010_123)
        let some = WebhookEndpointRecord(
            id: "wh_a", url: "http://10.0.0.7:8080/", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", boards: ["x", "Łódź 😀"],
            createdAtMilliseconds: 1_795_575_011_000)
        try wait { store.addWebhookEndpoint(every, $0) }.get()
        try wait { store.addWebhookEndpoint(some, $0) }.get()
        #expect(wait { store.addWebhookEndpoint(some, $0) }.failure == .alreadyExists)
        #expect(try wait { store.webhookEndpoints($0) }.get() == [some, every])

        try wait { store.advanceWebhookCursor(endpoint: "wh_a", stream: .board("x"), to: 3, $0) }.get()
        try wait { store.recordWebhookStatus(endpoint: "wh_a", status: #"{"failures":1}"#, $0) }.get()
        try wait { store.removeWebhookEndpoint(id: "wh_a", $0) }.get()
        #expect(wait { store.removeWebhookEndpoint(id: "wh_a", $0) }.failure == .notFound)
        #expect(try wait { store.webhookEndpoints($0) }.get() == [every])
        // Its progress went with it.
        #expect(try wait { store.webhookProgress(endpoint: "wh_a", $0) }.get() == WebhookProgress(notices: nil, boards: [:], status: nil))
    }

    @Test(arguments: StoreFactory.all) func boardsCreatedAndDeletedGoInTheOutboxAndADeletionDropsTheCursors(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let boards = opened.store
        let store = try Self.keeping(boards)
        try wait { boards.createBoard(Self.board("one"), epoch: "e1", $0) }.get()

        // Started after "one" was created: its notice is behind the cursor, its seq is the start.
        try wait { store.startWebhookProgress(endpoint: "crm", boards: ["one": 0], $0) }.get()
        let started = try wait { store.webhookProgress(endpoint: "crm", $0) }.get()
        let first = try #require(started.notices)
        #expect(started.boards == ["one": 0])
        // Started once: a second start changes nothing.
        try wait { store.advanceWebhookCursor(endpoint: "crm", stream: .board("one"), to: 5, $0) }.get()
        try wait { store.startWebhookProgress(endpoint: "crm", boards: ["one": 0, "two": 0], $0) }.get()
        #expect(try wait { store.webhookProgress(endpoint: "crm", $0) }.get().boards == ["one": 5])

        try wait { boards.createBoard(Self.board("two"), epoch: "e2", $0) }.get()
        #expect(wait { boards.createBoard(Self.board("two"), epoch: "e3", $0) }.failure == .alreadyExists)
        try wait { boards.deleteBoard("one", $0) }.get()
        #expect(wait { boards.deleteBoard("one", $0) }.failure == .notFound)
        let notices = try wait { store.webhookNotices(after: first, limit: 10, $0) }.get()
        #expect(notices.map(\.kind) == [.created, .deleted])
        #expect(notices.map(\.board) == ["two", "one"])
        #expect(notices[0].id < notices[1].id)
        #expect(notices.allSatisfy { abs(Double($0.atMilliseconds) / 1000 - Date().timeIntervalSince1970) < 60 })
        #expect(try wait { store.webhookNotices(after: notices[0].id, limit: 10, $0) }.get() == [notices[1]])
        #expect(try wait { store.webhookNotices(after: first, limit: 1, $0) }.get() == [notices[0]])

        // The deleted board's cursor went: a board created anew under its id starts at seq 0.
        try wait { store.advanceWebhookCursor(endpoint: "crm", stream: .notices, to: notices[1].id, $0) }.get()
        try wait { store.recordWebhookStatus(endpoint: "crm", status: "ok", $0) }.get()
        #expect(
            try wait { store.webhookProgress(endpoint: "crm", $0) }.get() == WebhookProgress(notices: notices[1].id, boards: [:], status: "ok"))
    }

    @Test(arguments: StoreFactory.all) func anImportIsToldAsABoardCreatedAndAReplacementDropsTheCursors(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let boards = opened.store
        let store = try Self.keeping(boards)
        try wait { store.startWebhookProgress(endpoint: "crm", boards: [:], $0) }.get()
        let first = try #require(try wait { store.webhookProgress(endpoint: "crm", $0) }.get().notices)
        let archive = BoardArchive(
            board: try Contract.board(after: Contract.events(1...3)), seq: 3, epoch: "e-archive",
            history: ArchivedHistory(snapshot: Contract.board(), snapshotSeq: 0, events: Contract.events(1...3)))

        _ = try wait { boards.importBoard(archive, replacing: false, $0) }.get()
        try wait { store.advanceWebhookCursor(endpoint: "crm", stream: .board("b"), to: 3, $0) }.get()
        // A refused import tells nothing.
        #expect(wait { boards.importBoard(archive, replacing: false, $0) }.failure == .alreadyExists)
        _ = try wait { boards.importBoard(archive, replacing: true, $0) }.get()

        let notices = try wait { store.webhookNotices(after: first, limit: 10, $0) }.get()
        #expect(notices.map(\.kind) == [.created, .deleted, .created])
        #expect(notices.allSatisfy { $0.board == "b" })
        // The replaced board's cursor went: its imported log is delivered from seq 1.
        #expect(try wait { store.webhookProgress(endpoint: "crm", $0) }.get().boards == [:])
    }

    @Test(arguments: StoreFactory.all) func theDeliveryLeaseIsHeldByOneNodeAtATime(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = try Self.keeping(opened.store)
        #expect(try wait { store.holdWebhookLease(node: "a", seconds: 30, $0) }.get())
        #expect(try wait { store.holdWebhookLease(node: "a", seconds: 30, $0) }.get(), "the holder renews it")
        // A store of one node has no other node; a shared one refuses the second while the first holds it.
        let second = try wait { store.holdWebhookLease(node: "b", seconds: 30, $0) }.get()
        #expect(second == (factory.name != "PostgreSQL"))
    }

    @Test func aLapsedLeaseIsTakenOver() throws {
        let opened = try StoreFactory.postgres.open(Self.retention)
        defer { opened.close() }
        let store = try Self.keeping(opened.store)
        #expect(try wait { store.holdWebhookLease(node: "a", seconds: 0.2, $0) }.get())
        let taken = try eventually(timeout: 10) { try wait { store.holdWebhookLease(node: "b", seconds: 30, $0) }.get() }
        #expect(taken)
        #expect(try !wait { store.holdWebhookLease(node: "a", seconds: 30, $0) }.get())
    }
}
