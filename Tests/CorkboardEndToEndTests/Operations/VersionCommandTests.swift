import CorkboardServer
import TestSupport
import Testing

/// `corkboard --version`: the one line a bug report starts with, from the same constant
/// `/metrics` reports in `corkboard_build_info`.
@Suite(.threadsOfTheirOwn) struct VersionCommandTests {
    @Test func versionIsPrintedAndExitsZero() throws {
        let process = try ServerProcess(["--version"])
        #expect(process.waitForExit() == 0)
        #expect(process.standardOutput == "corkboard \(CorkboardVersion.current) (Swift \(CorkboardVersion.swift))\n")
        #expect(CorkboardVersion.current.split(separator: ".").count == 3)
    }
}
