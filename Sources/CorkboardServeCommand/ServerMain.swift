import CorkboardServer
import Dispatch
import Foundation
import HTTP
import Logging
import Sockets

/// The life of a server process, the same for `corkboard serve` and `corkboard-bench serve`:
/// settings from the options and the environment, logging, the server (with the routes the
/// caller adds), signals, the "listening" line, then Dispatch's main loop until a signal ends it.
public enum ServerMain {
    /// Never returns: the process exits 0 after a graceful shutdown (SIGINT, SIGTERM), 1 when
    /// the server cannot start, 64 (ArgumentParser's usage error, thrown) on an unusable setting.
    public static func run(_ arguments: ServeArguments, addingRoutes: (inout Router, ServerConfiguration) -> Void = { _, _ in }) throws
        -> Never
    {
        // Measured: about 0.8 KiB less per idle connection (docs/benchmarks.md).
        ProcessMemory.limitMallocArenas(to: 2)
        let settings = try ServeSettings.fromCommandLine(arguments.options)
        let (level, format) = (settings.logLevel, settings.logFormat)
        LoggingSystem.bootstrap { label in format.makeHandler(label: label, level: level) }
        let logger = Logger(label: "corkboard")
        ProcessSignals.ignoreBrokenPipe()

        let configuration = settings.configuration
        let server: CorkboardServer
        do {
            server = try CorkboardServer(configuration: configuration, logger: logger) { addingRoutes(&$0, configuration) }
        } catch let error as StartupError {
            fail(error)
        }
        // Signal handling is in place before the "listening" line, so a supervisor (or a test)
        // that signals as soon as it reads that line is never lost.
        let stopping = ShutdownLatch()
        // A queue of their own, not the main one (see ProcessSignals.observe).
        let signalQueue = DispatchQueue(label: "corkboard.signals")
        ProcessSignals.observe([SIGINT, SIGTERM], on: signalQueue) { _ in
            // A second signal while draining means "now".
            guard stopping.begin() else { Foundation.exit(1) }
            server.shutdown { Foundation.exit(0) }
        }
        // SIGHUP: re-read what can change without a restart (the token file, the TLS certificate), in one place.
        ProcessSignals.observe([SIGHUP], on: signalQueue) { _ in server.reload() }
        let address: SocketAddress
        do {
            address = try server.start()
        } catch let error as StartupError {
            fail(error)
        }
        // A stable line on standard output for scripts and tests that started us with port 0.
        FileHandle.standardOutput.write(Data("corkboard listening on \(server.scheme)://\(address)\n".utf8))
        dispatchMain()
    }
}

/// Remembers that shutdown began. Confinement: only touched on the queue the signals are delivered on.
final class ShutdownLatch: @unchecked Sendable {
    private var started = false
    func begin() -> Bool {
        defer { started = true }
        return !started
    }
}
