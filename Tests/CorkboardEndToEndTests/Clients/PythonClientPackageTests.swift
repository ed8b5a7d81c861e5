import CorkboardServer
import Foundation
import TestSupport
import Testing

/// The Python client package (`clients/python`), installed as its README says into a virtualenv
/// of its own, checked with mypy, and its unittest suite run against a real `corkboard serve`
/// with a token secret: signed tokens, operations and outcomes, resume across cut connections,
/// the token lifecycle against a scripted fake server, and every shared replica fixture.
@Suite(.threadsOfTheirOwn) struct PythonClientPackageTests {
    static let package = PythonTools.packageRoot + "/clients/python"
    static let secret = "python-client-package-tests-secret-of-32-bytes-or-more"

    /// The package is released with the server: pyproject.toml's version is the server's, and so
    /// is what the installed package says.
    @Test func thePackagesVersionIsTheServers() throws {
        let pyproject = try String(contentsOfFile: Self.package + "/pyproject.toml", encoding: .utf8)
        let versions = pyproject.split(separator: "\n").filter { $0.hasPrefix("version") }
        #expect(versions == ["version = \"\(CorkboardVersion.current)\""], "clients/python/pyproject.toml")

        let python = try PythonTools.clientPackagePython()
        let installed = try python.run(["-c", "import corkboard; print(corkboard.__version__)"], timeout: 60)
        #expect(installed.standardOutput == CorkboardVersion.current + "\n", "\(installed.standardError)")
    }

    /// The type hints hold: `mypy --strict` over the package's sources finds nothing.
    @Test func theSourcesPassMypyStrict() throws {
        let python = try PythonTools.clientPackagePython()
        let run = try PythonTools.run(
            python.executable,
            ["-m", "mypy", "--strict", "--cache-dir", PythonTools.cacheRoot + "/mypy-cache", "src"],
            environment: python.environment, workingDirectory: Self.package, timeout: 300)
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
    }

    @Test func thePackagesTestsPassAgainstARealServer() throws {
        let python = try PythonTools.clientPackagePython()
        let server = try ServerProcess([
            "serve", "--port", "0", "--no-demo", "--store", "memory", "--web-root", "", "--token-secret", Self.secret,
        ])
        defer {
            server.signal(SIGTERM)
            _ = server.waitForExit()
        }
        let port = try #require(server.waitForListeningPort())
        var environment = python.environment
        environment["CORKBOARD_TEST_SERVER"] = "http://127.0.0.1:\(port)"
        environment["CORKBOARD_TEST_TOKEN_SECRET"] = Self.secret
        let run = try PythonTools.run(
            python.executable, ["-m", "unittest", "discover", "-s", "tests", "-t", "tests", "-v"],
            environment: environment, workingDirectory: Self.package, timeout: 300)
        // unittest reports on standard error: "Ran N tests", then "OK" (with "skipped=" when any was).
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(!run.standardError.contains("skipped"), "every test ran: \(run.standardError)")
        for suite in ["test_live_server", "test_token_lifecycle", "test_snapshots", "test_replica_fixtures"] {
            #expect(run.standardError.contains("(\(suite)."), "\(suite) ran")
        }
    }
}
