import Foundation

/// openapi-python-client, which generates a Python client from an OpenAPI document: the test
/// that a team generating its client from `/api/openapi.json` gets one that works. Installed
/// once into `.build/python-tools/openapi-python-client/` (gitignored) like the other Python
/// tools: ready only when its marker holds the exact recipe that built it.
public enum OpenAPIClientTools {
    /// Exact pins: openapi-python-client 0.29.1 (the version of issue #35) and what pip resolved
    /// for it on Python 3.11, with the generated client's own needs (httpx, attrs), installed
    /// with `--no-deps` so nothing unpinned comes along. Left out: ruff, which only its post
    /// hooks run, and the test turns them off. pydantic-core and MarkupSafe are built per Python
    /// version, hence the version in the recipe.
    public static let requirements = [
        "openapi-python-client==0.29.1", "annotated-doc==0.0.7", "annotated-types==0.8.0", "anyio==4.16.0", "attrs==26.1.0",
        "certifi==2026.10.19.post1", "h11==0.16.0", "httpcore==1.0.9", "httpx==0.28.1", "idna==3.20", "jinja2==3.1.6",
        "markdown-it-py==4.3.0", "MarkupSafe==3.0.4", "mdurl==0.1.2", "pydantic==2.14.4", "pydantic-core==2.50.5",
        "Pygments==2.21.0", "rich==15.0.0", "ruamel.yaml==0.19.1", "shellingham==1.5.4", "typer==0.27.3",
        "typing-extensions==4.16.0", "typing-inspection==0.4.5",
    ]
    /// openapi-python-client 0.29 needs Python 3.10 or newer.
    public static let minimumPythonMinor = 10

    public static let folder = PythonTools.cacheRoot + "/openapi-python-client"

    /// A Python 3 interpreter whose PYTHONPATH holds openapi-python-client and what its clients
    /// import, installing them first if needed; run it with `-m openapi_python_client generate …`.
    /// Throws (never skips) when something is missing.
    public static func python() throws -> PythonInterpreter {
        try PythonTools.pinnedPackages(
            "openapi-python-client", requirements, in: folder, minimumMinor: minimumPythonMinor,
            neededFor: "a Python client is generated from the OpenAPI document",
            check: "import openapi_python_client, httpx, attrs; from importlib.metadata import version; print(version('openapi-python-client'))",
            environment: runEnvironment)
    }

    private static func runEnvironment(_ packages: String) -> [String: String] {
        PythonTools.toolEnvironment(packages: packages, home: folder + "/home")
    }
}
