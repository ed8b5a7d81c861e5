import CorkboardServer
import Foundation
import TestSupport
import Testing

/// The SDK as a package (`web/sdk/package.json`, `@corkboard/sdk`): its version is the server's,
/// what its `exports` name exists, its TypeScript declarations (`web/sdk/types/`, generated from
/// the JSDoc by `web/sdk/build-types.sh`) are what tsc writes from the modules as they are now,
/// and a TypeScript program using them (`examples/sdk-typescript/`) compiles under `--strict`.
/// The compiler is Debian's (`apt-get install -y node-typescript`, which `.ci/run` installs);
/// without it these tests fail, saying so, rather than skip (as BrowserModuleTypeCheckTests).
@Suite(.threadsOfTheirOwn) struct SDKPackageTests {
    static let sdk = PythonTools.packageRoot + "/web/sdk"
    static let example = PythonTools.packageRoot + "/examples/sdk-typescript"

    /// `tsc` on PATH, or a failure that says how to get it.
    private static func compiler() throws -> String {
        guard let tsc = PythonTools.executableOnPath("tsc") else {
            throw PythonTools.Failure(
                """
                no tsc on PATH: the SDK's declarations are generated and checked with TypeScript's \
                compiler; install it with apt-get install -y node-typescript (.ci/run does)
                """)
        }
        return tsc
    }

    private static func tsc(_ arguments: [String]) throws -> PythonTools.CommandOutcome {
        try PythonTools.run(
            try compiler(), arguments + ["--pretty", "false"], workingDirectory: PythonTools.packageRoot, timeout: 240)
    }

