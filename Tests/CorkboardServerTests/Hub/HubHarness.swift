import CorkboardHub
import CorkboardModel
import Testing

/// What carries a hub suite's clients to the hub: one test body runs over each, as
/// HummingbirdTesting runs one test over `.router` and `.live`
/// (`@Test(arguments: HubHarness.allCases)`).
///
/// - `memory`: `MemoryLink`s straight into a `Hub` on a memory store (`MemoryHub`): the rooms,
///   sessions and commit pipeline with nothing in between, so a failure points at the hub.
/// - `socket`: WebSockets to a real server on a loopback port (`HubFixture`): the same
///   promises through `BoardSocket`, the loops and the frames.
///
/// The suites live here, in CorkboardServerTests, because this is the one target that can
/// start a server and reach `MemoryHub` too (CorkboardHubTests does not link the server, and
/// must not). A test that holds for one harness only is a plain `@Test` of the same suite,
/// saying why.
enum HubHarness: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, socket

    var testDescription: String { rawValue }

    /// A hub with `board`, its configuration changed by `configure` (over sockets: the
    /// server's `hub` options).
    func start(board: Board = TestBoards.standard, configure: (inout HubConfiguration) -> Void = { _ in }) throws -> any HubUnderTest {
        switch self {
        case .memory: try MemoryHub(board: board, configure: configure)
        case .socket: try HubFixture(board: board) { configure(&$0.hub) }
        }
    }
}
