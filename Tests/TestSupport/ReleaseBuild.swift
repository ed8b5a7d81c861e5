import Foundation

/// An optimised `corkboard` for tests whose peer measures throughput as a side effect
/// (Autobahn's compression groups send hundreds of megabytes): built once per test run with
/// `swift build -c release` in a scratch folder of its own, so it neither waits for nor
/// disturbs the build lock of the running `swift test`.
public enum ReleaseBuild {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: Result<String, Error>?

    /// The path of the release `corkboard`, building it on first use (bounded by `timeout`).
    public static func corkboard(timeout: Double = 20 * 60) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let built { return try built.get() }
        let result = Result { try build(timeout: timeout) }
        built = result
        return try result.get()
    }

    private static func build(timeout: Double) throws -> String {
        let scratch = PythonTools.packageRoot + "/.build/release-for-tests"
        let swift = try locateSwift()
        let started = Date()
        PythonTools.log("building a release corkboard for the conformance tests in \(scratch)")
        let outcome = try PythonTools.run(
            swift, ["build", "-c", "release", "--product", "corkboard", "--scratch-path", scratch],
            environment: ProcessInfo.processInfo.environment, workingDirectory: PythonTools.packageRoot, timeout: timeout)
        guard outcome.succeeded else {
            throw PythonTools.Failure("release build failed:\n\(PythonTools.tail(outcome.standardOutput))\n\(PythonTools.tail(outcome.standardError))")
        }
        PythonTools.log("release build took \(PythonTools.seconds(since: started))")
        let binary = scratch + "/release/corkboard"
        guard FileManager.default.isExecutableFile(atPath: binary) else { throw PythonTools.Failure("no binary at \(binary)") }
        return binary
    }

    /// The `swift` driver that runs these tests (its folder is on PATH under `swift test`).
    private static func locateSwift() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") + ["/opt/swift/usr/bin", "/usr/bin"] {
            let candidate = "\(folder)/swift"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw PythonTools.Failure("cannot find the swift driver on PATH to build a release corkboard")
    }
}
