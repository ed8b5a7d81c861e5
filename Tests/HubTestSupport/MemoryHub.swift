import CorkboardHub
import CorkboardModel
import CorkboardStore
import CorkboardWire
import Logging
import TestSupport

/// A hub on a memory store with one board, joined through `MemoryLink`s: rooms, sessions and
/// the commit pipeline as the server runs them, with no socket in between. The `.memory` case
/// of the hub suites that run over both harnesses, and the fixture of every in-process hub test
/// (CorkboardHubTests calls it `HubFixture`).
public final class MemoryHub: HubUnderTest {
    public let hub: Hub
    public let store: BoardStore
    public let board: Board
    public let created: BoardDocument

    public init(
        board: Board = TestBoards.standard, store: BoardStore = MemoryStore(), access: AccessPolicy = OpenAccess(),
        configure: (inout HubConfiguration) -> Void = { _ in }
    ) throws {
        var configuration = HubConfiguration()
        configure(&configuration)
        var logger = Logger(label: "hub-test")
        logger.logLevel = .critical
        let hub = Hub(store: store, access: access, configuration: configuration, logger: logger)
        self.hub = hub
        self.store = store
        self.board = board
        created = try wait { hub.createBoard(board, $0) }.get()
    }

    /// A new connection that has not said `hello` yet, as the link itself (to stall, drain or
    /// read it raw).
    public func connect(_ name: String = "raw", outputBound: Int = 4 * 1024 * 1024) -> MemoryLink {
        MemoryLink(hub: hub, outputBound: outputBound, label: name)
    }

    public func newConnection(_ name: String) throws -> any TestClientTransport {
        MemoryClientTransport(link: connect(name))
    }

    /// Joins through a link whose unread output is dropped past `outputBound` bytes (a slow consumer).
    public func join(_ name: String, outputBound: Int) throws -> BoardTestClient {
        try BoardTestClient(transport: MemoryClientTransport(link: connect(name, outputBound: outputBound)), board: board.id, name: name)
    }

    /// Ada and Bob on the standard board (todo: i1…i5, done: i6…i8), each aware of the other.
    public static func pair(_ configure: (inout HubConfiguration) -> Void = { _ in }) throws -> (MemoryHub, BoardTestClient, BoardTestClient) {
        let hub = try MemoryHub(configure: configure)
        let (ada, bob) = try hub.joinAdaAndBob()
        return (hub, ada, bob)
    }

    /// The board as the hub has it now.
    public func document() throws -> BoardDocument { try wait { self.hub.document(board: self.board.id, $0) }.get() }
}

extension BoardTestClient {
    /// The in-memory link under this client.
    public var link: MemoryLink {
        guard let transport = transport as? MemoryClientTransport else { preconditionFailure("\(name) is not in memory") }
        return transport.link
    }
}
