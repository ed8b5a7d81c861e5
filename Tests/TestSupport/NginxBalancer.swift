import Foundation
import Glibc

/// Debian's nginx on 127.0.0.1 in front of server nodes, configured by the repository's own
/// `examples/scale-out/nginx.conf`: only its upstream servers (the nodes' ports), its listen
/// line and its files (logs, pid, temporary folders, under a private prefix) change, so the
/// balancer the tests go through is the example users deploy.
///
/// Thread safety: `process` and `folder` are set once; `stop` may run twice (it only signals).
public final class NginxBalancer: @unchecked Sendable {
    public let port: UInt16
    private let process: DetachedProcess
    private let folder: TemporaryDirectory

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let examplePath = PythonTools.packageRoot + "/examples/scale-out/nginx.conf"

    /// nginx itself: CI installs Debian's `nginx` (.ci/run); its absence fails the test.
    public static func executable() throws -> String {
        guard let nginx = PythonTools.executableOnPath("nginx") ?? ["/usr/sbin/nginx"].first(where: FileManager.default.isExecutableFile)
        else { throw Failure(description: "nginx is not installed (apt-get install nginx; .ci/run does)") }
        return nginx
    }

    /// Starts nginx in front of `nodes` (ports on 127.0.0.1) and waits until it answers.
    public init(nodes: [UInt16], startTimeout: Double = 15) throws {
        let nginx = try Self.executable()
        folder = try TemporaryDirectory("corkboard-nginx")
        port = try PostgresCluster.freeLoopbackPort()
        let example = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
        let path = try folder.write("nginx.conf", try Self.configuration(from: example, listen: port, nodes: nodes, prefix: folder.path))
        process = try DetachedProcess.spawn(
            nginx, ["-p", folder.path + "/", "-c", path, "-e", folder.path + "/error.log"],
            environment: ProcessInfo.processInfo.environment, output: folder.path + "/output.log", newProcessGroup: true)
        // Ours, listening: nginx writes its pid file once its port is bound (another test's
        // nginx on a port both were told was free would answer the health check too).
        let pidFile = folder.path + "/nginx.pid"
        let pid = process.pid
        let answers = eventually(timeout: startTimeout) {
            (try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "\(pid)"
                && (try? BlockingClient.request(port: port, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").status)
                    == 200
        }
        guard answers else {
            let log = (try? String(contentsOfFile: folder.path + "/error.log", encoding: .utf8)) ?? ""
            stop()
            throw Failure(description: "nginx did not answer on 127.0.0.1:\(port) within \(startTimeout) s: \(PythonTools.tail(log))")
        }
    }

    /// The example with `nodes` as its upstream servers (the example's options kept), listening
    /// on `listen` (nil: the example's own line), in the foreground, its files under `prefix`.
    public static func configuration(from example: String, listen: UInt16?, nodes: [UInt16], prefix: String) throws -> String {
        var lines = example.components(separatedBy: "\n")
        let servers = lines.indices.filter { lines[$0].range(of: #"^\s*server\s+corkboard-\d+:8080"#, options: .regularExpression) != nil }
        guard let first = servers.first, let options = lines[first].components(separatedBy: ":8080").last else {
            throw Failure(description: "no upstream `server corkboard-N:8080` lines in the example")
        }
        lines[first] = nodes.map { "        server 127.0.0.1:\($0)\(options)" }.joined(separator: "\n")
        for index in servers.dropFirst().reversed() { lines.remove(at: index) }
        var text = lines.joined(separator: "\n")
        if let listen { text = text.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(listen);") }
        let files = ["pid \(prefix)/nginx.pid;", "daemon off;", getuid() == 0 ? "user root;" : nil].compactMap { $0 }
        text = text.replacingOccurrences(of: "error_log /dev/stderr notice;", with: (["error_log \(prefix)/error.log notice;"] + files).joined(separator: "\n"))
        text = text.replacingOccurrences(of: "access_log /dev/stdout;", with: "access_log off;")
        let temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map { "    \($0)_temp_path \(prefix)/\($0);" }
        return text.replacingOccurrences(of: "\nhttp {\n", with: "\nhttp {\n" + temporary.joined(separator: "\n") + "\n")
    }

    /// Stops nginx and its workers (its own process group).
    public func stop() {
        guard process.isRunning else { return }
        Glibc.kill(-process.pid, SIGKILL)
        process.waitForExit(timeout: 10)
    }

    deinit { stop() }
}
