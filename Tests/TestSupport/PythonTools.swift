import Foundation
import Glibc

/// The Python environments some tests drive: Autobahn|Testsuite (`wstest`, Python 2.7 only)
/// and Python 3 with the `websockets` package. Each is installed once into the package's
/// `.build/python-tools/` (gitignored), so a fresh clone sets itself up and later runs reuse it.
/// An environment counts as ready only when its marker file holds the exact recipe that built
/// it; anything else (no marker, an older recipe, an interrupted install) is wiped and rebuilt.
public enum PythonTools {
    /// Exact pins, so every machine installs what was validated. autobahntestsuite 25.10.1 itself
    /// pins Twisted, autobahn[accelerate,twisted], pyOpenSSL, cryptography (3.3.2: the last with
    /// cp27 wheels, so no Rust) and others; the rest are what pip resolved for them on Python 2.7.
    /// wsaccel (from autobahn's `accelerate` extra) is a C extension built with the system compiler:
    /// native UTF-8 validation and masking for wstest.
    public static let autobahnRequirements = [
        "autobahntestsuite==25.10.1", "autobahn==0.10.9", "txaio==2.1.0", "wsaccel==0.6.6", "ujson==2.0.3",
        "Twisted==19.10.0", "zope.interface==4.6.0", "Automat==22.10.0", "attrs==21.4.0", "constantly==15.1.0",
        "incremental==16.10.1", "hyperlink==21.0.0", "idna==2.10", "PyHamcrest==1.10.1", "typing==3.10.0.0",
        "pyOpenSSL==19.1.0", "cryptography==3.3.2", "cffi==1.15.1", "pycparser==2.21", "enum34==1.1.10",
        "ipaddress==1.0.23", "service-identity==18.1.0", "pyasn1==0.5.1", "pyasn1-modules==0.3.0",
        "klein==17.10.0", "Werkzeug==1.0.1", "Jinja2==2.11.3", "MarkupSafe==1.1.1", "six==1.16.0",
        "unittest2==1.1.0", "traceback2==1.4.0", "linecache2==1.0.0", "argparse==1.4.0", "setuptools==44.0.0",
    ]
    /// virtualenv 20.15.1 is the last release that runs on Python 2.7.
    public static let virtualenvRequirement = "virtualenv==20.15.1"
    /// websockets 15 needs Python 3.9 or newer.
    public static let websocketsRequirement = "websockets==15.0.1"

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// The package's root folder, found from this file's place in `Tests/TestSupport/`.
    public static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Where the environments (and tools' reports) live: inside `.build/`, never committed.
    public static let cacheRoot = packageRoot + "/.build/python-tools"

    // MARK: - Autobahn|Testsuite

    /// Autobahn|Testsuite's `wstest` and the Python 2.7 of its virtualenv (to import the suite),
    /// installing them first if needed. Throws (never skips) when the machine has no Python 2.7:
    /// the conformance run is required.
    public static func autobahnTestsuite() throws -> AutobahnTestsuite {
        let folder = cacheRoot + "/autobahn-py27"
        let wstest = folder + "/venv/bin/wstest"
        try withLock(named: "autobahn-py27") {
            let python2 = try findPython27()
            let recipe = (["interpreter \(python2)", virtualenvRequirement] + autobahnRequirements).joined(separator: "\n")
            if isReady(folder, recipe: recipe) { return }
            try prepareEmpty(folder)
            let started = Date()
            log("installing Autobahn|Testsuite for \(python2) into \(folder) (once; later runs reuse it)")
            let environment = installEnvironment()
            try step(
                "virtualenv", in: folder, python2,
                ["-m", "pip", "install", "--no-warn-script-location", "--target", folder + "/bootstrap", virtualenvRequirement],
                environment: environment)
            var withBootstrap = environment
            withBootstrap["PYTHONPATH"] = folder + "/bootstrap"
            // --no-download: seed pip/setuptools/wheel from virtualenv's bundled copies;
            // --app-data: keep virtualenv's cache here rather than in the home folder.
            try step(
                "venv", in: folder, python2,
                [
                    "-m", "virtualenv", "--no-download", "--no-periodic-update", "--app-data", folder + "/virtualenv-app-data",
                    folder + "/venv",
                ],
                environment: withBootstrap)
            try step(
                "autobahntestsuite", in: folder, folder + "/venv/bin/python",
                ["-m", "pip", "install"] + autobahnRequirements, environment: environment)
            let version = try step("check", in: folder, wstest, ["--autobahnversion"], environment: environment, timeout: 60)
            log("Autobahn|Testsuite ready in \(seconds(since: started)): \(version.trimmingCharacters(in: .whitespacesAndNewlines))")
            try markReady(folder, recipe: recipe)
        }
        return AutobahnTestsuite(
            wstest: wstest,
            python: PythonInterpreter(
                executable: folder + "/venv/bin/python",
                environment: cleanEnvironment()))
    }

    /// Python 2.7 from pyenv (`$(pyenv root)/versions/2.7.18`, as the CI machines have it), else
    /// `python2.7` on PATH. The error says what to install, since the test must fail, not skip.
    public static func findPython27() throws -> String {
        var candidates: [String] = []
        for root in pyenvRoots() {
            candidates.append(root + "/versions/2.7.18/bin/python2.7")
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: root + "/versions")) ?? []
            candidates += versions.filter { $0.hasPrefix("2.7") }.sorted().reversed().map { root + "/versions/\($0)/bin/python2.7" }
        }
        if let onPath = executableOnPath("python2.7") { candidates.append(onPath) }
        candidates = candidates.reduce(into: []) { unique, path in if !unique.contains(path) { unique.append(path) } }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            if let real = try? interpreterPath(candidate, requiring: "2.7") { return real }
        }
        throw Failure(
            """
            NO PYTHON 2.7 ON THIS MACHINE: Autobahn|Testsuite (wstest) runs only on Python 2.7, and the \
            WebSocket conformance run is required, so this test fails instead of skipping. Looked at: \
            \(candidates.isEmpty ? "(no pyenv root, no python2.7 on PATH)" : candidates.joined(separator: ", ")). \
            Install it with `pyenv install 2.7.18` (or put a `python2.7` with pip on PATH).
            """)
    }

    // MARK: - Python 3 with websockets

    /// A Python 3 interpreter (the `python3` on PATH) whose PYTHONPATH holds `websockets`.
    public static func websocketsPython() throws -> PythonInterpreter {
        guard let python3 = executableOnPath("python3") else {
            throw Failure("no python3 on PATH: the WebSocket client tests drive the Python `websockets` package")
        }
        let real = try interpreterPath(python3, requiring: "3")
        let version = try run(real, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], timeout: 30).standardOutput
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let minor = Int(version.split(separator: ".").last ?? "") ?? 0
        guard minor >= 9 else {
            throw Failure("\(real) is Python \(version); \(websocketsRequirement) needs Python 3.9 or newer")
        }
        let folder = cacheRoot + "/websockets-py\(version)"
        let packages = folder + "/site-packages"
        try withLock(named: "websockets-py\(version)") {
            // Keyed on the version, not the path: any 3.x interpreter of that version can import
            // these files (websockets' C speedups are built per minor version).
            let recipe = "python \(version)\n\(websocketsRequirement)"
            if isReady(folder, recipe: recipe) { return }
            try prepareEmpty(folder)
            let started = Date()
            log("installing \(websocketsRequirement) for \(real) (Python \(version)) into \(packages)")
            // --target keeps the interpreter's own site-packages untouched (and is allowed on
            // Debian's externally managed Python, unlike a plain install).
            try step(
                "websockets", in: folder, real,
                ["-m", "pip", "install", "--no-warn-script-location", "--target", packages, websocketsRequirement],
                environment: installEnvironment())
            var checkEnvironment = installEnvironment()
            checkEnvironment["PYTHONPATH"] = packages
            let installed = try step(
                "check", in: folder, real, ["-c", "import websockets; print(websockets.__version__)"],
                environment: checkEnvironment, timeout: 60)
            log("websockets \(installed.trimmingCharacters(in: .whitespacesAndNewlines)) ready in \(seconds(since: started))")
            try markReady(folder, recipe: recipe)
        }
        var environment = cleanEnvironment()
        environment["PYTHONPATH"] = packages
        return PythonInterpreter(executable: real, environment: environment)
    }

    // MARK: - Running commands with a time bound

    public struct CommandOutcome: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
        public var succeeded: Bool { status == 0 }
    }

    /// Runs a command to completion, its output going to files (a pipe nobody drains would
    /// block a chatty child). After `timeout` seconds its whole process group (Foundation makes
    /// each child a group leader) gets SIGTERM, then SIGKILL, and this throws.
    /// `outputFile` keeps standard output there (e.g. a log CI can look at); `whileRunning` is
    /// called about every `heartbeat` seconds with the output so far (for progress lines).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        workingDirectory: String? = nil, timeout: Double, outputFile: String? = nil,
        heartbeat: Double = 30, whileRunning: ((String) -> Void)? = nil
    ) throws -> CommandOutcome {
        let scratch = try TemporaryDirectory("corkboard-command")
        let outputPath = outputFile ?? scratch.path + "/stdout"
        let errorPath = scratch.path + "/stderr"
        for path in [outputPath, errorPath] {
            guard FileManager.default.createFile(atPath: path, contents: nil) else { throw Failure("cannot create \(path)") }
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        defer {
            try? output.close()
            try? errors.close()
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment ?? cleanEnvironment()
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()

        let deadline = Date().addingTimeInterval(timeout)
        var nextHeartbeat = Date().addingTimeInterval(heartbeat)
        while process.isRunning && Date() < deadline {
            if let status = exitStatusOfUnnoticedExit(process.processIdentifier) {
                return CommandOutcome(status: status, standardOutput: readText(outputPath), standardError: readText(errorPath))
            }
            usleep(20_000)
            if let whileRunning, Date() >= nextHeartbeat {
                whileRunning(readText(outputPath))
                nextHeartbeat = Date().addingTimeInterval(heartbeat)
            }
        }
        if process.isRunning {
            let group = -process.processIdentifier
            kill(group, SIGTERM)
            if !eventually(timeout: 5, { !process.isRunning }) { kill(group, SIGKILL) }
            process.waitUntilExit()
            throw Failure(
                """
                timed out after \(Int(timeout)) s and was killed: \(executable) \(arguments.joined(separator: " "))
                --- last output:
                \(tail(readText(outputPath)))
                \(tail(readText(errorPath)))
                """)
        }
        process.waitUntilExit()
        return CommandOutcome(
            status: process.terminationStatus, standardOutput: readText(outputPath),
            standardError: readText(errorPath))
    }

    /// The exit status of a child that has exited but that Foundation has not noticed yet (a
    /// zombie), from its wait status in `/proc/PID/stat` (field 52); nil while it runs.
    ///
    /// Why: Foundation notices a child's exit when a socket it shares with the child closes. A
    /// long-lived child that another test starts meanwhile (Autobahn's `wstest`, a release
    /// build) inherits that socket and keeps it open, and `isRunning` stays true until that
    /// other child ends: on CI a `createdb` that had long finished was killed at its 60 s timeout.
    static func exitStatusOfUnnoticedExit(_ pid: pid_t) -> Int32? {
        // The state is field 3 of the whole line, the wait status field 52.
        guard let fields = procStatFields(pid), fields.count > 49, fields[0] == "Z", let wait = Int32(fields[49]) else { return nil }
        // WIFEXITED / WEXITSTATUS; a death by signal reads as 128 + its number, as in a shell.
        return wait & 0x7F == 0 ? (wait >> 8) & 0xFF : 128 + wait & 0x7F
    }

    /// The inherited environment minus what would point a Python at someone else's packages.
    public static func cleanEnvironment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "PIP_TARGET", "PIP_PREFIX", "PIP_USER"] {
            environment[name] = nil
        }
        environment["PYTHONUNBUFFERED"] = "1"
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        return environment
    }

    /// The environment a pinned tool runs in: a clean one whose PYTHONPATH is its `packages`
    /// and whose HOME is `home` (where the tool keeps its caches and example databases), with
    /// pip's version check off.
    public static func toolEnvironment(packages: String, home: String) -> [String: String] {
        var environment = cleanEnvironment()
        environment["PYTHONPATH"] = packages
        environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        environment["HOME"] = home
        return environment
    }

    /// Progress for CI logs, on standard error: unbuffered, so it shows while a test runs.
    public static func log(_ message: String) {
        FileHandle.standardError.write(Data("[python-tools] \(message)\n".utf8))
    }

    public static func seconds(since start: Date) -> String {
        String(format: "%.1f s", Date().timeIntervalSince(start))
    }

    // MARK: - Internals (shared with PlaywrightTools)

    /// The interpreter's real path (resolving pyenv shims) and its `major.minor` version.
    public static func interpreter(_ candidate: String) throws -> (path: String, version: String) {
        let outcome = try run(
            candidate, ["-c", "import sys; print('%d.%d %s' % (sys.version_info[0], sys.version_info[1], sys.executable))"],
            timeout: 30)
        let words = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 1)
        guard outcome.succeeded, words.count == 2 else {
            throw Failure("\(candidate) is not a working Python: \(outcome.standardOutput) \(outcome.standardError)")
        }
        return (String(words[1]), String(words[0]))
    }

    static func installEnvironment() -> [String: String] {
        var environment = cleanEnvironment()
        environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        environment["PIP_NO_INPUT"] = "1"
        return environment
    }

    /// One install step: bounded, timed, logged; its output is kept in `folder/<name>.log`.
    @discardableResult
    static func step(
        _ name: String, in folder: String, _ executable: String, _ arguments: [String],
        environment: [String: String], timeout: Double = 600
    ) throws -> String {
        let started = Date()
        let outcome = try run(
            executable, arguments, environment: environment, timeout: timeout,
            outputFile: folder + "/\(name).log")
        guard outcome.succeeded else {
            throw Failure(
                """
                installing the Python tools failed at step '\(name)' (exit \(outcome.status)): \
                \(executable) \(arguments.joined(separator: " "))
                \(tail(outcome.standardOutput))
                \(tail(outcome.standardError))
                """)
        }
        log("  \(name): done in \(seconds(since: started))")
        return outcome.standardOutput
    }

    /// Serialises installs across threads and processes: flock on a file of its own, one open
    /// description per call (so two threads of one process exclude each other too), bounded.
    static func withLock(named name: String, timeout: Double = 1200, _ body: () throws -> Void) throws {
        try FileManager.default.createDirectory(atPath: cacheRoot, withIntermediateDirectories: true)
        let path = cacheRoot + "/\(name).lock"
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard eventually(timeout: timeout, { flock(descriptor, LOCK_EX | LOCK_NB) == 0 }) else {
            throw Failure("waited \(Int(timeout)) s for \(path): another install is stuck")
        }
        defer { flock(descriptor, LOCK_UN) }
        try body()
    }

    static func isReady(_ folder: String, recipe: String) -> Bool {
        (try? String(contentsOfFile: folder + "/READY", encoding: .utf8)) == recipe
    }

    static func markReady(_ folder: String, recipe: String) throws {
        try recipe.write(toFile: folder + "/READY", atomically: true, encoding: .utf8)
    }

    static func prepareEmpty(_ folder: String) throws {
        if FileManager.default.fileExists(atPath: folder) { try FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// The interpreter's real path (resolving pyenv shims), if it runs and has the wanted version.
    private static func interpreterPath(_ candidate: String, requiring versionPrefix: String) throws -> String {
        let outcome = try run(
            candidate, ["-c", "import sys; print('%d.%d %s' % (sys.version_info[0], sys.version_info[1], sys.executable))"],
            timeout: 30)
        let words = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 1)
        guard outcome.succeeded, words.count == 2, words[0].hasPrefix(versionPrefix) else {
            throw Failure("\(candidate) is not a working Python \(versionPrefix): \(outcome.standardOutput) \(outcome.standardError)")
        }
        return String(words[1])
    }

    private static func pyenvRoots() -> [String] {
        var roots: [String] = []
        if let pyenv = executableOnPath("pyenv"),
            let outcome = try? run(pyenv, ["root"], timeout: 30), outcome.succeeded
        {
            roots.append(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        if let variable = ProcessInfo.processInfo.environment["PYENV_ROOT"] { roots.append(variable) }
        roots.append(NSHomeDirectory() + "/.pyenv")
        return roots.reduce(into: []) { unique, root in if !unique.contains(root) { unique.append(root) } }
    }

    public static func executableOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func readText(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// The last lines of a long output, enough to see why something failed.
    public static func tail(_ text: String, lines: Int = 30) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }
}

/// The installed Autobahn|Testsuite.
public struct AutobahnTestsuite: Sendable {
    /// The `wstest` command.
    public let wstest: String
    /// The virtualenv's interpreter, which can import `autobahntestsuite`.
    public let python: PythonInterpreter
}

/// An interpreter plus the environment that makes its packages importable.
public struct PythonInterpreter: Sendable {
    public let executable: String
    public let environment: [String: String]

    /// Runs `python arguments...` with a time bound (see `PythonTools.run`).
    public func run(_ arguments: [String], timeout: Double) throws -> PythonTools.CommandOutcome {
        try PythonTools.run(executable, arguments, environment: environment, timeout: timeout)
    }
}
