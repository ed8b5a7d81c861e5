import Foundation

/// An optimised `corkboard` for tests whose peer measures throughput as a side effect
/// (Autobahn's compression groups send hundreds of megabytes): built once per test run with
/// `swift build -c release` in a scratch folder of its own, so it neither waits for nor
/// disturbs the build lock of the running `swift test`.
///
/// It is the build `scripts/release.sh` makes (same folder, same options, which
/// ReleaseTarballTests check): CI then builds one release, not two, and whichever of the two
/// comes second waits on SwiftPM's lock of the folder and finds everything built.
public enum ReleaseBuild {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: Result<String, Error>?

    /// The scratch folder, kept between runs so that only the first builds from nothing.
    public static let scratchPath = PythonTools.packageRoot + "/.build/release-static"
    /// `swift build`'s options as release.sh gives them (the Swift runtime linked in, no RUNPATH).
    public static let options = ["-c", "release", "--static-swift-stdlib", "--disable-local-rpath", "--product", "corkboard"]

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
        let scratch = scratchPath
        let swift = try locateSwift()
        let started = Date()
        PythonTools.log("building a release corkboard for the conformance tests in \(scratch)")
        let outcome = try PythonTools.run(
            swift, ["build"] + options + ["--scratch-path", scratch],
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
