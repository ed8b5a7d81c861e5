// The helpers both test targets share (TestServer, HubFixture, BoardAPI, ChildServer, Unharmed…)
// and, through it, HubTestSupport's board client: visible in every file of this target.
@_exported import ServerTestSupport

/// The test-side client of the HTTP API, not the server's `CorkboardServer.BoardAPI` (a file
/// that imports CorkboardServer sees both).
typealias BoardAPI = ServerTestSupport.BoardAPI
