import CorkboardServer
import Foundation
import TestSupport
import Testing

/// `--web-root ''`: a node that serves the API, the WebSocket and the operations endpoints,
/// and no pages.
@Suite(.threadsOfTheirOwn) struct APIOnlyNodeTests {
    @Test func servesTheAPIAndNoPages() throws {
        let fixture = try HubFixture { $0.webRoot = nil }
        let server = fixture.server
        for path in ["/", "/index.html", "/b/board", "/app.js"] {
            let response = try server.get(path)
            #expect(response.status == 404, "\(path)")
            #expect(response.header("Content-Type") == "application/json", "\(path)")
        }
        #expect(try fixture.document().board.id == "board")
        #expect(try server.get("/readyz").status == 200)
        let ada = try fixture.join("Ada")
        try ada.commit(.delete(items: ["i1"]))
    }

    @Test func anEmptyWebRootMeansNone() throws {
        var options = ServeOptions()
        options.webRoot = ""
        #expect(try ServeSettings(options: options, environment: EnvironmentSettings([:])).configuration.webRoot == nil)
        #expect(try ServeSettings(options: ServeOptions(), environment: EnvironmentSettings([:])).configuration.webRoot == "web")
    }
}
