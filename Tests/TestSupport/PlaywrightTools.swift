import Foundation
import Glibc

/// Playwright for Python, which drives Debian's Chromium (`/usr/bin/chromium`) in the browser
/// tests. Installed once into `.build/python-tools/playwright/` (gitignored) like the other
/// Python tools: an install counts as ready only when its marker holds the exact recipe that
/// built it; anything else is wiped and rebuilt. Playwright's own browsers are never
/// downloaded: the scripts launch Debian's Chromium through `executable_path`.
public enum PlaywrightTools {
    /// Exact pins: Playwright 1.65.2 (its wheel carries its Node driver) and greenlet, its only
    /// dependency, at the version pip resolved for it; axe-playwright-python 0.1.8, which
    /// bundles axe-core 4.12.1 (the scenarios' accessibility check) and needs only Playwright.
    /// Installed with `--no-deps`, so nothing unpinned comes along.
    public static let requirements = ["playwright==1.65.2", "greenlet==3.5.6", "axe-playwright-python==0.1.8"]
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
        return try PythonTools.pinnedPackages(
            "Playwright", requirements, in: folder, minimumMinor: minimumPythonMinor,
            neededFor: "the browser tests drive Chromium with Playwright for Python",
            check:
                "import greenlet, playwright.sync_api, axe_playwright_python.sync_playwright; "
                + "from importlib.metadata import version; print(version('playwright'))",
            environment: runEnvironment)
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
