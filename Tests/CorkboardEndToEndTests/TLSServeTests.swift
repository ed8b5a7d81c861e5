import CorkboardClient
import CorkboardModel
import Foundation
import TestSupport
import Testing

/// `corkboard serve --tls-cert --tls-key` as clients see it: curl, Python's `ssl` with
/// `websockets`, our own client, and `openssl s_client` reading the served certificate.
/// Certificates are made at test time; everything that blocks runs through `BlockingWork`.
@Suite(.threadsOfTheirOwn) struct TLSServeTests {
    let webRoot: TemporaryDirectory
    let data: TemporaryDirectory
    let keys: TemporaryDirectory
    let certificate: TestCertificate

    init() throws {
        webRoot = try TemporaryDirectory("corkboard-web")
        try webRoot.write("index.html", "<!doctype html><title>over tls</title>")
        data = try TemporaryDirectory("corkboard-data")
        keys = try TemporaryDirectory("corkboard-keys")
        certificate = try TestCertificate.make(in: keys.path, name: "server", serial: "A1")
    }

    static let pythonScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("python/wss_client.py").path

    /// A TLS server on a free port (memory store: nothing here is about durability).
    private func serve(certificate: String? = nil, key: String? = nil, extra: [String] = []) throws -> ServerProcess {
        try ServerProcess(
            [
                "serve", "--port", "0", "--web-root", webRoot.path, "--data", data.path, "--store", "memory",
                "--tls-cert", certificate ?? self.certificate.certificatePath,
                "--tls-key", key ?? self.certificate.keyPath,
            ] + extra)
    }

    private static func started(_ process: ServerProcess) throws -> UInt16 {
        guard let port = process.waitForListeningPort() else {
            throw PythonTools.Failure("the server did not start: \(process.standardError)")
        }
        return port
    }

    private static func curl(_ arguments: [String]) throws -> PythonTools.CommandOutcome {
        guard let curl = PythonTools.executableOnPath("curl") else { throw PythonTools.Failure("no curl on PATH") }
        return try PythonTools.run(curl, ["-sS", "--max-time", "10"] + arguments, timeout: 30)
    }

    @Test func curlFetchesHealthAndStaticFilesOverHTTPS() async throws {
        let certificate = certificate
        let process = UncheckedSendable(try serve(extra: ["--log-level", "debug"]))
        let outcome = try await BlockingWork { () throws -> [String] in
            let port = try Self.started(process.value)
            let base = "https://127.0.0.1:\(port)"
            let health = try Self.curl(["--cacert", certificate.certificatePath, base + "/healthz"])
            let page = try Self.curl(["--cacert", certificate.certificatePath, "https://localhost:\(port)/index.html"])
            // curl offers h2 and http/1.1 by ALPN; the server picks http/1.1.
            let version = try Self.curl(["--cacert", certificate.certificatePath, "-o", "/dev/null", "-w", "%{http_version}", base + "/healthz"])
            // Without the CA curl refuses the server (60); plain HTTP gets a plain 400 saying so.
            let untrusted = try Self.curl([base + "/healthz"])
            let plain = try Self.curl(["-w", " %{http_code}", "http://127.0.0.1:\(port)/healthz"])
            var metrics = ""
            _ = try eventually(timeout: 10) {
                metrics = try Self.curl(["--cacert", certificate.certificatePath, base + "/metrics"]).standardOutput
                return metrics.contains("corkboard_tls_failures_total 2")
            }
            return [
                process.value.standardOutput, health.standardOutput, page.standardOutput, version.standardOutput,
                "\(untrusted.status)", "\(plain.status) \(plain.standardOutput)", metrics, process.value.standardError,
            ]
        }.value
        #expect(outcome[0].hasPrefix("corkboard listening on https://127.0.0.1:"))
        #expect(outcome[1] == #"{"status":"ok"}"#)
        #expect(outcome[2] == "<!doctype html><title>over tls</title>")
        #expect(outcome[3] == "1.1")
        #expect(outcome[4] == "60")
        #expect(outcome[5] == "0 This port speaks HTTPS: use an https:// URL.\n 400")
        #expect(outcome[6].contains("corkboard_tls_failures_total 2"))
        // Failed handshakes are counted above and logged at debug only (scanners are many).
        #expect(outcome[7].contains("closed: plain HTTP sent to the TLS port"))
        process.value.signal(SIGTERM)
        #expect(try await BlockingWork { process.value.waitForExit() }.value == 0)
    }

    @Test func pythonJoinsAndMovesOverWSS() async throws {
        let certificate = certificate
        let process = UncheckedSendable(try serve())
        let output = try await BlockingWork { () throws -> String in
            let port = try Self.started(process.value)
            let python = try PythonTools.websocketsPython()
            let outcome = try python.run([Self.pythonScript, "wss://localhost:\(port)/ws", certificate.certificatePath, "demo"], timeout: 60)
            guard outcome.succeeded else {
                throw PythonTools.Failure("the Python wss client failed (exit \(outcome.status)):\n\(PythonTools.tail(outcome.standardError))")
            }
            return outcome.standardOutput
        }.value
        struct Observation: Decodable {
            let welcomeSeq: Int
            let committedSeq: Int
            let moved: [String]
            let to: String
            let subprotocol: String?
            let tlsVersion: String
            let alpn: String?
        }
        let seen = try JSONDecoder().decode(Observation.self, from: Data(output.utf8))
        #expect(seen.committedSeq == seen.welcomeSeq + 1)
        #expect(seen.moved.count == 1)
        #expect(seen.subprotocol == "corkboard.v1")
        #expect(seen.tlsVersion == "TLSv1.3")
        #expect(seen.alpn == "http/1.1")
        process.value.signal(SIGTERM)
        #expect(try await BlockingWork { process.value.waitForExit() }.value == 0)
    }

