import Foundation

/// The real `corkboard` executable (or `corkboard-bench`), run as a child process: for what only
/// a process shows (signals, exit codes, environment variables, descriptor limits, one-line errors).
public final class ServerProcess {
    public let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let collected = CollectedOutput()

    /// The `corkboard` binary built next to the test bundle (`swift test` builds every product).
    public static var executablePath: String { builtExecutable("corkboard") }

    /// The `corkboard-bench` binary built beside it: the benchmarks, and a `serve` that runs the
    /// same server with the test WebSockets `/ws/echo` and `/ws/broadcast` added.
    public static var benchExecutablePath: String { builtExecutable("corkboard-bench") }

    private static func builtExecutable(_ name: String) -> String {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
        // The test binary may sit inside a `.xctest` folder.
        if folder.pathExtension == "xctest" { folder = folder.deletingLastPathComponent() }
        return folder.appendingPathComponent(name).path
    }

    /// Starts `corkboard arguments...`; `shell` wraps it in `sh -c` (e.g. to lower `ulimit -n` first).
    /// `executable` defaults to the debug build next to the tests (`benchExecutablePath` for
    /// `corkboard-bench`; `ReleaseBuild` gives optimised ones).
    public init(
        _ arguments: [String], environment: [String: String] = [:], shellPrefix: String? = nil,
        executable: String = ServerProcess.executablePath
    ) throws {
        if let shellPrefix {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            let quoted = ([executable] + arguments).map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-c", "\(shellPrefix); exec \(quoted)"]
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        var merged = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CORKBOARD_") }
        merged.merge(environment) { $1 }
        process.environment = merged
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Each pipe is read to its end by a thread of its own, with blocking reads: a
        // `readabilityHandler` once stopped partway through a child's help on a loaded full
        // run, and the test compared a help cut short. The end may come late (another child
        // spawned meanwhile can hold a copy of a write end); what was written is read anyway.
        for (pipe, isError) in [(output, false), (errors, true)] {
            let handle = pipe.fileHandleForReading
            let collected = self.collected
            Thread.detachNewThread {
                while true {
                    let data = handle.availableData
                    collected.append(data, error: isError)
                    if data.isEmpty { return }
                }
            }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    public var standardOutput: String { collected.text(error: false) }
    public var standardError: String { collected.text(error: true) }

    /// The port from the `corkboard listening on http://HOST:PORT` line, once it is printed.
    public func waitForListeningPort(timeout: Double = 20) -> UInt16? {
        var port: UInt16?
        _ = eventually(timeout: timeout) {
            guard let line = standardOutput.split(separator: "\n").first(where: { $0.hasPrefix("corkboard listening on") }),
                let text = line.split(separator: ":").last
            else { return !process.isRunning }
            port = UInt16(text)
            return true
        }
        return port
    }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the process to exit, and for what it wrote to be read to the end (so
    /// `standardError` holds its last line); nil if it is still running after `timeout`.
    public func waitForExit(timeout: Double = 20) -> Int32? {
        guard eventually(timeout: timeout, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        _ = eventually(timeout: 5) { collected.isFinished }
        return process.terminationStatus
    }
}

/// Output read on FileHandle's queues, read back by the test.
final class CollectedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    private var outEnded = false
    private var errEnded = false

    /// An empty read is the end of that pipe.
    func append(_ data: Data, error: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if error {
            err.append(data)
            errEnded = errEnded || data.isEmpty
        } else {
            out.append(data)
            outEnded = outEnded || data.isEmpty
        }
    }

    /// Both pipes have reached their end.
    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return outEnded && errEnded
    }

    func text(error: Bool) -> String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: error ? err : out, as: UTF8.self)
    }
}
