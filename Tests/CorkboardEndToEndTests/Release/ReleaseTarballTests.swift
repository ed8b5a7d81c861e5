import Foundation
import TestSupport
import Testing

/// `scripts/release.sh` makes a tarball that serves boards on a machine without Swift (issue
/// #33): built here, unpacked, its binary checked for libraries of the toolchain, then run as
/// the systemd unit it ships would run it, with the toolchain out of reach.
///
/// The first run builds a static release from scratch (several minutes on two cores); later
/// runs reuse `.build/release-static` and relink only what changed.
@Suite(.threadsOfTheirOwn) struct ReleaseTarballTests {
    /// What the binary itself may name: Debian's libssl3, zlib1g, libsqlite3-0, libpq5, and the
    /// base system. Anything else would be a package INSTALL.md does not list.
    static let allowedNeeded: Set<String> = [
        "libssl.so.3", "libcrypto.so.3", "libz.so.1", "libsqlite3.so.0", "libpq.so.5",
        "libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libutil.so.1",
        "libstdc++.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
    ]
    /// The shared libraries of a Swift toolchain, which no Debian package provides.
    static let toolchainLibraries = ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libicu"]

    @Test(.runningTimeLimit(.minutes(20))) func tarballServesABoardWithoutTheToolchain() throws {
        let output = try TemporaryDirectory("corkboard-release-out")
        let unpacked = try TemporaryDirectory("corkboard-release-unpacked")
        let release = try ReleaseTarball.make(output: output.path, unpackInto: unpacked.path, timeout: 18 * 60)
        let toolchain = try ReleaseTarball.toolchainRoot()

        let name = URL(fileURLWithPath: release.folder).lastPathComponent
        #expect(URL(fileURLWithPath: release.path).lastPathComponent == name + ".tar.gz")
        for file in [
            "bin/corkboard", "web/index.html", "web/sdk/corkboard.js", "docs/versioning.md", "LICENSE", "CHANGELOG.md", "README.md",
            "INSTALL.md", "corkboard.service", "corkboard.env",
        ] {
            #expect(FileManager.default.fileExists(atPath: release.folder + "/" + file), "the tarball lacks \(file)")
        }

        // The loader finds everything, and nothing of the toolchain: neither by name, nor in its folder.
        let libraries = try release.linkedLibraries()
        PythonTools.log("ldd bin/corkboard:\n\(libraries)")
        #expect(!libraries.contains("not found"), "\(libraries)")
        for library in Self.toolchainLibraries { #expect(!libraries.contains(library), "\(libraries)") }
        #expect(!libraries.contains(toolchain + "/lib"), "\(libraries)")
        let needed = try release.neededLibraries()
        #expect(!needed.isEmpty && Set(needed).isSubset(of: Self.allowedNeeded), "needed beyond Debian's four packages: \(needed)")
        // No search path baked in, which could lead the loader to the toolchain's lib folder.
        let dynamic = try release.dynamicSection()
        #expect(!dynamic.contains("RUNPATH") && !dynamic.contains("RPATH"), "\(dynamic)")

        try serveAsTheUnitDoes(release, toolchain: toolchain)
        withExtendedLifetime((output, unpacked)) {}
    }

    /// Starts the unpacked binary with the unit's environment (its folder put where the unit
    /// expects `/opt/corkboard`) and its environment file, from an empty working folder, with
    /// the toolchain's bin off PATH and LD_LIBRARY_PATH empty; then reads a board and the page.
    private func serveAsTheUnitDoes(_ release: ReleaseTarball, toolchain: String) throws {
        let unit = try SystemdUnit(path: release.folder + "/corkboard.service")
        let installRoot = try #require(unit.installRoot, "ExecStart must run INSTALL/bin/corkboard serve: \(unit.values("ExecStart"))")
        var environment = unit.environment.mapValues { $0.replacingOccurrences(of: installRoot, with: release.folder) }
        #expect(environment["CORKBOARD_WEB_ROOT"] == release.folder + "/web", "the unit must point the server at the tarball's web folder")
        let settings = try EnvironmentFile(path: release.folder + "/corkboard.env")
        #expect(settings.values["CORKBOARD_HOST"] == "127.0.0.1", "the shipped settings listen on loopback (open mode)")
        environment.merge(settings.values) { $1 }

        let state = try TemporaryDirectory("corkboard-release-state")
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").filter { !$0.hasPrefix(toolchain) }
        environment["PATH"] = path.joined(separator: ":")
        environment["LD_LIBRARY_PATH"] = ""
        environment["HOME"] = state.path
        environment["CORKBOARD_DATA"] = state.path + "/data"
        let log = state.path + "/server.log"
        // A long-lived child through posix_spawn (DetachedProcess), in a group of its own.
        let server = try DetachedProcess.spawn(
            release.binary, ["serve", "--port", "0", "--store", "sqlite"], environment: environment, directory: state.path, output: log,
            newProcessGroup: true)
        defer {
            kill(-server.pid, SIGKILL)
            server.waitForExit(timeout: 10)
        }
        var port: UInt16?
        _ = eventually(timeout: 30) {
            port = Self.listeningPort(in: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
            return port != nil || !server.isRunning
        }
        let serverLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let listening = try #require(port, "the unpacked server did not start:\n\(PythonTools.tail(serverLog))")

        // What the process mapped: none of the toolchain's files.
        let maps = try String(contentsOfFile: "/proc/\(server.pid)/maps", encoding: .utf8)
        #expect(!maps.contains(toolchain + "/"), "the server mapped a file of the toolchain")
        for library in Self.toolchainLibraries { #expect(!maps.contains(library), "the server mapped \(library)") }

        let health = try BlockingClient.request(port: listening, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(health.status == 200, "\(health.text)")
        let board = try BlockingClient.request(port: listening, "GET /api/boards/demo HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(board.status == 200 && board.text.contains("\"demo\""), "\(board.status) \(board.text.prefix(300))")
        let page = try BlockingClient.request(port: listening, "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let index = try Data(contentsOf: URL(fileURLWithPath: release.folder + "/web/index.html"))
        #expect(page.status == 200 && Data(page.body) == index, "GET / must serve the tarball's web/index.html: \(page.status)")
        #expect(FileManager.default.fileExists(atPath: state.path + "/data/corkboard.sqlite"), "the SQLite store keeps its file in CORKBOARD_DATA")

        // A graceful stop, as `systemctl stop` asks for it.
        kill(server.pid, SIGTERM)
        #expect(server.waitForExit(timeout: 20), "SIGTERM must stop the server")
    }

    /// The unit as shipped (read from `packaging/`, so this needs no build): its own user, its
    /// state folder the only place it writes, no way to gain privileges, settings from a file.
    @Test func unitRunsTheServerConfinedAsItsOwnUser() throws {
        let unit = try SystemdUnit(path: PythonTools.packageRoot + "/packaging/corkboard.service")
        let user = try #require(unit.value("User"))
        #expect(!["", "root", "0"].contains(user) && unit.value("DynamicUser") != "yes", "a dedicated, named user")
        let state = try #require(unit.value("StateDirectory"))
        #expect(unit.environment["CORKBOARD_DATA"] == "/var/lib/" + state, "the data folder is the state folder")
        #expect(unit.value("WorkingDirectory") == "/var/lib/" + state)
        #expect(unit.value("ReadWritePaths") == "/var/lib/" + state)
        #expect(unit.value("NoNewPrivileges") == "yes")
        #expect(unit.value("ProtectSystem") == "strict")
        #expect(unit.value("ProtectHome") == "yes")
        #expect(unit.value("CapabilityBoundingSet") == "")
        #expect(unit.value("EnvironmentFile") == "-/etc/corkboard/corkboard.env")
        #expect(unit.value("ExecStart") == "\(unit.installRoot ?? "?")/bin/corkboard serve")
        #expect(unit.environment["CORKBOARD_WEB_ROOT"] == "\(unit.installRoot ?? "?")/web")
        #expect(unit.value("ExecReload") == "/bin/kill -HUP $MAINPID", "SIGHUP rereads tokens and certificates")
        #expect(unit.value("WantedBy") == "multi-user.target")

        // systemd's own reading: an unknown key or a value it cannot parse is a warning on standard
        // error (exit 0). ExecStart must name an existing file, so the copy runs /bin/true.
        let analyze = try #require(PythonTools.executableOnPath("systemd-analyze"), "systemd-analyze (Debian's systemd) is needed")
        let folder = try TemporaryDirectory("corkboard-unit")
        let text = try String(contentsOfFile: PythonTools.packageRoot + "/packaging/corkboard.service", encoding: .utf8)
        let copy = try folder.write("corkboard.service", text.replacingOccurrences(of: "\(unit.installRoot ?? "?")/bin/corkboard", with: "/bin/true"))
        let verified = try PythonTools.run(analyze, ["verify", copy], timeout: 60)
        #expect(verified.succeeded && verified.standardError.isEmpty, "\(verified.standardError)")
    }

    /// The script builds as `ReleaseBuild` does, so the conformance tests' release and this
    /// one are one build (two would cost CI several minutes of its two cores).
    @Test func scriptBuildsWhatTheConformanceTestsRun() throws {
        let script = try String(contentsOfFile: PythonTools.packageRoot + "/scripts/release.sh", encoding: .utf8)
        let build = "swift build " + ReleaseBuild.options.joined(separator: " ") + " --scratch-path \"$scratch\""
        #expect(script.contains("\n" + build + " "), "release.sh must run `\(build)`")
        #expect(script.contains("scratch=${SCRATCH:-.build/release-static}") && ReleaseBuild.scratchPath.hasSuffix("/.build/release-static"))
    }

    /// The port of the `corkboard listening on http://HOST:PORT` line.
    private static func listeningPort(in output: String) -> UInt16? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("corkboard listening on") }) else { return nil }
        return line.split(separator: ":").last.flatMap { UInt16($0) }
    }
}
