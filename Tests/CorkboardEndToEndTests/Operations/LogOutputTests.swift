import CorkboardServer
import Foundation
import HubTestSupport
import Logging
import TestSupport
import Testing

/// What `corkboard serve` writes on standard error: text or JSON lines, and an access line
/// per HTTP request unless turned off.
@Suite(.threadsOfTheirOwn) struct LogOutputTests {
    let webRoot: TemporaryDirectory

    init() throws {
        webRoot = try TemporaryDirectory("corkboard-web")
        try webRoot.write("index.html", "<!doctype html><title>hello</title>")
    }

    /// Serves, makes two requests, stops, and returns standard error.
    private func logOfTwoRequests(_ extra: [String]) throws -> String {
        let process = try ServerProcess(["serve", "--port", "0", "--store", "memory", "--no-demo", "--web-root", webRoot.path] + extra)
        let port = try #require(process.waitForListeningPort())
        #expect(try BlockingClient.request(port: port, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        #expect(try BlockingClient.request(port: port, "GET /nothing-here?token=secret HTTP/1.1\r\nHost: t\r\n\r\n").status == 404)
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
        return process.standardError
    }

    @Test func jsonLinesWithAnAccessLinePerRequest() throws {
        let lines = try logOfTwoRequests(["--log-format", "json"]).split(separator: "\n")
        let objects = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
        for object in objects {
            #expect(object["ts"] is String && object["level"] is String && object["label"] is String && object["message"] is String)
        }
        #expect(objects.contains { $0["label"] as? String == "corkboard" && ($0["message"] as? String)?.hasPrefix("serving") == true })
        let access = objects.filter { $0["label"] as? String == "corkboard.access" }.compactMap { $0["metadata"] as? [String: Any] }
        #expect(access.count == 2)
        let health = try #require(access.first { $0["path"] as? String == "/healthz" })
        #expect(health["method"] as? String == "GET")
        // Numbers are JSON numbers, not strings (issue #33).
        #expect(health["status"] as? Int == 200 && health["bytes"] as? Int == 15, "\(health)")
        #expect((health["remote"] as? String)?.hasPrefix("127.0.0.1:") == true)
        #expect(health["duration_ms"] as? Double != nil)
        // The query is not logged: it may carry what the log should not keep.
        #expect(access.contains { $0["path"] as? String == "/nothing-here" && $0["status"] as? Int == 404 })
        #expect(!lines.contains { $0.contains("secret") })
    }

    @Test func textIsTheDefault() throws {
        let log = try logOfTwoRequests([])
        #expect(log.contains("info corkboard.access:"))
        #expect(log.contains("GET /healthz 200"))
        #expect(!log.hasPrefix("{"))
    }

    @Test func theAccessLogCanBeTurnedOff() throws {
        let log = try logOfTwoRequests(["--access-log", "off"])
        #expect(log.contains("serving"))
        #expect(!log.contains("corkboard.access"))
    }

    @Test func unknownFormatsAreRefused() throws {
        var options = ServeOptions()
        options.logFormat = "xml"
        #expect(throws: ServeSettingError.unknownLogFormat("xml")) { try ServeSettings(options: options, environment: EnvironmentSettings([:])) }
        #expect(throws: ServeSettingError.unknownAccessLog("maybe")) {
            try ServeSettings(options: ServeOptions(), environment: EnvironmentSettings(["CORKBOARD_ACCESS_LOG": "maybe"]))
        }
        let fromVariables = try ServeSettings(
            options: ServeOptions(), environment: EnvironmentSettings(["CORKBOARD_LOG_FORMAT": "json", "CORKBOARD_ACCESS_LOG": "off"]))
        #expect(fromVariables.logFormat == .json && !fromVariables.configuration.accessLog)
    }

    @Test func jsonHandlerEscapesAndNestsMetadata() throws {
        let lines = Locked<[String]>([])
        var logger = Logger(label: "unit") { label in JSONLogHandler(label: label, level: .debug) { line in lines.withLock { $0.append(line) } } }
        logger[metadataKey: "board"] = "b\"1"
        logger.debug("two\nlines", metadata: ["nested": ["list": ["a", "b"]], "board": "override"])
        logger.trace("below the level")
        let written = lines.withLock { $0 }
        #expect(written.count == 1)
        #expect(written.first?.hasSuffix("}\n") == true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data((written.first ?? "").utf8)) as? [String: Any])
        #expect(object["message"] as? String == "two\nlines")
        #expect(object["level"] as? String == "debug" && object["label"] as? String == "unit")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["board"] as? String == "override")
        #expect((metadata["nested"] as? [String: Any])?["list"] as? [String] == ["a", "b"])
        #expect((object["ts"] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
    }
}
