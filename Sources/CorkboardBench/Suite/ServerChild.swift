import Foundation
import Glibc

/// A server child process (`EXECUTABLE serve …`) with its own temporary folder (web root and
/// `--data`), which can be stopped by a signal and started again on the same port and data:
/// what the restart scenario needs, and what `BenchTarget` starts when no URL is given.
///
/// Confinement: used from the bench's one driving thread.
public final class ServerChild {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    private let executable: String
    private let arguments: [String]
    private let folder: URL
    private var process: Process?
    /// Fixed after the first start, so that a restart listens where the clients knock.
    public private(set) var port: UInt16 = 0

    /// `executable` defaults to this process's own: `corkboard-bench`, whose `serve` is the
    /// server of `corkboard serve` (same options, same code) with the test WebSockets added.
    /// Any executable with that `serve` will do, `corkboard` itself included.
    public init(executable: String? = nil, arguments: [String]) throws {
        self.executable = try executable ?? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        self.arguments = arguments
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("corkboard-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("web"), withIntermediateDirectories: true)
        try Data("bench".utf8).write(to: folder.appendingPathComponent("web/index.html"))
    }

    deinit {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The server's `--data` folder.
    public var dataDirectory: URL { folder.appendingPathComponent("data") }
    public var processIdentifier: Int32? { process?.processIdentifier }

    /// Starts the server (on a free port the first time, on the same port afterwards) and
    /// returns once it printed its "listening" line.
    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "serve", "--port", String(port), "--log-level", "warning",
                "--web-root", folder.appendingPathComponent("web").path, "--data", dataDirectory.path,
            ] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        self.process = process
        // The child prints one line once it listens: "corkboard listening on http://HOST:PORT".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw Failure(description: "the server exited before listening") }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let portText = text.split(separator: "\n")[0].split(separator: ":").last, let port = UInt16(portText) else {
            throw Failure(description: "unexpected server output: \(text)")
        }
        self.port = port
    }

    /// Sends `signal` and waits (at most `timeout` seconds, then SIGKILL) until the server has exited.
    public func stop(signal: Int32, timeout: Double = 60) {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, signal)
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Resident memory of the running server, in bytes.
    public var residentBytes: Int? { processIdentifier.flatMap(residentBytes(of:)) }
}

/// The resident memory of process `pid`, in bytes, from /proc.
func residentBytes(of pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kilobytes * 1024
}
