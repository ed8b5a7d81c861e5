import Foundation
import TestSupport
import Testing

/// The throwaway PostgreSQL server the store's tests run against: it starts, serves fresh
/// databases over 127.0.0.1 only, keeps its data across restarts and crashes, and leaves no
/// process or folder behind. Everything here blocks, so it runs through `offPool`.
@Suite(.threadsOfTheirOwn) struct PostgresClusterTests {
    /// `psql URL -c SQL`, as a libpq client sees the URL (not through the helper's own flags).
    private static func query(_ url: String, _ sql: String, binaries: String) throws -> PythonTools.CommandOutcome {
        var environment = PythonTools.cleanEnvironment().filter { !$0.key.hasPrefix("PG") }
        environment["PGCONNECT_TIMEOUT"] = "5"
        return try PythonTools.run(binaries + "/psql", [url, "-X", "-A", "-t", "-c", sql], environment: environment, timeout: 30)
    }

    @Test func sharedClusterServesFreshDatabasesThroughTheirURLs() async throws {
        try await offPool {
            let cluster = try PostgresCluster.shared()
            #expect(try PostgresCluster.shared() === cluster, "started once per process")

            let first = try cluster.createDatabase()
            let second = try cluster.createDatabase()
            #expect(first != second)
            #expect(first.hasPrefix("postgres://corkboard@127.0.0.1:\(cluster.port)/test_"))

            let selected = try Self.query(first, "select 1", binaries: cluster.binaries)
            #expect(selected.succeeded, "\(selected.standardError)")
            #expect(selected.standardOutput == "1\n")
            let name = try Self.query(second, "select current_database()", binaries: cluster.binaries)
            #expect(second.hasSuffix("/" + name.standardOutput.trimmingCharacters(in: .newlines)))

            let main = try Self.query(cluster.url, "select current_user", binaries: cluster.binaries)
            #expect(main.standardOutput == "corkboard\n", "the database `corkboard` exists and trust lets its superuser in")

            let duplicate = #expect(throws: PostgresCluster.Failure.self) { try cluster.createDatabase("corkboard") }
            #expect(duplicate?.description.contains("already exists") == true)
        }
    }

    @Test func listensOnLoopbackOnly() async throws {
        try await offPool {
            let cluster = try PostgresCluster.shared()
            #expect(try cluster.psql("show listen_addresses") == "127.0.0.1")
            // The kernel's own list of listening sockets: every one on the port is 127.0.0.1.
            let listening = Self.listeningAddresses(port: cluster.port, table: "/proc/net/tcp")
            #expect(listening == ["0100007F"], "IPv4 listeners on \(cluster.port): \(listening)")
            #expect(Self.listeningAddresses(port: cluster.port, table: "/proc/net/tcp6").isEmpty)
        }
    }

    @Test func refusesDatabaseNamesThatWouldNeedEscaping() async throws {
        try await offPool {
            let cluster = try PostgresCluster.shared()
            for name in ["Board", "a-b", "a b", "x;drop", "1abc", "", String(repeating: "a", count: 64)] {
                #expect(throws: PostgresCluster.Failure.self, "\(name)") { try cluster.createDatabase(name) }
            }
        }
    }

    @Test func stopAndStartKeepTheDataOnTheSamePort() async throws {
        try await offPool {
            let cluster = try PostgresCluster.start()
            defer { cluster.destroy() }
            try cluster.psql("create table cards (id int primary key, title text); insert into cards values (1, 'kept')")
            let port = cluster.port

            for mode in [PostgresCluster.ShutdownMode.fast, .immediate] {
                let processes = cluster.serverProcesses()
                #expect(processes.count > 1, "the postmaster and its background processes")
                try cluster.stop(mode: mode)
                #expect(!cluster.isRunning)
                #expect(!processes.contains { $0.isAlive }, "\(mode): every server process has exited")
                let refused = try Self.query(cluster.url, "select 1", binaries: cluster.binaries)
                #expect(!refused.succeeded, "\(mode): nothing answers while stopped")
                try cluster.stop(mode: mode) // Stopping a stopped server does nothing.

                try cluster.start()
                #expect(cluster.isRunning && cluster.port == port)
                #expect(try cluster.psql("select title from cards where id = 1") == "kept", "after a \(mode) stop")
            }
        }
    }

