import Foundation

/// Schemathesis, which drives a running server from its OpenAPI document and checks every
/// answer against it. Installed once into `.build/python-tools/schemathesis/` (gitignored)
/// like the other Python tools: ready only when its marker holds the exact recipe that built it.
public enum SchemathesisTools {
    /// Exact pins: schemathesis 4.32.5 and what pip resolved for it on Python 3.11, installed
    /// with `--no-deps` so nothing unpinned comes along. Some are built per Python version
    /// (jsonschema-rs, PyYAML, MarkupSafe, charset-normalizer), hence the version in the recipe.
    public static let requirements = [
        "schemathesis==4.32.5", "anyio==4.16.0", "certifi==2026.10.19.post1", "charset-normalizer==3.5.2", "click==8.5.1",
        "graphql-core==3.3.2", "harfile==0.6.0", "hypothesis==6.170.17", "hypothesis-graphql==0.13.5", "idna==3.20",
        "iniconfig==2.3.1", "jsonschema-rs==0.60.3", "markdown-it-py==4.3.0", "MarkupSafe==3.0.4", "mdurl==0.1.2",
        "packaging==26.3", "pluggy==1.7.0", "Pygments==2.21.0", "pyrate-limiter==4.5.1", "pytest==9.2.0", "PyYAML==6.0.4",
        "requests==2.34.2", "rich==15.0.0", "sortedcontainers==2.4.0", "typing-extensions==4.16.0", "urllib3==2.8.0",
        "Werkzeug==3.1.9",
    ]
    /// Schemathesis 4 needs Python 3.10 or newer.
    public static let minimumPythonMinor = 10

    public static let folder = PythonTools.cacheRoot + "/schemathesis"

    /// A Python 3 interpreter (the `python3` on PATH) whose PYTHONPATH holds schemathesis, installing
    /// it first if needed; run it with `-m schemathesis.cli run …`. Throws (never skips) when
    /// something is missing.
    public static func python() throws -> PythonInterpreter {
        try PythonTools.pinnedPackages(
            "schemathesis", requirements, in: folder, minimumMinor: minimumPythonMinor,
            neededFor: "the API description is checked with schemathesis",
            check: "import schemathesis.cli; from importlib.metadata import version; print(version('schemathesis'))",
            environment: runEnvironment)
    }

    /// Hypothesis keeps its example database in the working folder unless told otherwise;
    /// schemathesis' own reports and caches go under the install too (its HOME).
    private static func runEnvironment(_ packages: String) -> [String: String] {
        PythonTools.toolEnvironment(packages: packages, home: folder + "/home")
    }
}
