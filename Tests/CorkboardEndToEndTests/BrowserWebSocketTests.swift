import Foundation
import Glibc
import Sockets
import TestSupport
import Testing

/// Debian's headless Chromium, a real browser that always offers permessage-deflate, opens a
/// WebSocket to `/ws/echo` of `corkboard-bench serve`, exchanges small and large (compressed) messages, and closes. The
/// page then reports what it saw to a one-shot listener of the test's: waiting on a real
/// request, not on Chromium's virtual clock, keeps the test right on a loaded machine.
@Suite(.threadsOfTheirOwn) struct BrowserWebSocketTests {
    static let page = """
        <!doctype html><title>ws check</title><body><script>
        const reportPort = new URLSearchParams(location.search).get("report");
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
          fetch(`http://127.0.0.1:${reportPort}/report?` + encodeURIComponent(JSON.stringify(results)), {mode: "no-cors"});
        };
        </script>
        """

    static let chromium = "/usr/bin/chromium"

    @Test(.runningTimeLimit(.minutes(2)))
    func chromiumExchangesCompressedMessages() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.chromium),
            "Chromium is needed: apt-get install -y chromium (.ci/run installs it)")
        let web = try TemporaryDirectory("corkboard-web")
        try web.write("index.html", Self.page)
        let data = try TemporaryDirectory("corkboard-data")
        // The test WebSockets are `corkboard-bench serve`'s, never the production server's.
        let server = try ServerProcess(
            ["serve", "--port", "0", "--web-root", web.path, "--data", data.path], executable: ServerProcess.benchExecutablePath)
        let port = try #require(server.waitForListeningPort())

        let receiver = try ReportReceiver()
        let profile = try TemporaryDirectory("corkboard-chromium")
        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: Self.chromium)
        browser.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
            "http://127.0.0.1:\(port)/?report=\(receiver.port)",
        ]
        browser.standardOutput = FileHandle.nullDevice
        browser.standardError = FileHandle.nullDevice
        try browser.run()
        defer {
            browser.terminate()
            browser.waitUntilExit()
        }

        let report = try #require(receiver.waitForReport(timeout: 60), "the page never reported back")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
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
}

/// Accepts one HTTP request on a loopback port and keeps its (decoded) query string.
private final class ReportReceiver {
    let socket: Socket
    let port: UInt16

    init() throws {
        let address = try #require(try SocketAddress.resolve(host: "127.0.0.1", port: 0).first)
        socket = try Socket.tcp(family: address.family)
        try socket.bind(to: address)
        try socket.listen(backlog: 8)
        port = try socket.localAddress().port
    }

    deinit { socket.close() }

    func waitForReport(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var watch = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&watch, 1, 200) > 0, case .accepted(let client, _) = socket.accept() else { continue }
            defer { client.close() }
            var request: [UInt8] = []
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
            defer { buffer.deallocate() }
            while !request.contains(UInt8(ascii: "\n")) && Date() < deadline {
                var readable = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
                guard poll(&readable, 1, 200) > 0 else { continue }
                guard case .transferred(let count) = client.read(into: buffer) else { break }
                request += buffer[0..<count]
            }
            let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
            let reply = Array("HTTP/1.1 204 No Content\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n".utf8)
            _ = reply.withUnsafeBytes { client.send($0) }
            guard line.hasPrefix("GET /report?"), let target = line.split(separator: " ").dropFirst().first,
                let query = target.split(separator: "?", maxSplits: 1).last
            else { continue }
            return String(query).removingPercentEncoding
        }
        return nil
    }
}
