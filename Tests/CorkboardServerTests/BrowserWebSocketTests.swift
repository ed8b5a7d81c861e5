import Foundation
import Testing
import TestSupport

/// Debian's headless Chromium, a real browser that always offers permessage-deflate, opens a
/// WebSocket to `/ws/echo`, exchanges small and large (compressed) messages, and closes.
/// The page writes what it saw into the DOM, which `--dump-dom` prints.
@Suite struct BrowserWebSocketTests {
    static let page = """
        <!doctype html><title>ws check</title><body><pre id="result">pending</pre><script>
        const results = {};
        const ws = new WebSocket(`ws://${location.host}/ws/echo`, ["corkboard.v1"]);
        const messages = ["hello", "corkboard ".repeat(1000),
          JSON.stringify({type: "committed", items: Array.from({length: 3000}, (_, i) => `item-${i}`)})];
        let next = 0;
        ws.onopen = () => { results.extensions = ws.extensions; results.protocol = ws.protocol; ws.send(messages[0]); };
        ws.onmessage = (event) => {
          results["echo" + next] = event.data === messages[next];
          next += 1;
          if (next < messages.length) { ws.send(messages[next]); } else { ws.close(1000, "done"); }
        };
        ws.onerror = () => { results.error = true; };
        ws.onclose = (event) => {
          results.closeCode = event.code;
          document.getElementById("result").textContent = "RESULT=" + JSON.stringify(results);
        };
        </script>
        """

    static let chromium = "/usr/bin/chromium"

    @Test(.timeLimit(.minutes(2)))
    func chromiumExchangesCompressedMessages() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.chromium),
                     "Chromium is needed: apt-get install -y chromium (.ci/run installs it)")
        let web = try TemporaryDirectory("corkboard-web")
        try web.write("index.html", Self.page)
        let data = try TemporaryDirectory("corkboard-data")
        let server = try ServerProcess(["serve", "--port", "0", "--echo-endpoint", "--web-root", web.path, "--data", data.path])
        let port = try #require(server.waitForListeningPort())

        // Virtual time does not wait for WebSocket traffic, so a slow machine may dump the DOM
        // before the exchange ends: try a few times before calling it a failure.
        var result: [String: Any]?
        for _ in 0..<3 where result == nil {
            result = try Self.runChromium(url: "http://127.0.0.1:\(port)/")
        }
        let seen = try #require(result, "the page never finished its exchange")
        #expect(seen["protocol"] as? String == "corkboard.v1")
        #expect((seen["extensions"] as? String)?.hasPrefix("permessage-deflate") == true)
        #expect(seen["echo0"] as? Bool == true)
        #expect(seen["echo1"] as? Bool == true)
        #expect(seen["echo2"] as? Bool == true)
        #expect(seen["closeCode"] as? Int == 1000)
        #expect(seen["error"] == nil)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    /// Loads the page; returns the page's results once it wrote them, else nil.
    static func runChromium(url: String) throws -> [String: Any]? {
        let profile = try TemporaryDirectory("corkboard-chromium")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
                             "--virtual-time-budget=20000", "--run-all-compositor-stages-before-draw", "--dump-dom", url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let start = dom.range(of: "RESULT=")?.upperBound,
              let end = dom[start...].range(of: "</pre>")?.lowerBound else { return nil }
        let json = String(dom[start..<end]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    }
}
