import Foundation

extension PythonTools {
    /// What the Python client package's virtualenv holds besides the package: its one dependency,
    /// the build backend (the package is built offline, without build isolation) and mypy with
    /// what it needs, all exact so every machine checks the same.
    public static let clientPackageRequirements = [
        websocketsRequirement, "setuptools==80.9.0", "mypy==2.4.1", "mypy_extensions==1.2.0",
        "typing_extensions==4.16.0", "pathspec==1.1.1", "librt==0.17.0", "ast_serialize==0.13.1",
    ]

    /// `clients/python` as its README installs it (`pip install ./clients/python`), into a
    /// virtualenv of its own under `.build/python-tools/`: the requirements once (kept while the
    /// recipe holds), the package itself once per test process, from the work tree as it is, so a
    /// test never runs an older copy. Both Python suites of a run share the one install.
    public static func clientPackagePython() throws -> PythonInterpreter {
        try installedClientPackage.get()
    }

    private static let installedClientPackage = Result { try installClientPackage() }

    private static func installClientPackage() throws -> PythonInterpreter {
        guard let python3 = executableOnPath("python3") else {
            throw Failure("no python3 on PATH: the Python client package (clients/python) needs Python 3.11 or newer")
        }
        let (real, version) = try interpreter(python3)
        guard version.hasPrefix("3."), (Int(version.dropFirst(2)) ?? 0) >= 11 else {
            throw Failure("\(real) is Python \(version); the Python client package needs 3.11 or newer")
        }
        let folder = cacheRoot + "/corkboard-client-py\(version)"
        let venvPython = folder + "/venv/bin/python"
        try withLock(named: "corkboard-client-py\(version)") {
            let recipe = (["python \(version)"] + clientPackageRequirements).joined(separator: "\n")
            if !isReady(folder, recipe: recipe) {
                try prepareEmpty(folder)
                log("installing \(clientPackageRequirements.joined(separator: " ")) into \(folder)/venv (once; later runs reuse it)")
                try step("venv", in: folder, real, ["-m", "venv", folder + "/venv"], environment: installEnvironment())
                try step(
                    "requirements", in: folder, venvPython, ["-m", "pip", "install"] + clientPackageRequirements,
                    environment: installEnvironment())
                try markReady(folder, recipe: recipe)
            }
            // setuptools builds in the source tree and keeps what it copied to build/ before: a
            // module deleted since would still be packed.
            try? FileManager.default.removeItem(atPath: packageRoot + "/clients/python/build")
            try step(
                "corkboard", in: folder, venvPython,
                [
                    "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", "--force-reinstall",
                    packageRoot + "/clients/python",
                ],
                environment: installEnvironment(), timeout: 300)
        }
        return PythonInterpreter(executable: venvPython, environment: cleanEnvironment())
    }
}