    @Test func aKilledServerRecoversItsCommittedData() async throws {
        try await offPool {
            let cluster = try PostgresCluster.start()
            defer { cluster.destroy() }
            try cluster.psql("create table cards (id int); insert into cards select generate_series(1, 1000)")
            let processes = cluster.serverProcesses()

            cluster.kill()
            #expect(!cluster.isRunning)
            #expect(!processes.contains { $0.isAlive }, "the backends follow their postmaster")

            try cluster.start()
            #expect(try cluster.psql("select count(*) from cards") == "1000")
            let log = try String(contentsOfFile: cluster.logFile, encoding: .utf8)
            #expect(log.contains("database system was interrupted"), "the restart ran crash recovery")
        }
    }

    @Test func aSynchronousStandbyHasEveryCommitAndTakesWritesOncePromoted() async throws {
        try await offPool {
            let primary = try PostgresCluster.start()
            defer { primary.destroy() }
            let standby = try PostgresCluster.standby(of: primary, name: "standby_one")
            defer { standby.destroy() }
            try primary.requireSynchronousStandby("standby_one")
            try primary.psql("create table cards (id int); insert into cards select generate_series(1, 100)")
            // Synchronous: the commit was answered once the standby had it.
            #expect(try standby.psql("select count(*) from cards") == "100")
            #expect(throws: PostgresCluster.Failure.self, "a standby is read-only") { try standby.psql("insert into cards values (101)") }

            let processes = primary.serverProcesses()
            primary.killAllProcesses()
            #expect(!primary.isRunning)
            #expect(processes.count > 1 && !processes.contains { $0.isAlive }, "the postmaster and every backend are gone")

            try standby.promote()
            try standby.psql("insert into cards values (101)")
            #expect(try standby.psql("select count(*) from cards") == "101")
        }
    }

    @Test func destroyStopsTheServerAndRemovesItsFolder() async throws {
        try await offPool {
            let cluster = try PostgresCluster.start()
            let processes = cluster.serverProcesses()
            #expect(FileManager.default.fileExists(atPath: cluster.dataDirectory + "/PG_VERSION"))

            cluster.destroy()
            #expect(!FileManager.default.fileExists(atPath: cluster.directory))
            #expect(!processes.isEmpty && !processes.contains { $0.isAlive })
            #expect(!(try Self.query(cluster.url, "select 1", binaries: cluster.binaries)).succeeded)
            cluster.destroy() // Idempotent.
            #expect(throws: PostgresCluster.Failure.self) { try cluster.start() }
        }
    }

    @Test func clustersStartedTogetherDoNotCollide() async throws {
        let starts = (0..<2).map { _ in BlockingWork { try PostgresCluster.start() } }
        let first = try await starts[0].value
        let second = try await starts[1].value
        try await offPool {
            defer {
                first.destroy()
                second.destroy()
            }
            #expect(first.port != second.port)
            #expect(first.directory != second.directory)
            try first.psql("create table only_here (id int)")
            #expect(try first.psql("select count(*) from only_here") == "0")
            #expect(throws: PostgresCluster.Failure.self) { try second.psql("select count(*) from only_here") }
        }
    }

    @Test func missingBinariesSayWhatToInstall() throws {
        let empty = try TemporaryDirectory("corkboard-no-postgres")
        let failure = #expect(throws: PostgresCluster.Failure.self) { try PostgresCluster.findBinaries(configured: empty.path) }
        #expect(failure?.description.contains("apt-get install -y postgresql") == true)
        // Without the variable the system's binaries are found (the README and CI install them).
        let found = try PostgresCluster.findBinaries(configured: nil)
        #expect(FileManager.default.isExecutableFile(atPath: found + "/initdb"))
    }

    /// Local addresses (hex, as the kernel prints them) of the sockets listening on `port`.
    private static func listeningAddresses(port: UInt16, table: String) -> [String] {
        // Read to the end: /proc reports a size of 0, and with the thousands of sockets other
        // tests leave in TIME_WAIT the table is far longer than one read.
        let data = FileHandle(forReadingAtPath: table)?.readDataToEndOfFile() ?? Data()
        let text = String(decoding: data, as: UTF8.self)
        let hexPort = String(format: "%04X", port)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: " ")
            guard columns.count > 3, columns[3] == "0A" else { return nil } // 0A: LISTEN.
            let local = columns[1].split(separator: ":")
            guard local.count == 2, local[1] == hexPort else { return nil }
            return String(local[0])
        }
    }
}
