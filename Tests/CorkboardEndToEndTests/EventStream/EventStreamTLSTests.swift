import Foundation
import TestSupport
import Testing

/// An event stream over HTTPS, read by curl as an integration would: the TLS layer carries
/// the chunked stream as it carries any response.
@Suite(.threadsOfTheirOwn) struct EventStreamTLSTests {
    @Test func curlFollowsABoardOverHTTPS() async throws {
        let webRoot = try TemporaryDirectory("corkboard-web")
        let data = try TemporaryDirectory("corkboard-data")
        let keys = try TemporaryDirectory("corkboard-keys")
        let certificate = try TestCertificate.make(in: keys.path, name: "server", serial: "E5")
        let process = UncheckedSendable(
            try ServerProcess([
                "serve", "--port", "0", "--web-root", webRoot.path, "--data", data.path, "--store", "memory",
                "--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath,
            ]))
        let output = try await BlockingWork { () throws -> String in
            guard let port = process.value.waitForListeningPort() else {
                throw PythonTools.Failure("the server did not start: \(process.value.standardError)")
            }
            guard let curl = PythonTools.executableOnPath("curl") else { throw PythonTools.Failure("no curl on PATH") }
            // The stream never ends by itself: curl stops after a few seconds, having printed what came.
            let outcome = try PythonTools.run(
                curl,
                ["-sS", "-N", "--max-time", "3", "--cacert", certificate.certificatePath, "https://127.0.0.1:\(port)/api/boards/demo/events"],
                timeout: 30)
            return outcome.standardOutput
        }.value
        #expect(output.hasPrefix("retry: 3000\n\nid: 0\nevent: reset\ndata: {"), "\(output.prefix(300))")
        #expect(output.contains(#""id":"demo""#))
    }
}
