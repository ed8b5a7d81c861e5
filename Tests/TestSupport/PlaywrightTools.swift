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
        guard let python3 = PythonTools.executableOnPath("python3") else {
            throw PythonTools.Failure("no python3 on PATH: the browser tests drive Chromium with Playwright for Python")
        }
        let (real, version) = try PythonTools.interpreter(python3)
        let minor = Int(version.split(separator: ".").last ?? "") ?? 0
        guard version.hasPrefix("3."), minor >= minimumPythonMinor else {
            throw PythonTools.Failure("\(real) is Python \(version); Playwright needs Python 3.\(minimumPythonMinor) or newer")
        }
        let packages = folder + "/site-packages"
        try PythonTools.withLock(named: "playwright") {
            // Keyed on the version: greenlet is a C extension built for one minor version.
            let recipe = (["python \(version)"] + requirements).joined(separator: "\n")
            if PythonTools.isReady(folder, recipe: recipe) { return }
            try PythonTools.prepareEmpty(folder)
            let started = Date()
            PythonTools.log("installing \(requirements.joined(separator: " ")) for \(real) (Python \(version)) into \(packages) (once; later runs reuse it)")
            // --target keeps the interpreter's own site-packages untouched (and is allowed on
            // Debian's externally managed Python, unlike a plain install).
            try PythonTools.step(
                "playwright", in: folder, real,
                ["-m", "pip", "install", "--no-deps", "--no-warn-script-location", "--target", packages] + requirements,
                environment: PythonTools.installEnvironment(), timeout: 600)
            var checkEnvironment = runEnvironment(packages)
            checkEnvironment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
            let installed = try PythonTools.step(
                "check", in: folder, real,
                ["-c", "import greenlet, playwright.sync_api; from importlib.metadata import version; print(version('playwright'))"],
                environment: checkEnvironment, timeout: 60)
            PythonTools.log("Playwright \(installed.trimmingCharacters(in: .whitespacesAndNewlines)) ready in \(PythonTools.seconds(since: started))")
            try PythonTools.markReady(folder, recipe: recipe)
        }
        return PythonInterpreter(executable: real, environment: runEnvironment(packages))
    }

    // MARK: - Internals

    private static func runEnvironment(_ packages: String) -> [String: String] {
        var environment = PythonTools.cleanEnvironment()
        environment["PYTHONPATH"] = packages
        // Never fetch Playwright's browsers, and keep its driver's files out of the home folder.
        environment["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"] = "1"
        environment["PLAYWRIGHT_BROWSERS_PATH"] = folder + "/browsers-unused"
        return environment
    }
}
