import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The bot client over `wss://` against a real `corkboard serve --tls-cert --tls-key`:
/// verification is on, a CA file makes a self-signed server trusted.
@Suite(.threadsOfTheirOwn) struct TLSClientTests {
    let keys: TemporaryDirectory
    let certificate: TestCertificate

    init() throws {
        keys = try TemporaryDirectory("corkboard-client-keys")
        certificate = try TestCertificate.make(in: keys.path, name: "server", serial: "C3")
    }

    private func startServer() async throws -> CorkboardTestServer {
        let arguments = ["--store", "memory", "--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath]
        return try await offPool { try CorkboardTestServer(extra: arguments) }
    }

    private func configuration(_ server: CorkboardTestServer, host: String = "127.0.0.1", name: String) throws -> BoardClientConfiguration {
        var configuration = BoardClientConfiguration(address: try ServerAddress(url: "wss://\(host):\(server.port)"), board: "demo", name: name)
        configuration.joinTimeout = 5
        return configuration
    }

    @Test(arguments: ["127.0.0.1", "localhost"])
    func joinsAndOperatesOverWSSWithTheCAFile(host: String) async throws {
        let server = try await startServer()
        var settings = try configuration(server, host: host, name: "secure")
        settings.trustedCAFile = certificate.certificatePath
        let client = BoardClient(settings)
        let welcome = try await client.connect()
        #expect(welcome.board?.id == "demo")
        let board = try #require(client.board)
        let card = try #require(board.allItemIDs.first)
        let result = await client.perform(.move(sources: [card], destination: Destination(collection: board.collections.last!.id)))
        guard case .committed(let event) = result else {
            Issue.record("the move was not committed: \(result)")
            return
        }
        #expect(event.seq == welcome.seq + 1)
        // A second client sees it live (the broadcast goes out through every TLS session).
        let watcher = BoardClient(settings)
        _ = try await watcher.connect()
        #expect(watcher.replica?.seq == event.seq)
        await watcher.close()
        await client.close()
    }

    @Test func withoutTheCAFileVerificationFailsWithTheReason() async throws {
        let server = try await startServer()
        let client = BoardClient(try configuration(server, name: "trusting-nobody"))
        do {
            _ = try await client.connect()
            Issue.record("joined a server whose certificate nobody vouched for")
        } catch let error as BoardClientError {
            #expect(error == .cannotConnect("TLS certificate verification failed: self-signed certificate"))
        }
    }

    @Test func anUnreadableCAFileIsTheReasonItCannotConnect() async throws {
        let server = try await startServer()
        var settings = try configuration(server, name: "lost")
        settings.trustedCAFile = keys.path + "/nowhere.pem"
        do {
            _ = try await BoardClient(settings).connect()
            Issue.record("joined without its CA file")
        } catch let error as BoardClientError {
            #expect(error == .cannotConnect("CA file \(keys.path)/nowhere.pem cannot be read: No such file or directory"))
        }
    }

    @Test func botCommandsTakeTheCAFile() async throws {
        let server = try await startServer()
        let url = "wss://127.0.0.1:\(server.port)"
        let trusted = try await BotCommandTests.bot(["snapshot", "--url", url, "--board", "demo", "--ca-file", certificate.certificatePath])
        #expect(trusted.status == 0)
        let document = try JSONDecoder().decode(BoardDocument.self, from: Data(trusted.output.utf8))
        #expect(document.board.id == "demo")

        let untrusted = try await BotCommandTests.bot(["snapshot", "--url", url, "--board", "demo"])
        #expect(untrusted.status == 2)
        #expect(
            untrusted.errors.trimmingCharacters(in: .whitespacesAndNewlines) == "corkboard: error: cannot connect: "
                + "TLS certificate verification failed: self-signed certificate "
                + "(to trust a private CA or a self-signed server, pass its certificate with --ca-file)")

        let fromEnvironment = try await BotCommandTests.bot(
            ["snapshot", "--url", url, "--board", "demo"],
            environment: ["CORKBOARD_CA_FILE": certificate.certificatePath])
        #expect(fromEnvironment.status == 0)

        let plainURL = try await BotCommandTests.bot([
            "snapshot", "--url", "ws://127.0.0.1:\(server.port)", "--board", "demo",
            "--ca-file", certificate.certificatePath,
        ])
        #expect(plainURL.status == 64)
        #expect(plainURL.errors.contains("--ca-file is for wss:// URLs"))
    }
}
