import TestSupport
import Testing

/// `/b/{id}` serves the one board page for every board (its script reads the id from the path).
@Suite(.threadsOfTheirOwn) struct BoardPageRouteTests {
    @Test func everyBoardPathServesTheBoardPage() throws {
        let server = try TestServer { $0.createsDemoBoard = false }
        try server.webRoot.write("board.html", "<!doctype html><title>board page</title>")
        for path in ["/b/demo", "/b/sprint-42", "/b/any%20id"] {
            let response = try server.get(path)
            #expect(response.status == 200, "\(path)")
            #expect(response.text == "<!doctype html><title>board page</title>", "\(path)")
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true, "\(path)")
        }
        #expect(try server.get("/b/").status == 404, "no id, no page")
    }
}
