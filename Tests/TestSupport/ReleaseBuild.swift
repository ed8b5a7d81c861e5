import Foundation

/// An optimised `corkboard-bench` for tests whose peer measures throughput as a side effect
/// (Autobahn's compression groups send hundreds of megabytes through `corkboard-bench serve`):
/// built once per test run with `swift build -c release` in a scratch folder of its own, so
/// it neither waits for nor disturbs the build lock of the running `swift test`.
///
/// It is the build `scripts/release.sh` makes (same folder, same options, which
/// ReleaseTarballTests check): CI then builds one release, not two, and whichever of the two
/// comes second waits on SwiftPM's lock of the folder and finds everything built: the bench,
/// built with release.sh's options for its own product, compiles only its own modules on top.
public enum ReleaseBuild {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: [String: Result<String, Error>] = [:]

    /// The scratch folder, kept between runs so that only the first builds from nothing.
    public static let scratchPath = PythonTools.packageRoot + "/.build/release-static"
    /// `swift build`'s options as release.sh gives them (the Swift runtime linked in, no RUNPATH).
    public static let options = buildOptions(product: "corkboard")

    /// The same options for any product of the package.
    static func buildOptions(product: String) -> [String] {
        ["-c", "release", "--static-swift-stdlib", "--disable-local-rpath", "--product", product]
    }

    /// The path of the release `corkboard-bench`, building it on first use (bounded by `timeout`).
    public static func corkboardBench(timeout: Double = 20 * 60) throws -> String {
        try product("corkboard-bench", timeout: timeout)
    }

    private static func product(_ name: String, timeout: Double) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let result = built[name] { return try result.get() }
        let result = Result { try build(name, timeout: timeout) }
        built[name] = result
        return try result.get()
    }

    private static func build(_ product: String, timeout: Double) throws -> String {
        let scratch = scratchPath
        let swift = try locateSwift()
        let started = Date()
        PythonTools.log("building a release \(product) for the conformance tests in \(scratch)")
        let outcome = try PythonTools.run(
            swift, ["build"] + buildOptions(product: product) + ["--scratch-path", scratch],
            environment: ProcessInfo.processInfo.environment, workingDirectory: PythonTools.packageRoot, timeout: timeout)
        guard outcome.succeeded else {
            throw PythonTools.Failure("release build failed:\n\(PythonTools.tail(outcome.standardOutput))\n\(PythonTools.tail(outcome.standardError))")
        }
        PythonTools.log("release build took \(PythonTools.seconds(since: started))")
        let binary = scratch + "/release/" + product
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
        throw PythonTools.Failure("cannot find the swift driver on PATH to build a release")
    }
}
