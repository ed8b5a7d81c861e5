import Foundation
import Glibc

/// Playwright for Python, which drives Debian's Chromium (`/usr/bin/chromium`) in the browser
/// tests. Installed once into `.build/python-tools/playwright/` (gitignored) like the other
/// Python tools: an install counts as ready only when its marker holds the exact recipe that
/// built it; anything else is wiped and rebuilt. Playwright's own browsers are never
/// downloaded: the scripts launch Debian's Chromium through `executable_path`.
public enum PlaywrightTools {
    /// Exact pins: Playwright 1.65.2 (its wheel carries its Node driver) and greenlet, its only
    /// dependency, at the version pip resolved for it. Installed with `--no-deps`, so nothing
    /// unpinned comes along.
    public static let requirements = ["playwright==1.65.2", "greenlet==3.5.6"]
    /// Playwright 1.65 needs Python 3.10 or newer.
    public static let minimumPythonMinor = 10
    /// Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it).
    public static let chromium = "/usr/bin/chromium"

    /// The folder of the install.
    public static let folder = PythonTools.cacheRoot + "/playwright"

    /// A Python 3 interpreter (the `python3` on PATH) whose PYTHONPATH holds Playwright,
    /// installing it first if needed. Throws (never skips) when something is missing.
    public static func python() throws -> PythonInterpreter {
        guard FileManager.default.isExecutableFile(atPath: chromium) else {
            throw PythonTools.Failure("no \(chromium): the browser tests need Debian's Chromium (apt-get install -y chromium)")
        }
        guard let python3 = executableOnPath("python3") else {
            throw PythonTools.Failure("no python3 on PATH: the browser tests drive Chromium with Playwright for Python")
        }
        let (real, version) = try interpreter(python3)
        let minor = Int(version.split(separator: ".").last ?? "") ?? 0
        guard version.hasPrefix("3."), minor >= minimumPythonMinor else {
            throw PythonTools.Failure("\(real) is Python \(version); Playwright needs Python 3.\(minimumPythonMinor) or newer")
        }
        let packages = folder + "/site-packages"
        try withLock(named: "playwright") {
            // Keyed on the version: greenlet is a C extension built for one minor version.
            let recipe = (["python \(version)"] + requirements).joined(separator: "\n")
            if (try? String(contentsOfFile: folder + "/READY", encoding: .utf8)) == recipe { return }
            if FileManager.default.fileExists(atPath: folder) { try FileManager.default.removeItem(atPath: folder) }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let started = Date()
            PythonTools.log("installing \(requirements.joined(separator: " ")) for \(real) (Python \(version)) into \(packages) (once; later runs reuse it)")
            // --target keeps the interpreter's own site-packages untouched (and is allowed on
            // Debian's externally managed Python, unlike a plain install).
            try step("playwright", real,
                     ["-m", "pip", "install", "--no-deps", "--no-warn-script-location", "--target", packages] + requirements,
                     environment: installEnvironment(), timeout: 600)
            var checkEnvironment = runEnvironment(packages)
            checkEnvironment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
            let installed = try step("check", real,
                                     ["-c", "import greenlet, playwright.sync_api; from importlib.metadata import version; print(version('playwright'))"],
                                     environment: checkEnvironment, timeout: 60)
            PythonTools.log("Playwright \(installed.trimmingCharacters(in: .whitespacesAndNewlines)) ready in \(PythonTools.seconds(since: started))")
            try recipe.write(toFile: folder + "/READY", atomically: true, encoding: .utf8)
        }
        return PythonInterpreter(executable: real, environment: runEnvironment(packages))
    }

    // MARK: - Internals (PythonTools keeps its own private; these are the same rules)

    private static func runEnvironment(_ packages: String) -> [String: String] {
        var environment = PythonTools.cleanEnvironment()
        environment["PYTHONPATH"] = packages
        // Never fetch Playwright's browsers, and keep its driver's files out of the home folder.
        environment["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"] = "1"
        environment["PLAYWRIGHT_BROWSERS_PATH"] = folder + "/browsers-unused"
        return environment
    }

    private static func installEnvironment() -> [String: String] {
        var environment = PythonTools.cleanEnvironment()
        environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        environment["PIP_NO_INPUT"] = "1"
        return environment
    }

    /// One install step: bounded, timed, logged; its output is kept in `folder/<name>.log`.
    @discardableResult
    private static func step(_ name: String, _ executable: String, _ arguments: [String],
                             environment: [String: String], timeout: Double) throws -> String {
        let started = Date()
        let outcome = try PythonTools.run(executable, arguments, environment: environment, timeout: timeout,
                                          outputFile: folder + "/\(name).log")
        guard outcome.succeeded else {
            throw PythonTools.Failure("""
                installing Playwright failed at step '\(name)' (exit \(outcome.status)): \
                \(executable) \(arguments.joined(separator: " "))
                \(PythonTools.tail(outcome.standardOutput))
                \(PythonTools.tail(outcome.standardError))
                """)
        }
        PythonTools.log("  \(name): done in \(PythonTools.seconds(since: started))")
        return outcome.standardOutput
    }

    /// flock on a file of its own, one open description per call (so two threads of one process
    /// exclude each other too), bounded.
    private static func withLock(named name: String, timeout: Double = 1200, _ body: () throws -> Void) throws {
        try FileManager.default.createDirectory(atPath: PythonTools.cacheRoot, withIntermediateDirectories: true)
        let path = PythonTools.cacheRoot + "/\(name).lock"
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PythonTools.Failure("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard eventually(timeout: timeout, { flock(descriptor, LOCK_EX | LOCK_NB) == 0 }) else {
            throw PythonTools.Failure("waited \(Int(timeout)) s for \(path): another install is stuck")
        }
        defer { flock(descriptor, LOCK_UN) }
        try body()
    }

    /// The interpreter's real path (resolving pyenv shims) and its `major.minor` version.
    private static func interpreter(_ candidate: String) throws -> (path: String, version: String) {
        let outcome = try PythonTools.run(candidate, ["-c", "import sys; print('%d.%d %s' % (sys.version_info[0], sys.version_info[1], sys.executable))"],
                                          timeout: 30)
        let words = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 1)
        guard outcome.succeeded, words.count == 2 else {
            throw PythonTools.Failure("\(candidate) is not a working Python: \(outcome.standardOutput) \(outcome.standardError)")
        }
        return (String(words[1]), String(words[0]))
    }

    private static func executableOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
