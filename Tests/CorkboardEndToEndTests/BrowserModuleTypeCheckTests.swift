import Foundation
import TestSupport
import Testing

/// The browser modules (`web/js/*.js`, and the SDK's `web/sdk/*.js`) are plain JavaScript that the browser loads as it is,
/// typed in JSDoc and checked by TypeScript's compiler in checkJs mode with `web/jsconfig.json`
/// (strict). This suite runs that check, so a type error fails the tests like a Swift one. The
/// compiler is Debian's (`apt-get install -y node-typescript`, which `.ci/run` installs); without
/// it the suite fails, saying so, rather than skip.
@Suite(.threadsOfTheirOwn) struct BrowserModuleTypeCheckTests {
    static let web = PythonTools.packageRoot + "/web"

    /// `tsc` on PATH, or a failure that says how to get it.
    private static func compiler() throws -> String {
        guard let tsc = PythonTools.executableOnPath("tsc") else {
            throw PythonTools.Failure(
                """
                no tsc on PATH: the browser modules are type-checked with TypeScript's compiler; \
                install it with apt-get install -y node-typescript (.ci/run does)
                """)
        }
        return tsc
    }

    /// Runs the checker on the project `web` (a folder holding `jsconfig.json` and `js/`),
    /// from the package root so that its messages name files as `web/js/….js(line,column)`.
    private static func check(_ web: String, _ extra: [String] = []) throws -> PythonTools.CommandOutcome {
        try PythonTools.run(
            try compiler(), ["-p", web + "/jsconfig.json", "--pretty", "false"] + extra,
            workingDirectory: PythonTools.packageRoot, timeout: 240)
    }

    /// The folders of `web` whose modules are checked.
    static let folders = ["js", "sdk"]

    /// Every module, as its path under `web` (`js/view.js`, `sdk/live.js`).
    private static func modules() throws -> [String] {
        try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: web + "/" + folder).filter { $0.hasSuffix(".js") }.sorted()
                .map { folder + "/" + $0 }
        }
    }

    @Test(.runningTimeLimit(.minutes(5)))
    func theBrowserModulesCheckClean() throws {
        let outcome = try Self.check(Self.web)
        #expect(
            outcome.succeeded,
            """
            tsc -p web/jsconfig.json found type errors in the browser modules (exit \(outcome.status)):
            \(PythonTools.tail(outcome.standardOutput + outcome.standardError, lines: 80))
            """)
    }

    /// Every module opts in (`// @ts-check` first, for editors that open one file without the
    /// project), and the project's `include` really takes each one.
    @Test(.runningTimeLimit(.minutes(5)))
    func everyModuleIsChecked() throws {
        let modules = try Self.modules()
        #expect(modules.count >= 15, "web/js and web/sdk hold the browser modules: \(modules)")
        for module in modules {
            let text = try String(contentsOfFile: Self.web + "/" + module, encoding: .utf8)
            #expect(text.hasPrefix("// @ts-check\n"), "web/\(module) must begin with // @ts-check")
        }
        let listed = try Self.check(Self.web, ["--listFilesOnly"])
        try #require(listed.succeeded, "tsc --listFilesOnly failed: \(listed.standardOutput) \(listed.standardError)")
        let checked = Set(listed.standardOutput.split(separator: "\n").map { URL(fileURLWithPath: String($0)).standardizedFileURL.path })
        for module in modules {
            let path = URL(fileURLWithPath: Self.web + "/" + module).standardizedFileURL.path
            #expect(checked.contains(path), "web/jsconfig.json does not take web/\(module)")
        }
    }

    /// A mistake of the kind the types are there for, added to a copy of the modules, fails the
    /// check and is named: so the clean run above means something (checkJs is on, the wire
    /// types are real types and not `any`, strict null checks hold).
    @Test(
        .runningTimeLimit(.minutes(5)),
        arguments: [
            (
                mistake: """
                export const misshapen = applyOperation(
                  { id: "b", title: "B", locked: false, collections: [] },
                  { type: "move", sources: "card-1", destination: { collection: "todo" } },
                );
                """, expected: "not assignable to type 'string[]'"
            ),
            (
                mistake: """
                export const titleOf = (/** @type {Board | null} */ board) => board.title;
                """, expected: "possibly 'null'"
            ),
        ])
    func aTypeErrorFailsTheCheck(mistake: String, expected: String) throws {
        let copy = try TemporaryDirectory("corkboard-tscheck")
        try copy.write("jsconfig.json", try Data(contentsOf: URL(fileURLWithPath: Self.web + "/jsconfig.json")))
        for module in try Self.modules() {
            var text = try String(contentsOfFile: Self.web + "/" + module, encoding: .utf8)
            if module == "sdk/replica.js" { text += "\n" + mistake + "\n" }
            try copy.write(module, text)
        }
        let outcome = try Self.check(copy.path)
        let output = outcome.standardOutput + outcome.standardError
        #expect(!outcome.succeeded, "tsc passed a module with a type error:\n\(mistake)")
        #expect(
            output.contains("sdk/replica.js(") && output.contains(expected),
            "tsc should name the mistake in replica.js (\(expected)); it said:\n\(PythonTools.tail(output))")
    }
}
