import Foundation
import TestSupport

/// A tarball made by `scripts/release.sh`, unpacked, and what the system's tools say of its binary.
struct ReleaseTarball {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The script's build folder: the same on every run, so that only the first one builds from
    /// scratch (several minutes on two cores) and the others relink what changed; the same as
    /// the conformance tests' release build, so that a test run makes one release build.
    static let scratchPath = ReleaseBuild.scratchPath

    /// The tarball's path.
    let path: String
    /// Its one top-level folder, unpacked: `corkboard-VERSION-linux-ARCH`.
    let folder: String

    /// Runs the script from the package root with its output in `output`, then unpacks the
    /// tarball it printed into `unpackInto`.
    static func make(output: String, unpackInto: String, timeout: Double) throws -> ReleaseTarball {
        let started = Date()
        var environment = ProcessInfo.processInfo.environment
        environment["SCRATCH"] = scratchPath
        let script = PythonTools.packageRoot + "/scripts/release.sh"
        let made = try PythonTools.run(script, [output], environment: environment, workingDirectory: PythonTools.packageRoot, timeout: timeout)
        guard made.succeeded, let path = made.standardOutput.split(separator: "\n").last.map(String.init) else {
            throw Failure("release.sh failed (\(made.status)):\n\(PythonTools.tail(made.standardError))")
        }
        PythonTools.log("release.sh took \(PythonTools.seconds(since: started)):\n\(PythonTools.tail(made.standardError, lines: 40))")

        let unpacked = try PythonTools.run("/bin/tar", ["-xzf", path, "-C", unpackInto], timeout: 120)
        guard unpacked.succeeded else { throw Failure("tar -xzf \(path): \(unpacked.standardError)") }
        let entries = try FileManager.default.contentsOfDirectory(atPath: unpackInto)
        guard entries.count == 1, let top = entries.first else { throw Failure("the tarball must hold one folder, not \(entries)") }
        return ReleaseTarball(path: path, folder: unpackInto + "/" + top)
    }

    var binary: String { folder + "/bin/corkboard" }

    /// `ldd bin/corkboard`: every library the loader would map, with where it found it.
    func linkedLibraries() throws -> String {
        try Self.tool("/usr/bin/ldd", [binary])
    }

    /// `readelf -d bin/corkboard`: its NEEDED libraries and any RUNPATH/RPATH.
    func dynamicSection() throws -> String {
        try Self.tool("/usr/bin/readelf", ["-d", binary])
    }

    /// The libraries the binary itself names (NEEDED), without what those pull in.
    func neededLibraries() throws -> [String] {
        try dynamicSection().split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    private static func tool(_ executable: String, _ arguments: [String]) throws -> String {
        let outcome = try PythonTools.run(executable, arguments, timeout: 60)
        guard outcome.succeeded else { throw Failure("\(executable) \(arguments): \(outcome.standardError)") }
        return outcome.standardOutput
    }

    /// The toolchain that runs these tests: the folder above the `swift` driver's `bin`
    /// (`/opt/swift/usr` here), which holds the shared Swift runtime under `lib/swift/linux`.
    static func toolchainRoot() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/swift") {
            let driver = URL(fileURLWithPath: "\(folder)/swift").resolvingSymlinksInPath()
            return driver.deletingLastPathComponent().deletingLastPathComponent().path
        }
        throw Failure("no swift driver on PATH")
    }
}
