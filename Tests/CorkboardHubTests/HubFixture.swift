import CorkboardHub
import CorkboardModel
import CorkboardStore
import CorkboardWire
import HubTestSupport
import Logging
import TestSupport

/// A hub on a memory store with one board, joined through `MemoryLink`s: rooms, sessions and
/// the commit pipeline as the server runs them, with no socket in between.
final class HubFixture: BoardHost {
    let hub: Hub
    let store: BoardStore
    let board: Board
    let created: BoardDocument

    init(
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

    /// A new connection that has not said `hello` yet.
    func connect(_ name: String = "raw", outputBound: Int = 4 * 1024 * 1024) -> MemoryLink {
        MemoryLink(hub: hub, outputBound: outputBound, label: name)
    }

    func join(
        _ name: String, token: String? = nil, resumeFrom previous: BoardTestClient? = nil, resume: ResumePoint? = nil,
        outputBound: Int = 4 * 1024 * 1024, observe: Bool = false
    ) throws -> BoardTestClient {
        let link = connect(name, outputBound: outputBound)
        return try BoardTestClient(
            transport: MemoryClientTransport(link: link), board: board.id, name: name, token: token, resumeFrom: previous, resume: resume,
            observe: observe)
    }

    /// The board as the hub has it now.
    func document() throws -> BoardDocument { try wait { self.hub.document(board: self.board.id, $0) }.get() }
}

extension BoardTestClient {
    /// The in-memory link under this client.
    var link: MemoryLink {
        guard let transport = transport as? MemoryClientTransport else { preconditionFailure("\(name) is not in memory") }
        return transport.link
    }
}
