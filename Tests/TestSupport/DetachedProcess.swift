import Foundation
import Glibc

/// A long-lived child (a database server, a watchdog) started with `posix_spawn` so that it
/// holds no descriptor but 0, 1 and 2.
///
/// Why not Foundation's `Process`: it notices a child's exit when a socket it shares with that
/// child is closed. A long-lived child started while another thread was starting a `Process`
/// inherits that other child's socket, and the other child's exit then goes unnoticed until
/// the long-lived one stops (seen here: `initdb` zombies and a test process waiting for them).
/// Closing every inherited descriptor in a `Process` child does not work either: it closes
/// the child's own socket, and Foundation then blocks in `waitpid` on a child that lives on.
///
/// Thread safety: `lock` guards `exited`; `pid` is immutable.
public final class DetachedProcess: @unchecked Sendable {
    public let pid: pid_t
    private let lock = NSLock()
    private var exited = false

    private init(pid: pid_t) { self.pid = pid }

    /// Starts `executable` with `arguments` in `directory`, its output and errors appended to
    /// `output` (or discarded); `newProcessGroup` makes it the leader of a group of its own.
    public static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        output: String? = nil, newProcessGroup: Bool = false
    ) throws -> DetachedProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_APPEND | O_CREAT, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if newProcessGroup {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        // Swift's Glibc does not offer posix_spawn's closefrom and chdir actions: a bash in
        // front closes every descriptor above 2 (dash cannot name those above 9), changes
        // directory, and execs the command.
        let script =
            #"for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; "#
            + #"cd "$1" || exit 127; shift; exec "$@""#
        let argv = ["/bin/bash", "-c", script, "bash", directory ?? "/"] + [executable] + arguments
        let environ = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let status = withCStrings(argv) { argv in
            withCStrings(environ) { environ in posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv, environ) }
        }
        guard status == 0 else {
            throw PostgresCluster.Failure("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return DetachedProcess(pid: pid)
    }

    /// True while it runs; once it has exited it is reaped, so it leaves no zombie.
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if exited { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    /// Waits (at most `timeout` seconds) until it has exited, and reaps it.
    @discardableResult
    public func waitForExit(timeout: Double) -> Bool {
        eventually(timeout: timeout) { !isRunning }
    }
}

/// NULL-terminated C string arrays for `posix_spawn`, valid during `body` only.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) } + [nil]
    defer { for copy in copies { free(copy) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}
