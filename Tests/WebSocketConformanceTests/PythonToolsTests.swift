import Foundation
import Glibc
import Testing

@testable import TestSupport

/// `PythonTools.run` finishes a command that has exited even while Foundation has not noticed
/// (its exit status read from the zombie's `/proc` entry).
@Suite(.threadsOfTheirOwn) struct PythonToolsTests {
    @Test func anExitedChildsStatusIsReadFromItsZombie() throws {
        // DetachedProcess reaps only when asked, so these stay zombies once they end.
        let three = try DetachedProcess.spawn("/bin/sh", ["-c", "exit 3"], environment: [:])
        let killed = try DetachedProcess.spawn("/bin/sh", ["-c", "kill -9 $$"], environment: [:])
        let running = try DetachedProcess.spawn("/bin/sleep", ["30"], environment: [:])
        defer {
            kill(running.pid, SIGKILL)
            running.waitForExit(timeout: 5)
        }
        #expect(eventually(timeout: 10) { PythonTools.exitStatusOfUnnoticedExit(three.pid) == 3 })
        #expect(eventually(timeout: 10) { PythonTools.exitStatusOfUnnoticedExit(killed.pid) == 128 + SIGKILL })
        #expect(PythonTools.exitStatusOfUnnoticedExit(running.pid) == nil)
        #expect(three.waitForExit(timeout: 5) && killed.waitForExit(timeout: 5))
    }

    @Test func aCommandGivesItsStatusAndOutput() throws {
        let outcome = try PythonTools.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 4"], timeout: 30)
        #expect(outcome.status == 4)
        #expect(outcome.standardOutput == "out\n")
        #expect(outcome.standardError == "err\n")
    }
}
