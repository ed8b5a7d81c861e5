import Foundation
import TestSupport
import Testing

/// A SIGTERM sent the moment `corkboard serve` says it is listening stops it, every time: a
/// supervisor, or a test, may signal as soon as it reads that line. Before the signals got a
/// pipe and a queue of their own (ProcessSignals.observe), 2 to 4 starts in 100 were left
/// running, silently; a hundred starts here catch that nearly always (the old code failed
/// this test in one run of three with forty).
@Suite(.threadsOfTheirOwn) struct SignalAtStartTests {
    @Test(.runningTimeLimit(.minutes(3))) func aSIGTERMTheMomentItListensStopsItEveryTime() throws {
        for attempt in 1...100 {
            let data = try TemporaryDirectory("corkboard-signal-at-start")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ServerProcess.executablePath)
            process.arguments = ["serve", "--port", "0", "--web-root", "", "--data", data.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Read the line blocking, and signal at once: polling would let the server settle first.
            let line = Self.firstLine(of: output.fileHandleForReading)
            kill(process.processIdentifier, SIGTERM)
            let stopped = eventually(timeout: 10) { !process.isRunning }
            if !stopped { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try #require(line.hasPrefix("corkboard listening on"), "attempt \(attempt): the server said \(line.debugDescription)")
            try #require(stopped, "attempt \(attempt): still running 10 s after a SIGTERM sent as it said it was listening")
            #expect(process.terminationStatus == 0, "attempt \(attempt)")
        }
    }

    /// Up to the first newline, or what there is at the end of the output.
    private static func firstLine(of handle: FileHandle) -> String {
        var bytes = Data()
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