    private static func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: sdk + "/package.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The package's files (`.d.ts` under `types/`), by name, with their text.
    private static func declarations(in folder: String) throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".d.ts") }
        return try Dictionary(
            uniqueKeysWithValues: names.map { ($0, try String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) })
    }

    /// A release raises `CorkboardVersion.current`; the package must say the same version, since
    /// the server serves that SDK (docs/versioning.md).
    @Test func theVersionIsTheServers() throws {
        let manifest = try Self.manifest()
        #expect(manifest["name"] as? String == "@corkboard/sdk")
        #expect(
            manifest["version"] as? String == CorkboardVersion.current,
            "web/sdk/package.json says \(manifest["version"] ?? "nothing"); the server is \(CorkboardVersion.current)")
        #expect(manifest["type"] as? String == "module")
        #expect(manifest["license"] as? String == "Apache-2.0")
    }

    /// Every path the manifest names (`main`, `types`, each export's `types` and `default`) is a
    /// file of the package, and the entry is `corkboard.js` with its declarations.
    @Test func whatTheManifestNamesExists() throws {
        let manifest = try Self.manifest()
        let exports = try #require(manifest["exports"] as? [String: Any])
        let entry = try #require(exports["."] as? [String: String])
        #expect(entry == ["types": "./types/corkboard.d.ts", "default": "./corkboard.js"])
        #expect(manifest["types"] as? String == "./types/corkboard.d.ts")
        var paths = [manifest["main"], manifest["types"]].compactMap { $0 as? String }
        for (_, target) in exports {
            if let path = target as? String { paths.append(path) }
            if let conditions = target as? [String: String] { paths += conditions.values }
        }
        #expect(paths.count >= 8)
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: Self.sdk + "/" + path), "web/sdk/package.json names \(path), which is not there")
        }
    }

    /// The checked-in declarations are what `build-types.sh` writes now: a module whose JSDoc
    /// changed without `web/sdk/build-types.sh` being run fails here, naming the file.
    @Test(.runningTimeLimit(.minutes(5)))
    func theDeclarationsAreUpToDate() throws {
        let fresh = try TemporaryDirectory("corkboard-sdk-types")
        let outcome = try Self.tsc(["-p", Self.sdk + "/tsconfig.types.json", "--outDir", fresh.path])
        try #require(
            outcome.succeeded,
            "tsc -p web/sdk/tsconfig.types.json failed (exit \(outcome.status)):\n\(PythonTools.tail(outcome.standardOutput + outcome.standardError))"
        )
        let generated = try Self.declarations(in: fresh.path)
        let checkedIn = try Self.declarations(in: Self.sdk + "/types")
        #expect(generated.count >= 10, "tsc wrote \(generated.keys.sorted())")
        #expect(
            Set(generated.keys) == Set(checkedIn.keys),
            "web/sdk/types/ holds \(checkedIn.keys.sorted()); tsc writes \(generated.keys.sorted()): run web/sdk/build-types.sh")
        for (name, text) in generated where checkedIn[name] != nil {
            // A Bool, so that a failure names the file without printing it twice.
            let upToDate = checkedIn[name] == text
            #expect(upToDate, "web/sdk/types/\(name) is out of date: run web/sdk/build-types.sh")
        }
    }

    /// The example uses every event with its typed detail, the store API and `getToken`, through
    /// the package's declarations (resolved by its `types`), under `--strict`.
    @Test(.runningTimeLimit(.minutes(5)))
    func theTypeScriptExampleCompiles() throws {
        let outcome = try Self.tsc(["--noEmit", "-p", Self.example + "/tsconfig.json"])
        #expect(
            outcome.succeeded,
            """
            tsc --noEmit -p examples/sdk-typescript/tsconfig.json failed (exit \(outcome.status)):
            \(PythonTools.tail(outcome.standardOutput + outcome.standardError, lines: 80))
            """)
    }

    /// The example listens to every event of the SDK (the keys of `LiveBoardEventMap` in the
    /// declarations), so an event added later is type-checked from TypeScript too.
    @Test func theExampleListensToEveryEvent() throws {
        let declarations = try String(contentsOfFile: Self.sdk + "/types/events.d.ts", encoding: .utf8)
        let start = try #require(declarations.range(of: "export type LiveBoardEventMap = {"), "events.d.ts declares no LiveBoardEventMap")
        let body = declarations[start.upperBound...].prefix { $0 != "}" }
        let events = body.split(separator: "\n").compactMap { line -> String? in
            let entry = line.trimmingCharacters(in: .whitespaces)
            guard let colon = entry.firstIndex(of: ":"), entry[colon...].contains("CustomEvent<") else { return nil }
            return entry[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        #expect(events.count >= 9, "LiveBoardEventMap names \(events)")
        let example = try String(contentsOfFile: Self.example + "/example.ts", encoding: .utf8)
        for event in events {
            let listens = example.contains("live.addEventListener(\"\(event)\", (event) =>")
            #expect(listens, "examples/sdk-typescript/example.ts does not listen to \"\(event)\"")
        }
    }

    /// The event map is real: a misspelt detail field, a listener for another detail, or a
    /// property used as what it is not, in a program beside the example, fails its check; so the
    /// passing example above means the declarations are typed (not `any`).
    @Test(
        .runningTimeLimit(.minutes(5)),
        arguments: [
            (
                mistake: #"live.addEventListener("board", (event) => event.detail.cuase);"#,
                expected: "Property 'cuase' does not exist"
            ),
            (
                mistake: #"live.addEventListener("fatal", (event: CustomEvent<{ seq: number }>) => event.detail.seq);"#,
                expected: "not assignable"
            ),
            (
                mistake: "const state: number = live.state;",
                expected: "not assignable to type 'number'"
            ),
        ])
    func aMistakeFailsTheExamplesCheck(mistake: String, expected: String) throws {
        let folder = try TemporaryDirectory("corkboard-sdk-example")
        try folder.write(
            "tsconfig.json",
            #"{ "extends": "\#(Self.example)/tsconfig.json", "files": ["mistake.ts"] }"#)
        try folder.write(
            "mistake.ts",
            """
            import { connect } from "@corkboard/sdk";
            const live = connect({ board: "b", url: "https://boards.example" });
            \(mistake)
            """)
        let outcome = try Self.tsc(["--noEmit", "-p", folder.path + "/tsconfig.json"])
        let output = outcome.standardOutput + outcome.standardError
        #expect(!outcome.succeeded, "tsc passed a program with a mistake:\n\(mistake)")
        #expect(
            output.contains("mistake.ts(") && output.contains(expected),
            "tsc should name the mistake (\(expected)); it said:\n\(PythonTools.tail(output))")
    }
}
