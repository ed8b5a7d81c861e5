import Foundation
import Glibc

/// A throwaway PostgreSQL server for tests: a data folder of its own under the temporary folder,
/// a free loopback port, and trust authentication for the superuser `corkboard`, so libpq URLs
/// need no password. The server listens on 127.0.0.1 only and its Unix socket sits in the
/// cluster's own folder (no /var/run/postgresql), so parallel test processes never collide.
///
/// Every method blocks (subprocesses, waits) and is bounded in time: call it through
/// `BlockingWork`. Failures throw a `Failure` that carries the end of the server's log.
///
/// PostgreSQL refuses to run as root. When the tests run as root (CI, this machine) the folder
/// belongs to the `postgres` system user (created by Debian's `postgresql` package) and
/// `initdb` and `postgres` run as that user through `setpriv` (util-linux: it
/// execs the command directly, without a PAM session or an extra parent process, so timeouts
/// reach the real command). Client tools (`createdb`, `psql`) connect over TCP as any user.
///
/// Thread safety: `lock` serialises start, stop, kill and destroy; everything else is immutable.
public final class PostgresCluster: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// How `stop(mode:)` asks the server to stop (PostgreSQL's shutdown signals).
    public enum ShutdownMode: String, Sendable {
        /// SIGINT: rolls back open transactions, disconnects clients, writes a checkpoint.
        case fast
        /// SIGQUIT: stops at once, like a crash; the next start runs crash recovery.
        case immediate

        var signal: Int32 { self == .fast ? SIGINT : SIGQUIT }
    }

    /// One process of the server: a pid and its start time, so a reused pid is not mistaken for it.
    public struct PostgresProcess: Sendable, Equatable {
        public let pid: pid_t
        let startTime: String

        /// Still running (not a zombie) and still the same process.
        public var isAlive: Bool {
            guard let fields = PostgresCluster.statFields(pid) else { return false }
            return fields.state != "Z" && fields.startTime == startTime
        }
    }

    /// The superuser `initdb` creates, and the database `start()` creates for `url`.
    public static let user = "corkboard"

    public let port: UInt16
    /// The cluster's folder: `data/` (the data directory), `log` (the server's log) and the Unix socket.
    public let directory: String
    public var dataDirectory: String { directory + "/data" }
    public var logFile: String { directory + "/log" }
    /// The database `corkboard`, created at start.
    public var url: String { url(database: Self.user) }

    /// The folder of `initdb`, `postgres`, `createdb`, `psql`.
    public let binaries: String
    private let owner: ServerAccount?
    private let lock = NSLock()
    private var destroyed = false
    private let watchdog: DetachedProcess?
    /// The running (or last) postmaster, our child; kept so Foundation keeps watching it.
    private var postmasterProcess: DetachedProcess?

    private init(port: UInt16, directory: String, binaries: String, owner: ServerAccount?, watchdog: DetachedProcess?) {
        self.port = port
        self.directory = directory
        self.binaries = binaries
        self.owner = owner
        self.watchdog = watchdog
    }

    deinit { destroy() }

    // MARK: - Starting

    /// Makes a new cluster (initdb), starts it on a free loopback port and creates the database
    /// `corkboard`. Throws, saying what to install, when the PostgreSQL binaries are missing.
    public static func start() throws -> PostgresCluster {
        let binaries = try findBinaries()
        let owner = try serverAccount()
        let directory = try makeDirectory(owner: owner)
        // From here on, if this process dies, the watchdog stops the server and removes the folder.
        let watchdog = startWatchdog(directory: directory)
        do {
            let initdb = try run(
                "initdb",
                [
                    "-D", directory + "/data", "-U", user, "--auth=trust", "-E", "UTF8",
                    "--no-locale", "--no-sync",
                ],
                binaries: binaries, owner: owner, directory: directory, timeout: 120)
            guard initdb.succeeded else {
                throw Failure("initdb failed (exit \(initdb.status)):\n\(tail(initdb.standardOutput))\n\(tail(initdb.standardError))")
            }
            let cluster = try launchOnAFreePort(directory: directory, binaries: binaries, owner: owner, watchdog: watchdog)
            try cluster.createDatabase(user) // On failure, deinit destroys the cluster.
            return cluster
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            stopWatchdog(watchdog)
            throw error
        }
    }

    /// A streaming standby of `primary` (which must be running): a base backup taken with
    /// `pg_basebackup -R`, so that it follows the primary, which knows it as `name` (its
    /// `application_name`, what `synchronous_standby_names` lists). Started on a free loopback
    /// port of its own, read-only until `promote()`; returns once the primary streams to it.
    /// `name`: plain, as for a database.
    public static func standby(of primary: PostgresCluster, name: String) throws -> PostgresCluster {
        try requirePlainName(name)
        let binaries = try findBinaries()
        let owner = try serverAccount()
        let directory = try makeDirectory(owner: owner)
        let watchdog = startWatchdog(directory: directory)
        do {
            // `-X stream`: the WAL written during the backup comes along, so the copy starts
            // consistent. A fast checkpoint: a spread one writes a fresh database's pages at a
            // throttled pace, a minute and a half after `createdb`.
            let backup = try run(
                "pg_basebackup",
                [
                    "-h", "127.0.0.1", "-p", "\(primary.port)", "-U", user, "-D", directory + "/data", "-R", "-X", "stream",
                    "--checkpoint=fast", "--no-sync", "-d", "application_name=\(name)",
                ],
                binaries: binaries, owner: owner, directory: directory, timeout: 120)
            guard backup.succeeded else {
                throw Failure(
                    "pg_basebackup from port \(primary.port) failed (exit \(backup.status)):\n\(tail(backup.standardError))\n\(primary.logTail())")
            }
            let standby = try launchOnAFreePort(directory: directory, binaries: binaries, owner: owner, watchdog: watchdog)
            let streaming = eventually(timeout: 30) {
                (try? primary.psql("SELECT state FROM pg_stat_replication WHERE application_name = '\(name)'")) == "streaming"
            }
            guard streaming else { throw Failure("the standby \(name) does not stream from the primary within 30 s\n\(standby.logTail())") }
            return standby
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            stopWatchdog(watchdog)
            throw error
        }
    }

    /// The kernel hands out a free port, but it is free only until somebody else binds it:
    /// a start that loses that race is retried on another port.
    private static func launchOnAFreePort(
        directory: String, binaries: String, owner: ServerAccount?, watchdog: DetachedProcess?
    ) throws -> PostgresCluster {
        for _ in 1...5 {
            let cluster = PostgresCluster(
                port: try freeLoopbackPort(), directory: directory, binaries: binaries, owner: owner, watchdog: watchdog)
            if try cluster.launch() { return cluster }
            cluster.destroyed = true // Not its folder to remove: the next attempt reuses it.
        }
        throw Failure("no free loopback port could be bound in 5 attempts")
    }

    // MARK: - Replication

    /// Makes every commit wait until the standby `name` has it on disk
    /// (`synchronous_standby_names`, as `ALTER SYSTEM` and a reload): a commit the primary
    /// acknowledged survives the primary's loss. Returns once the standby counts as synchronous.
    public func requireSynchronousStandby(_ name: String) throws {
        try Self.requirePlainName(name)
        try psql("ALTER SYSTEM SET synchronous_standby_names = '\(name)'")
        try psql("SELECT pg_reload_conf()")
        let synchronous = eventually(timeout: 30) {
            (try? psql("SELECT sync_state FROM pg_stat_replication WHERE application_name = '\(name)'")) == "sync"
        }
        guard synchronous else { throw Failure("the standby \(name) did not become synchronous within 30 s\n\(logTail())") }
    }

    /// Ends recovery (`pg_ctl promote`): the standby becomes a primary that accepts writes, on a
    /// new timeline. Returns once it does.
    public func promote() throws {
        lock.lock()
        defer { lock.unlock() }
        let outcome = try Self.run(
            "pg_ctl", ["promote", "-D", dataDirectory, "-w", "-t", "30"], binaries: binaries, owner: owner, directory: directory,
            timeout: 40)
        guard outcome.succeeded else {
            throw Failure("pg_ctl promote failed (exit \(outcome.status)): \(outcome.standardError)\n\(logTail())")
        }
        guard eventually(timeout: 30, { (try? psql("SELECT pg_is_in_recovery()")) == "f" }) else {
            throw Failure("the promoted server still runs recovery after 30 s\n\(logTail())")
        }
    }

    /// Starts the server again on the same data directory and port (after `stop` or `kill`);
    /// does nothing if it is running.
    public func start() throws {
        lock.lock()
        defer { lock.unlock() }
        guard !destroyed else { throw Failure("the cluster in \(directory) was destroyed") }
        if runningPostmaster() != nil { return }
        guard try launch() else {
            throw Failure("port \(port) was taken by another process while the server was stopped\n\(logTail())")
        }
    }

    /// A cluster started once per test process, for tests that only need a database
    /// (`createDatabase()` gives each test its own). Stopped and removed at exit. Tests that
    /// stop or restart the server start their own cluster instead.
    public static func shared() throws -> PostgresCluster {
        try sharedCluster.get()
    }

    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return runningPostmaster() != nil
    }

    // MARK: - Databases

    public func url(database: String) -> String {
        "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)"
    }

    /// Creates an empty database and returns its URL. Names are plain (lowercase letters, digits,
    /// underscores) so the URL needs no escaping; the default is a unique one.
    @discardableResult
    public func createDatabase(_ name: String = PostgresCluster.uniqueDatabaseName()) throws -> String {
        try Self.requirePlainName(name)
        let outcome = try client("createdb", [name])
        guard outcome.succeeded else {
            throw Failure("createdb \(name) failed (exit \(outcome.status)): \(outcome.standardError)\n\(logTail())")
        }
        return url(database: name)
    }

    /// A name SQL and URLs take as it is: a-z, 0-9, _; at most 63 bytes; not starting with a digit.
    private static func requirePlainName(_ name: String) throws {
        let plain = name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
        guard plain, !name.isEmpty, name.utf8.count <= 63, !(48...57).contains(name.utf8.first!) else {
            throw Failure("'\(name)' is not a plain name (a-z, 0-9, _; at most 63; not starting with a digit)")
        }
    }

    public static func uniqueDatabaseName(prefix: String = "test") -> String {
        prefix + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Runs SQL through `psql` over TCP and returns its unaligned, tuples-only output
    /// (one row per line, columns separated by `|`). Throws on any SQL error.
    @discardableResult
    public func psql(_ sql: String, database: String = PostgresCluster.user) throws -> String {
        let outcome = try client("psql", ["-d", database, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
        guard outcome.succeeded else {
            throw Failure("psql failed (exit \(outcome.status)) on: \(sql)\n\(outcome.standardError)")
        }
        return outcome.standardOutput.trimmingCharacters(in: .newlines)
    }

    // MARK: - Stopping

    /// Stops the server and waits (at most 30 s) until all its processes have exited; does nothing
    /// if it is not running. A server that does not stop in time is killed, and this throws.
    public func stop(mode: ShutdownMode = .fast) throws {
        lock.lock()
        defer { lock.unlock() }
        try stopLocked(mode: mode)
    }

    /// SIGKILL for the postmaster, as in a crash; waits (bounded) until its other processes,
    /// which notice their parent's death, have exited too. `start()` then runs crash recovery.
    public func kill() {
        lock.lock()
        defer { lock.unlock() }
        killLocked()
    }

    /// SIGKILL for the postmaster and every child at the same moment, as when its machine is
    /// lost: unlike `kill()`, no backend outlives the postmaster for a moment to finish what it
    /// was doing. The postmaster is stopped (SIGSTOP) first, so it forks no child the kill
    /// would miss. Returns once every process is gone (bounded).
    public func killAllProcesses() {
        lock.lock()
        defer { lock.unlock() }
        guard let postmaster = runningPostmaster() else { return }
        Glibc.kill(postmaster.pid, SIGSTOP)
        let children = Self.children(of: postmaster.pid)
        Glibc.kill(postmaster.pid, SIGKILL)
        for child in children { Glibc.kill(child.pid, SIGKILL) }
        defer { reapPostmaster() }
        _ = eventually(timeout: 10) { !postmaster.isAlive && !children.contains { $0.isAlive } }
    }

    /// Stops the server at once and deletes its folder. Idempotent; also run by `deinit`.
    public func destroy() {
        lock.lock()
        defer { lock.unlock() }
        guard !destroyed else { return }
        destroyed = true
        if (try? stopLocked(mode: .immediate)) == nil { killLocked() }
        try? FileManager.default.removeItem(atPath: directory)
        Self.stopWatchdog(watchdog)
    }

    /// The postmaster and its children (backends, checkpointer, …), while the server runs.
    public func serverProcesses() -> [PostgresProcess] {
        lock.lock()
        defer { lock.unlock() }
        guard let postmaster = runningPostmaster() else { return [] }
        return [postmaster] + Self.children(of: postmaster.pid)
    }

    /// The last lines of the server's log, for failure messages.
    public func logTail(lines: Int = 30) -> String {
        "--- end of the server log \(logFile):\n" + Self.tail((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "", lines: lines)
    }

    // MARK: - Internals

    /// Starts `postgres` and waits until it accepts connections. False when the port was taken;
    /// throws on any other failure, after making sure no half-started server is left.
    ///
    /// The postmaster is started directly, as our child, not through `pg_ctl start`:
    /// Foundation's `Process` notices a child's exit through a socket the child inherits, so a
    /// `pg_ctl` whose daemon keeps that socket never looks finished and every start would wait
    /// for its timeout. As our child, it is also reaped by Foundation when it exits.
    private func launch() throws -> Bool {
        let logBefore = (try? FileManager.default.attributesOfItem(atPath: logFile)[.size] as? Int) ?? 0

        // fsync=off only loses data if the machine itself crashes; a killed server keeps every
        // committed transaction (synchronous_commit stays on), which is what restart tests check.
        let arguments = [
            "-D", dataDirectory, "-p", "\(port)", "-k", directory, "-c", "listen_addresses=127.0.0.1",
            "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=200", "-c", "shared_buffers=32MB",
        ]
        // Not a Foundation `Process`: see DetachedProcess for why a long-lived child must not be one.
        let (executable, fullArguments) = Self.command("postgres", arguments, binaries: binaries, owner: owner)
        let process = try DetachedProcess.spawn(
            executable.path, fullArguments, environment: Self.environment(), directory: directory, output: logFile)
        postmasterProcess = process
        let pid = process.pid

        // PostgreSQL writes "ready" as the 8th line of postmaster.pid once it accepts connections
        // (what `pg_ctl -w` waits for).
        var ready = false
        let settled = eventually(timeout: 60) {
            let lines = ((try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)) ?? "")
                .split(separator: "\n", omittingEmptySubsequences: false)
            ready = lines.count >= 8 && lines[0] == "\(pid)" && lines[7].trimmingCharacters(in: .whitespaces) == "ready"
            return ready || Self.statFields(pid).map { $0.state == "Z" } ?? true
        }
        if ready { return true }
        let newLog = String(decoding: ((try? Data(contentsOf: URL(fileURLWithPath: logFile))) ?? Data()).dropFirst(logBefore), as: UTF8.self)
        killLocked()
        if !settled { Glibc.kill(pid, SIGKILL) } // Still starting, perhaps without a postmaster.pid yet.
        if settled && newLog.contains("could not create any TCP/IP sockets") { return false }
        throw Failure(
            """
            postgres \(settled ? "exited during its start" : "was not ready within 60 s and was killed") \
            (\(arguments.joined(separator: " ")))
            \(logTail())
            """)
    }

    private func stopLocked(mode: ShutdownMode) throws {
        guard let postmaster = runningPostmaster() else { return }
        // The postmaster exits only after all its children have (it kills them after 5 s in
        // immediate mode), so its exit means the whole server is gone.
        Glibc.kill(postmaster.pid, mode.signal)
        defer { reapPostmaster() }
        if eventually(timeout: 30, { !postmaster.isAlive }) { return }
        killLocked()
        throw Failure("the server did not stop within 30 s of a \(mode.rawValue) shutdown request and was killed\n\(logTail())")
    }

    private func killLocked() {
        guard let postmaster = runningPostmaster() else { return }
        let children = Self.children(of: postmaster.pid)
        Glibc.kill(postmaster.pid, SIGKILL)
        defer { reapPostmaster() }
        if eventually(timeout: 10, { !postmaster.isAlive && !children.contains { $0.isAlive } }) { return }
        for child in children where child.isAlive { Glibc.kill(child.pid, SIGKILL) }
        _ = eventually(timeout: 5) { !children.contains { $0.isAlive } }
    }

    /// Our child, once it has exited: reaped, so it leaves no zombie behind.
    private func reapPostmaster() {
        if let process = postmasterProcess, process.waitForExit(timeout: 2) { postmasterProcess = nil }
    }

    /// The postmaster named in `postmaster.pid`, if it runs and really is this cluster's
    /// (a stale file after a kill may name a pid reused by an unrelated process).
    private func runningPostmaster() -> PostgresProcess? {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
            let line = text.split(separator: "\n").first, let pid = pid_t(line),
            let fields = Self.statFields(pid), fields.state != "Z",
            let commandLine = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")),
            String(decoding: commandLine, as: UTF8.self).contains(dataDirectory)
        else { return nil }
        return PostgresProcess(pid: pid, startTime: fields.startTime)
    }

    /// Runs a client tool of the server's binaries (`pg_dump`, `pg_restore`, `createdb`, …)
    /// against this server as its user: `-h`, `-p` and `-U` come first.
    public func client(_ tool: String, _ arguments: [String]) throws -> PythonTools.CommandOutcome {
        try PythonTools.run(
            binaries + "/" + tool, ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user] + arguments,
            environment: Self.environment(), timeout: 60)
    }

    /// Runs a server tool, as the `postgres` user when we are root.
    private static func run(
        _ tool: String, _ arguments: [String], binaries: String, owner: ServerAccount?,
        directory: String, timeout: Double
    ) throws -> PythonTools.CommandOutcome {
        let (executable, arguments) = command(tool, arguments, binaries: binaries, owner: owner)
        return try PythonTools.run(executable.path, arguments, environment: environment(), workingDirectory: directory, timeout: timeout)
    }

    /// `binaries/tool arguments…`, through setpriv as the `postgres` user when we are root.
    private static func command(_ tool: String, _ arguments: [String], binaries: String, owner: ServerAccount?) -> (URL, [String]) {
        let executable = binaries + "/" + tool
        guard let owner else { return (URL(fileURLWithPath: executable), arguments) }
        return (
            URL(fileURLWithPath: owner.setpriv),
            ["--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--clear-groups", "--", executable] + arguments
        )
    }

    /// The inherited environment without PG* variables, which would point the tools at another
    /// server, user or password file; connection attempts give up after 10 s.
    private static func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
        environment["PGCONNECT_TIMEOUT"] = "10"
        return environment
    }

    private struct ServerAccount {
        let uid: uid_t
        let gid: gid_t
        let setpriv: String
    }

    /// Nil unless we are root, in which case the server runs as `postgres`.
    private static func serverAccount() throws -> ServerAccount? {
        guard geteuid() == 0 else { return nil }
        guard let entry = getpwnam("postgres") else {
            throw Failure(
                "running as root, the PostgreSQL server needs the `postgres` system user, which the `postgresql` package creates: apt-get install -y postgresql libpq-dev"
            )
        }
        guard
            let setpriv = PythonTools.executableOnPath("setpriv")
                ?? ["/usr/bin/setpriv", "/bin/setpriv"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw Failure("running as root, the tests start PostgreSQL as `postgres` with setpriv: apt-get install -y util-linux")
        }
        return ServerAccount(uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid, setpriv: setpriv)
    }

    /// `CORKBOARD_PG_BIN`, else the newest /usr/lib/postgresql/*/bin (Debian), else `pg_config --bindir`.
    public static func findBinaries(configured: String? = ProcessInfo.processInfo.environment["CORKBOARD_PG_BIN"]) throws -> String {
        if let configured, !configured.isEmpty {
            guard hasServerTools(configured) else {
                throw Failure(
                    "CORKBOARD_PG_BIN=\(configured) lacks initdb, postgres, createdb or psql; unset it to use the system's (apt-get install -y postgresql libpq-dev)"
                )
            }
            return configured
        }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { $0.split(separator: ".").compactMap { Int($0) }.lexicographicallyPrecedes($1.split(separator: ".").compactMap { Int($0) }) }
        if let newest = versions.reversed().map({ "/usr/lib/postgresql/\($0)/bin" }).first(where: hasServerTools) { return newest }
        if let pgConfig = PythonTools.executableOnPath("pg_config"),
            let outcome = try? PythonTools.run(pgConfig, ["--bindir"], timeout: 30), outcome.succeeded
        {
            let folder = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            if hasServerTools(folder) { return folder }
        }
        throw Failure(
            """
            the PostgreSQL server binaries (initdb, postgres) were not found in CORKBOARD_PG_BIN, \
            /usr/lib/postgresql/*/bin or `pg_config --bindir`: install them with `apt-get install -y postgresql libpq-dev` \
            (the README's first command and .ci/run do)
            """)
    }

    private static func hasServerTools(_ folder: String) -> Bool {
        ["initdb", "postgres", "createdb", "psql"].allSatisfy { FileManager.default.isExecutableFile(atPath: folder + "/" + $0) }
    }

    /// A fresh folder (mkdtemp: unique across processes), owned by the server's user. Its path
    /// stays short: a Unix socket path (folder + "/.s.PGSQL.65535") must fit in 107 bytes.
    private static func makeDirectory(owner: ServerAccount?) throws -> String {
        var parent = NSTemporaryDirectory()
        while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
        // The `postgres` user must be able to reach the folder: when the temporary folder is
        // private to root (or too long), use /tmp, which everyone can traverse.
        if parent.utf8.count > 60 || (owner != nil && !everyoneCanTraverse(parent)) { parent = "/tmp" }
        var template = Array((parent + "/corkboard-pg-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw Failure("cannot create a folder in \(parent): \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: created)
        if let owner, chown(directory, owner.uid, owner.gid) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: directory)
            throw Failure("cannot give \(directory) to the postgres user: \(reason)")
        }
        return directory
    }

    private static func everyoneCanTraverse(_ path: String) -> Bool {
        var folder = URL(fileURLWithPath: path)
        while true {
            guard let mode = (try? FileManager.default.attributesOfItem(atPath: folder.path))?[.posixPermissions] as? Int,
                mode & 0o001 != 0
            else { return false }
            if folder.path == "/" { return true }
            folder.deleteLastPathComponent()
        }
    }

    /// A port the kernel considers free on 127.0.0.1 right now.
    static func freeLoopbackPort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else { throw Failure("bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// The state and start time of a process, from /proc/PID/stat (readable for any process,
    /// unlike /proc/PID/cwd, which a root without CAP_SYS_PTRACE cannot read for `postgres`).
    static func statFields(_ pid: pid_t) -> (state: String, parent: pid_t, startTime: String)? {
        // State, ppid, …; the start time is field 22 of the whole line.
        guard let fields = procStatFields(pid), fields.count > 19, let parent = pid_t(fields[1]) else { return nil }
        return (String(fields[0]), parent, String(fields[19]))
    }

    private static func children(of parent: pid_t) -> [PostgresProcess] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), let fields = statFields(pid), fields.parent == parent, fields.state != "Z" else { return nil }
            return PostgresProcess(pid: pid, startTime: fields.startTime)
        }
    }

    /// A shell that outlives a crashed test process: once this process is gone and the folder
    /// still exists (no `destroy` ran, e.g. after SIGKILL or a crash), it stops the server at
    /// once and deletes the folder. It exits by itself within a second of `destroy`.
    private static func startWatchdog(directory: String) -> DetachedProcess? {
        let script = """
            while [ -d "/proc/$1" ] && [ -d "$2" ]; do sleep 1; done
            [ -d "$2" ] || exit 0
            pid=$(head -n 1 "$3/postmaster.pid" 2>/dev/null)
            if [ -n "$pid" ] && tr '\\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$3"; then
              kill -QUIT "$pid"; i=0
              while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
              kill -KILL "$pid" 2>/dev/null
            fi
            rm -rf "$2"
            """
        return try? DetachedProcess.spawn(
            "/bin/sh", ["-c", script, "corkboard-pg-watchdog", "\(getpid())", directory, directory + "/data"],
            environment: ProcessInfo.processInfo.environment, newProcessGroup: true)
    }

    /// Its whole process group (it leads one), so no `sleep` lingers; then it is reaped.
    private static func stopWatchdog(_ watchdog: DetachedProcess?) {
        guard let watchdog, watchdog.isRunning else { return }
        Glibc.kill(-watchdog.pid, SIGKILL)
        watchdog.waitForExit(timeout: 5)
    }

    static func tail(_ text: String, lines: Int = 30) -> String { PythonTools.tail(text, lines: lines) }

    private static let sharedCluster = SharedCluster()
}

/// The process-wide cluster behind `PostgresCluster.shared()`: started on first use, once; a
/// failure is kept too, so every test reports it at once instead of each retrying the start.
/// Thread safety: `lock` guards `outcome`.
private final class SharedCluster: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Result<PostgresCluster, Error>?

    func get() throws -> PostgresCluster {
        lock.lock()
        defer { lock.unlock() }
        if let outcome { return try outcome.get() }
        let started = Result { try PostgresCluster.start() }
        outcome = started
        if case .success = started {
            atexit { PostgresCluster.destroySharedAtExit() }
        }
        return try started.get()
    }

    func destroy() {
        lock.lock()
        defer { lock.unlock() }
        if case .success(let cluster) = outcome { cluster.destroy() }
    }
}

extension PostgresCluster {
    /// Signals and file removal only: no subprocess while the process exits.
    fileprivate static func destroySharedAtExit() { sharedCluster.destroy() }
}
