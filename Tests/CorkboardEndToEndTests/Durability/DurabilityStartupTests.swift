import Foundation
import TestSupport
import Testing

/// A store the server cannot trust or cannot write is refused at startup with one line
/// naming the path and exit status 1, rather than served and then failing every operation.
@Suite(.threadsOfTheirOwn) struct DurabilityStartupTests {
    let webRoot: TemporaryDirectory
    let data: TemporaryDirectory

    init() throws {
        webRoot = try durabilityWebRoot()
        data = try TemporaryDirectory("corkboard-startup")
    }

    private func serve(data path: String) throws -> ServerProcess {
        try ServerProcess(["serve", "--port", "0", "--data", path, "--no-demo", "--web-root", webRoot.path])
    }

    /// The one line on standard error, or a failure if there is more than one.
    private func oneLineError(_ process: ServerProcess, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        // `waitForExit` does not wait for the pipes: the line may still be on its way.
        _ = eventually(timeout: 5) { process.standardError.hasSuffix("\n") }
        let message = process.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!message.contains("\n"), "one line: \(message)", sourceLocation: sourceLocation)
        #expect(message.hasPrefix("corkboard: error: "), sourceLocation: sourceLocation)
        #expect(process.standardOutput.isEmpty, "never said it was listening", sourceLocation: sourceLocation)
        return message
    }

    @Test func aCorruptDatabaseIsAOneLineErrorNamingTheFile() throws {
        let garbage = Data((0..<64 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        let file = try data.write("corkboard.sqlite", garbage)
        let process = try serve(data: data.path)
        #expect(process.waitForExit() == 1)
        let message = oneLineError(process)
        #expect(message.contains(file), "names \(file): \(message)")
        #expect(message.contains("not a usable corkboard database"), "\(message)")
        // The file is left as it was, for a person to look at.
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == garbage)
    }

    /// A data path below a regular file can be neither created nor written, even by root.
    @Test func aDataPathUnderARegularFileIsAOneLineError() throws {
        let file = try data.write("plain-file", "not a folder")
        let process = try serve(data: file + "/db")
        #expect(process.waitForExit() == 1)
        let message = oneLineError(process)
        #expect(message.contains(file + "/db"), "names the path: \(message)")
    }

    /// A store written once and stopped cleanly, so a refusal is about writing, not creating.
    private func makeStore() throws {
        let first = try serve(data: data.path)
        #expect(first.waitForListeningPort() != nil)
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)
    }

    // The two chmod cases: permission bits do not stop root (CI runs as root), so there they
    // are skipped; the regular-file case above covers an unwritable path for root. Run as an
    // unprivileged user, they pass.

    @Test(.enabled(if: geteuid() != 0, "root writes through permission bits"))
    func aReadOnlyDataFolderIsAOneLineError() throws {
        try makeStore()
        #expect(chmod(data.path, 0o555) == 0)
        defer { chmod(data.path, 0o755) }
        let process = try serve(data: data.path)
        #expect(process.waitForExit() == 1)
        let message = oneLineError(process)
        #expect(message.contains(data.path), "names the folder: \(message)")
    }

    @Test(.enabled(if: geteuid() != 0, "root writes through permission bits"))
    func aReadOnlyDatabaseFileIsAOneLineErrorNamingTheFile() throws {
        try makeStore()
        let file = data.path + "/corkboard.sqlite"
        #expect(chmod(file, 0o444) == 0)
        defer { chmod(file, 0o644) }
        let process = try serve(data: data.path)
        #expect(process.waitForExit() == 1)
        let message = oneLineError(process)
        #expect(message.contains(file) && message.contains("cannot write"), "names the file: \(message)")
    }
}