    @Test func aBadCertificateOrKeyIsAOneLineErrorAtStartup() async throws {
        let other = try TestCertificate.make(in: keys.path, name: "other", serial: "B2")
        let missing = keys.path + "/missing.crt"
        // A passphrase-protected key fails at once: the server never waits at a terminal prompt.
        let encrypted = keys.path + "/encrypted.key"
        try TestCertificate.openssl(["pkey", "-in", certificate.keyPath, "-aes256", "-passout", "pass:secret", "-out", encrypted])
        let cases: [(certificate: String, key: String, message: String)] = [
            (
                missing, certificate.keyPath,
                "corkboard: error: TLS cannot be set up: certificate \(missing) cannot be read: No such file or directory (check --tls-cert and --tls-key)"
            ),
            (
                certificate.certificatePath, other.keyPath,
                "corkboard: error: TLS cannot be set up: private key \(other.keyPath) does not belong to certificate \(certificate.certificatePath) (check --tls-cert and --tls-key)"
            ),
            (
                certificate.keyPath, certificate.keyPath,
                "corkboard: error: TLS cannot be set up: certificate \(certificate.keyPath) cannot be used: no start line (check --tls-cert and --tls-key)"
            ),
            (
                certificate.certificatePath, encrypted,
                "corkboard: error: TLS cannot be set up: private key \(encrypted) cannot be used (it must be PEM, not encrypted): bad decrypt (check --tls-cert and --tls-key)"
            ),
        ]
        for (certificatePath, keyPath, message) in cases {
            let process = UncheckedSendable(try serve(certificate: certificatePath, key: keyPath))
            #expect(try await BlockingWork { process.value.waitForExit() }.value == 1)
            #expect(process.value.standardError.trimmingCharacters(in: .whitespacesAndNewlines) == message)
            #expect(process.value.standardOutput.isEmpty)
        }
    }

    @Test func aCertificateWithoutItsKeyIsBadUsage() async throws {
        let only = UncheckedSendable(
            try ServerProcess([
                "serve", "--port", "0", "--web-root", webRoot.path, "--data", data.path,
                "--tls-cert", certificate.certificatePath,
            ]))
        #expect(try await BlockingWork { only.value.waitForExit() }.value == 64)
        #expect(only.value.standardError.contains("--tls-cert needs --tls-key"))
    }

    @Test func sighupReloadsTheCertificateWithoutDroppingConnections() async throws {
        let process = UncheckedSendable(try serve())
        let port = try await BlockingWork { try Self.started(process.value) }.value
        let served = { try await BlockingWork { try TestCertificate.servedSerial(port: port) }.value }
        #expect(try await served() == "A1")

        // A client joined before the reload, trusting both certificates.
        let bundle = keys.path + "/both.pem"
        let renewed = try TestCertificate.make(in: keys.path, name: "renewed", serial: "B2")
        try (String(contentsOfFile: certificate.certificatePath, encoding: .utf8) + String(contentsOfFile: renewed.certificatePath, encoding: .utf8))
            .write(toFile: bundle, atomically: true, encoding: .utf8)
        var configuration = BoardClientConfiguration(address: try ServerAddress(url: "wss://127.0.0.1:\(port)"), board: "demo", name: "before")
        configuration.trustedCAFile = bundle
        let client = BoardClient(configuration)
        let events = client.events()
        let disconnections = Task {
            var count = 0
            for await event in events { if case .connection(.disconnected) = event { count += 1 } }
            return count
        }
        _ = try await client.connect()

        // Renew: same paths, new certificate and key, SIGHUP.
        try replace(certificate.certificatePath, with: renewed.certificatePath)
        try replace(certificate.keyPath, with: renewed.keyPath)
        process.value.signal(SIGHUP)
        #expect(try await BlockingWork { eventually(timeout: 10) { (try? TestCertificate.servedSerial(port: port)) == "B2" } }.value)
        #expect(try await moveFirstCard(client) == true)

        // A broken file at the next reload: logged, and the renewed certificate stays in use.
        try "not a certificate".write(toFile: certificate.certificatePath, atomically: true, encoding: .utf8)
        process.value.signal(SIGHUP)
        #expect(
            try await BlockingWork {
                eventually(timeout: 10) { process.value.standardError.contains("TLS certificate not reloaded, still serving the previous one") }
            }.value)
        #expect(try await served() == "B2")
        #expect(try await moveFirstCard(client) == true)

        await client.close()
        #expect(await disconnections.value == 0)
        #expect(process.value.standardError.contains("TLS certificate reloaded from \(certificate.certificatePath)"))
        process.value.signal(SIGTERM)
        #expect(try await BlockingWork { process.value.waitForExit() }.value == 0)
    }

    private func replace(_ path: String, with source: String) throws {
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: source, toPath: path)
    }

    /// Moves the board's first card to the end of its last collection; true when committed.
    private func moveFirstCard(_ client: BoardClient) async throws -> Bool {
        let board = try #require(client.board)
        let card = try #require(board.allItemIDs.first)
        let target = try #require(board.collections.last).id
        if case .committed = await client.perform(.move(sources: [card], destination: Destination(collection: target))) { return true }
        return false
    }
}
