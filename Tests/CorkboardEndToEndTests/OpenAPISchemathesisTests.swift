import CorkboardModel
import Foundation
import TestSupport
import Testing

/// schemathesis, driving a real `corkboard serve` from the OpenAPI document it serves at
/// `GET /api/openapi.json`, finds no answer that breaks it (docs/protocol.md#8-http-api). That
/// the document names exactly the routes the server serves is OpenAPITests'.
@Suite(.threadsOfTheirOwn) struct OpenAPISchemathesisTests {
    @Test func schemathesisFindsNothingWrong() throws {
        let python = try SchemathesisTools.python()
        // A fresh server for each seed: what a run leaves (boards, opIds already used) would
        // change the next one's answers (a repeated opId is answered with its first outcome).
        func runOnNewServer(seed: Int) throws -> (outcome: PythonTools.CommandOutcome, stillRunning: Bool) {
            let server = try ChildServer(createsBoard: false)
            var demo = HubFixture.standardBoard
            demo.id = "demo"
            try BoardAPI(port: server.port).createBoard(demo)
            return (try run(seed: seed, server: server), server.isRunning)
        }
        func run(seed: Int, server: ChildServer) throws -> PythonTools.CommandOutcome {
            let config = try server.folder.write(
                "schemathesis.toml",
                """
                # 413 (a body over 1 MiB) is a refusal too; 410 and 423 answer a request that is
                # wrong for the board's state.
                [checks.negative_data_rejection]
                expected-statuses = [400, 403, 404, 405, 409, 410, 413, 423, 429]
                """)
            // In the server's folder: schemathesis keeps a cache in its working folder.
            return try PythonTools.run(
                python.executable,
                [
                    "-m", "schemathesis.cli", "--config-file", config, "run", "http://127.0.0.1:\(server.port)/api/openapi.json",
                    "--checks", "all",
                    // Left out: positive_data_acceptance, because a request the schema allows may
                    // rightly be refused (ids are unique per board and counted in bytes, operations
                    // meet the board's state); ensure_resource_availability, because schemathesis
                    // puts an id it read from a response into the path without encoding `%` (a
                    // board created as "%2E" is then asked for as /api/boards/%2E, that is ".").
                    // OpenAPITests.anIdWithReservedCharactersIsAddressedPercentEncoded covers such ids.
                    "--exclude-checks", "positive_data_acceptance,ensure_resource_availability",
                    // The preflights answer for any id, existing or not (a page must not learn
                    // which boards exist before its request is made), which schemathesis takes
                    // for a deleted board still there. CrossOriginTests checks them.
                    "--exclude-method", "OPTIONS",
                    // The event stream never ends by itself: a request schemathesis makes to it would
                    // wait for its timeout. Its HEAD is checked; EventStreamTests check the stream.
                    "--exclude-operation-id", "streamEvents",
                    "--max-examples", "20", "--max-time", "100", "--workers", "1", "--seed", "\(seed)",
                    "--generation-database", "none", "--no-color", "--output-truncate", "true",
                ], environment: python.environment, workingDirectory: server.folder.path, timeout: 400)
        }
        // Seeds in turn, moving on only past a fault of the tool: Hypothesis 6.170's target
        // optimiser (which schemathesis always feeds) fails inside itself now and then
        // ("IndexError: Index 32 out of range" in conjecture/optimiser.py), reported as a runtime
        // error, not a check; which seed meets it changes with the document (23, then 29 did).
        // Any other failure fails the test at once.
        var (outcome, stillRunning) = try runOnNewServer(seed: 29)
        for seed in [31, 37] where !outcome.succeeded && Self.isOptimiserFault(outcome.standardOutput) {
            (outcome, stillRunning) = try runOnNewServer(seed: seed)
        }
        #expect(outcome.succeeded, "schemathesis failed:\n\(PythonTools.tail(outcome.standardOutput, lines: 120))\n\(outcome.standardError)")
        // Every operation it selected (all but the preflights and the stream) ran, whatever paths
        // other files add to the document.
        let selected = outcome.standardOutput.firstMatch(of: /Selected: (\d+)\//).map { String($0.1) } ?? "none"
        #expect(Int(selected) ?? 0 >= 18, "operations selected: \(selected)")
        #expect(
            outcome.standardOutput.contains("Tested: \(selected)\n"), "every documented operation ran:\n\(PythonTools.tail(outcome.standardOutput))")
        #expect(stillRunning)
    }

    /// Whether schemathesis failed only with Hypothesis' own IndexError in its target optimiser.
    static func isOptimiserFault(_ output: String) -> Bool {
        output.contains("conjecture/optimiser.py") && output.contains("IndexError") && output.contains("Runtime Error: 1")
            && !output.contains("Failures:")
    }
}
