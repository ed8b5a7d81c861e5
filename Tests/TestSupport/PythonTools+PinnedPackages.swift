import Foundation

extension PythonTools {
    /// The `python3` on PATH (at least 3.`minimumMinor`) with `requirements` pip-installed into
    /// `folder/site-packages`, once: the install is keyed on the Python version and the pins (C
    /// extensions are built per minor version), wiped and rebuilt otherwise, and checked by
    /// running `check`, which prints the installed version. `environment(packages)` is how the
    /// tool runs. Throws (never skips) when something is missing: `purpose` says what needs it.
    public static func pinnedPackages(
        _ name: String, _ requirements: [String], in folder: String, minimumMinor: Int, neededFor purpose: String,
        check: String, environment: (String) -> [String: String]
    ) throws -> PythonInterpreter {
        guard let python3 = executableOnPath("python3") else {
            throw Failure("no python3 on PATH: \(purpose)")
        }
        let (real, version) = try interpreter(python3)
        let minor = Int(version.split(separator: ".").last ?? "") ?? 0
        guard version.hasPrefix("3."), minor >= minimumMinor else {
            throw Failure("\(real) is Python \(version); \(name) needs Python 3.\(minimumMinor) or newer")
        }
        let packages = folder + "/site-packages"
        let label = name.lowercased()
        try withLock(named: label) {
            let recipe = (["python \(version)"] + requirements).joined(separator: "\n")
            if isReady(folder, recipe: recipe) { return }
            try prepareEmpty(folder)
            let started = Date()
            log("installing \(requirements.joined(separator: " ")) for \(real) (Python \(version)) into \(packages) (once; later runs reuse it)")
            // --target keeps the interpreter's own site-packages untouched (and is allowed on
            // Debian's externally managed Python, unlike a plain install).
            try step(
                label, in: folder, real,
                ["-m", "pip", "install", "--no-deps", "--no-warn-script-location", "--target", packages] + requirements,
                environment: installEnvironment(), timeout: 600)
            var checkEnvironment = environment(packages)
            checkEnvironment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
            let installed = try step("check", in: folder, real, ["-c", check], environment: checkEnvironment, timeout: 60)
            log("\(name) \(installed.trimmingCharacters(in: .whitespacesAndNewlines)) ready in \(seconds(since: started))")
            try markReady(folder, recipe: recipe)
        }
        return PythonInterpreter(executable: real, environment: environment(packages))
    }
}
