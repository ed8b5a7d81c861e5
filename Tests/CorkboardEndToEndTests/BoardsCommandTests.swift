import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `corkboard boards list` and `corkboard boards delete` as an admin runs them, against a
/// real `corkboard serve`: the wiring of options, environment, output and exit status.
/// What the calls do, the table and every failure's line are `BoardAdministrationTests`' (in
/// process, in CorkboardClientTests).
@Suite(.threadsOfTheirOwn) struct BoardsCommandTests {
    let folder: ArchiveFolder

    init() throws {
        folder = try ArchiveFolder()
    }

    private struct Listed: Decodable, Equatable {
        var id: String
        var title: String
        var seq: Int
        var items: Int
    }

    @Test func listPrintsATableOrWithJSONOneObject() throws {
        let (server, api) = try folder.serve()
        defer { folder.stop(server) }
        let url = "http://127.0.0.1:\(api.port)"
        try api.createBoard(Board(id: "zeta", title: "Zeta", collections: [BoardCollection(id: "c", title: "C", items: [Item(id: "z1", label: "Z")])]))

        let (status, output, errors) = try folder.run(["boards", "list", "--url", url])
        #expect(status == 0, "\(errors)")
        let lines = output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(lines.first == ["ID", "TITLE", "SEQ", "ITEMS"])
        #expect(lines.dropFirst().map(\.first) == ["demo", "zeta"], "\(output)")
        #expect(lines.last == ["zeta", "Zeta", "0", "1"], "\(output)")

        let (jsonStatus, json, jsonErrors) = try folder.run(["boards", "list", "--json", "--url", url])
        #expect(jsonStatus == 0, "\(jsonErrors)")
        let listed = try JSONDecoder().decode([String: [Listed]].self, from: Data(json.utf8))
        #expect(listed["boards"]?.map(\.id) == ["demo", "zeta"])
        #expect(listed["boards"]?.last == Listed(id: "zeta", title: "Zeta", seq: 0, items: 1))
    }

    @Test func deleteDeletesAndAnUnknownBoardExitsOneWithOneLine() throws {
        let (server, api) = try folder.serve()
        defer { folder.stop(server) }
        let url = "http://127.0.0.1:\(api.port)"

        let (status, output, errors) = try folder.run(["boards", "delete", "demo", "--url", url])
        #expect(status == 0, "\(errors)")
        #expect(output == "deleted board demo\n")
        #expect(try api.get("/api/boards/demo").status == 404)

        let (again, againOutput, againErrors) = try folder.run(["boards", "delete", "demo", "--url", url])
        #expect(again == 1)
        #expect(againOutput.isEmpty)
        #expect(againErrors == "corkboard: error: there is no board \"demo\"\n")
    }

    @Test func overHTTPSTheServersCertificateIsChecked() throws {
        let keys = try TemporaryDirectory("corkboard-keys")
        let certificate = try TestCertificate.make(in: keys.path, name: "server", serial: "B2")
        let server = try ServerProcess([
            "serve", "--port", "0", "--web-root", folder.webRoot.path, "--data", folder.data.path,
            "--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath,
        ])
        defer { folder.stop(server) }
        let url = "https://localhost:\(try #require(server.waitForListeningPort()))"

        let (listed, output, errors) = try folder.run(["boards", "list", "--url", url, "--ca-file", certificate.certificatePath])
        #expect(listed == 0, "\(errors)")
        #expect(output.split(separator: "\n").dropFirst().map { $0.split(separator: " ").first } == ["demo"], "\(output)")
        // Without the CA the server is not trusted: one line, nothing done.
        let (untrusted, _, refusal) = try folder.run(["boards", "delete", "demo", "--url", url])
        #expect(untrusted == 1)
        #expect(refusal.hasPrefix("corkboard: error: cannot reach \(url): ") && refusal.filter { $0 == "\n" }.count == 1, "\(refusal)")
        let (deleted, _, deleteErrors) = try folder.run(["boards", "delete", "demo", "--url", url, "--ca-file", certificate.certificatePath])
        #expect(deleted == 0, "\(deleteErrors)")
    }

    @Test func theTokenComesFromTheOptionOrTheEnvironmentAndARefusalIsOneLine() throws {
        let tokens = try TemporaryDirectory("corkboard-tokens")
        _ = try tokens.write("tokens.json", #"{"tokens":[{"token":"edit","role":"editor","boards":"*"},{"token":"own","role":"owner","boards":"*"}]}"#)
        let server = try ServerProcess([
            "serve", "--port", "0", "--web-root", folder.webRoot.path, "--data", folder.data.path, "--tokens", tokens.path + "/tokens.json",
        ])
        defer { folder.stop(server) }
        let url = "http://127.0.0.1:\(try #require(server.waitForListeningPort()))"

        let (refused, _, refusal) = try folder.run(["boards", "delete", "demo", "--url", url, "--token", "edit"])
        #expect(refused == 1)
        #expect(refusal == "corkboard: error: \(url) answered 403: only an owner may delete a board\n")
        let (listed, output, _) = try folder.run(["boards", "list"], environment: ["CORKBOARD_TOKEN": "own", "CORKBOARD_URL": url])
        #expect(listed == 0 && output.contains("demo"), "\(output)")

        let (badUsage, _, usage) = try folder.run(["boards", "list", "--url", "ftp://127.0.0.1"])
        #expect(badUsage == 64 && usage.contains("http:// or https://"), "\(usage)")
    }
}
