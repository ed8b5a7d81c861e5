import Foundation
import TestSupport
import Testing
import Yams

/// No Docker engine runs where the tests do, so the deployment files are checked as data (and
/// nginx checks the balancer's configuration; ClusterBalancerTests run it in front of nodes):
/// the compose service, its port, its volume, and that the Dockerfile agrees with them; the
/// scale-out profile (PostgreSQL, two nodes, nginx) and the load balancer's configuration.
@Suite(.threadsOfTheirOwn) struct DeploymentFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func read(_ name: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func composeRunsTheServerWithItsDataOnAVolume() throws {
        let compose = try #require(try Yams.load(yaml: try read("docker-compose.yml")) as? [String: Any])
        let services = try #require(compose["services"] as? [String: Any])
        let service = try #require(services["corkboard"] as? [String: Any])
        #expect(service["build"] as? String == ".")
        // Open mode (no tokens) is published on the host's loopback only (issue #33).
        #expect(service["ports"] as? [String] == ["127.0.0.1:8080:8080"])

        let environment = try #require(service["environment"] as? [String: Any])
        #expect(environment["CORKBOARD_HOST"] as? String == "0.0.0.0", "inside a container the server must listen beyond loopback")
        #expect("\(environment["CORKBOARD_PORT"] ?? "")" == "8080")
        let dataFolder = try #require(environment["CORKBOARD_DATA"] as? String)

        let mounts = try #require(service["volumes"] as? [String])
        let dataMount = try #require(mounts.first { $0.hasSuffix(":" + dataFolder) }, "the data folder must be a volume")
        let volumeName = String(dataMount.split(separator: ":")[0])
        let volumes = try #require(compose["volumes"] as? [String: Any])
        #expect(volumes.keys.contains(volumeName), "the named volume must be declared")
        #expect(service["stop_signal"] as? String == "SIGTERM")
    }

    @Test func dockerfileBuildsAndServesWhatComposeExpects() throws {
        let dockerfile = try read("Dockerfile")
        #expect(dockerfile.contains("EXPOSE 8080"))
        #expect(dockerfile.contains("CORKBOARD_DATA=/data"))
        #expect(dockerfile.contains("VOLUME [\"/data\"]"))
        #expect(dockerfile.contains("CMD [\"corkboard\", \"serve\"]"))
        #expect(dockerfile.contains("libssl-dev") && dockerfile.contains("zlib1g-dev"))
    }

    /// The image is the release tarball on plain Debian: built by scripts/release.sh (which
    /// ReleaseTarballTests run), its runtime stage without the toolchain and not root.
    @Test func dockerfileRunsTheReleaseTarballWithoutTheToolchain() throws {
        let dockerfile = try read("Dockerfile")
        let stages = dockerfile.components(separatedBy: "\nFROM ").dropFirst()
        let (build, runtime) = (try #require(stages.first), try #require(stages.last))
        #expect(build.hasPrefix("swift:6.3-bookworm AS build"))
        #expect(build.contains("RUN scripts/release.sh /out"))
        // Everything the script packs is copied in, from paths that exist and Docker sends.
        let copied = build.split(separator: "\n").filter { $0.hasPrefix("COPY ") }.flatMap { $0.split(separator: " ").dropFirst().dropLast() }
        let ignored = try read(".dockerignore").split(separator: "\n").map(String.init)
        for path in ["Package.swift", "Sources", "Tests", "scripts", "packaging", "web", "docs", "LICENSE", "CHANGELOG.md", "README.md"] {
            #expect(copied.contains(Substring(path)), "the build stage must copy \(path)")
        }
        for path in copied {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(String(path)).path), "\(path) is not in the repository")
            #expect(!ignored.contains(String(path)), "\(path) is in .dockerignore")
        }

        // The same Debian as the build image, with the libraries INSTALL.md lists and no Swift.
        #expect(runtime.hasPrefix("debian:bookworm-slim\n"))
        let install = try #require(runtime.split(separator: "\n").first { $0.contains("apt-get install") })
        let packages = Set(install.split(separator: " ").map(String.init).drop { $0 != "--no-install-recommends" }.dropFirst().filter { $0 != "\\" })
        #expect(packages == ["libssl3", "zlib1g", "libsqlite3-0", "libpq5", "curl"], "\(packages)")
        let installNote = try read("packaging/INSTALL.md")
        #expect(installNote.contains("libssl3 zlib1g libsqlite3-0 libpq5"))
        #expect(runtime.contains("COPY --from=build /release /opt/corkboard"))
        #expect(runtime.contains("CORKBOARD_WEB_ROOT=/opt/corkboard/web"))
        #expect(runtime.contains("PATH=/opt/corkboard/bin:$PATH"))
        #expect(!runtime.lowercased().contains("swift"), "the runtime image carries no toolchain")
        // A user of its own, owning the data volume, and the settings a reader must know explained.
        #expect(runtime.contains("useradd --system") && runtime.contains("chown corkboard:corkboard /data"))
        #expect(runtime.contains("\nUSER corkboard\n"))
        #expect(runtime.contains("open mode") && runtime.contains("CORKBOARD_TOKENS") && runtime.contains("CORKBOARD_TOKEN_SECRET_FILE"))
    }

    // MARK: - Scale-out: PostgreSQL, two nodes, a load balancer

    private func composeServices() throws -> (compose: [String: Any], services: [String: [String: Any]]) {
        let compose = try #require(try Yams.load(yaml: try read("docker-compose.yml")) as? [String: Any])
        let services = try #require(compose["services"] as? [String: Any]).compactMapValues { $0 as? [String: Any] }
        return (compose, services)
    }

    private static let nodes = ["corkboard-1", "corkboard-2"]
    private static let balancerAddress = "172.28.5.10"

    @Test func composeScalesOutOnPostgresBehindALoadBalancer() throws {
        let (compose, services) = try composeServices()
        func profiles(_ name: String) -> [String] { services[name]?["profiles"] as? [String] ?? [] }
        // `docker compose up` runs the single node only; the rest needs `--profile scale-out`.
        #expect(profiles("corkboard").isEmpty)
        for name in services.keys where name != "corkboard" {
            #expect(profiles(name) == ["scale-out"], "\(name) must only start with the scale-out profile")
        }

        let postgres = try #require(services["postgres"])
        #expect((postgres["image"] as? String)?.hasPrefix("postgres:15") == true)
        let postgresEnvironment = try #require(postgres["environment"] as? [String: Any])
        let healthcheck = try #require((postgres["healthcheck"] as? [String: Any])?["test"] as? [String])
        #expect(healthcheck.contains("pg_isready"))
        let dataMount = try #require((postgres["volumes"] as? [String])?.first { $0.hasSuffix(":/var/lib/postgresql/data") })
        #expect((compose["volumes"] as? [String: Any])?.keys.contains(String(dataMount.split(separator: ":")[0])) == true)

        for name in Self.nodes {
            let node = try #require(services[name], "\(name) is missing")
            #expect(node["build"] as? String == ".")
            let command = try #require(node["command"] as? [String], "\(name): command as a list")
            #expect(Array(command.prefix(2)) == ["corkboard", "serve"])
            let store = try #require(command.firstIndex(of: "--store"))
            #expect(command.indices.contains(store + 1) && command[store + 1] == "postgres", "\(name) must use --store postgres")
            let urlOption = try #require(command.firstIndex(of: "--database-url"), "\(name) needs --database-url")
            let url = try #require(URLComponents(string: command[urlOption + 1]))
            // The URL names the postgres service and the account its image creates.
            #expect(url.scheme == "postgres" && url.host == "postgres" && url.port == 5432)
            #expect(url.user == postgresEnvironment["POSTGRES_USER"] as? String)
            #expect(url.password == postgresEnvironment["POSTGRES_PASSWORD"] as? String)
            #expect(url.path == "/" + (postgresEnvironment["POSTGRES_DB"] as? String ?? "?"))

            let dependsOn = try #require(node["depends_on"] as? [String: Any])
            #expect((dependsOn["postgres"] as? [String: Any])?["condition"] as? String == "service_healthy")
            let environment = try #require(node["environment"] as? [String: Any])
            #expect(environment["CORKBOARD_HOST"] as? String == "0.0.0.0")
            #expect("\(environment["CORKBOARD_PORT"] ?? "")" == "8080")
            #expect(node["stop_signal"] as? String == "SIGTERM")
            #expect((node["ports"] as? [String])?.allSatisfy { $0.hasPrefix("127.0.0.1:") } == true, "\(name) is published on loopback only")
            // X-Forwarded-For is taken from the balancer alone, at its fixed address.
            #expect(environment["CORKBOARD_TRUSTED_PROXIES"] as? String == "\(Self.balancerAddress)/32")
        }

        let balancer = try #require(services["lb"])
        #expect((balancer["image"] as? String)?.hasPrefix("nginx:") == true)
        #expect(balancer["ports"] as? [String] == ["127.0.0.1:8090:80"])
        let balancerNetworks = try #require(balancer["networks"] as? [String: Any])
        #expect((balancerNetworks["default"] as? [String: Any])?["ipv4_address"] as? String == Self.balancerAddress)
        let subnets = ((compose["networks"] as? [String: Any])?["default"] as? [String: Any])?["ipam"] as? [String: Any]
        #expect((subnets?["config"] as? [[String: Any]])?.first?["subnet"] as? String == "172.28.5.0/24")
        let configMount = try #require((balancer["volumes"] as? [String])?.first { $0.contains(":/etc/nginx/nginx.conf") })
        let hostPath = String(configMount.split(separator: ":")[0])
        #expect(hostPath.hasPrefix("./"))
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(hostPath).path), "\(hostPath) must be in the repository")
        let balancerDependsOn = try #require(balancer["depends_on"] as? [String: Any])
        #expect(Set(balancerDependsOn.keys) == Set(Self.nodes))

        // nginx balances across exactly these nodes, on the port they listen on.
        let upstream = try nginxDirectives().filter { $0.context.last?.hasPrefix("upstream ") == true && $0.words.first == "server" }
        #expect(upstream.map { $0.words[1] }.sorted() == Self.nodes.map { "\($0):8080" })
    }

    @Test func dockerfileLinksLibpq() throws {
        let dockerfile = try read("Dockerfile")
        let stages = dockerfile.components(separatedBy: "\nFROM ").dropFirst() // After the opening comment.
        #expect(stages.count == 2)
        #expect(stages.first?.contains("libpq-dev") == true, "the build stage needs libpq's headers")
        #expect(stages.last?.contains("libpq5") == true, "the runtime image needs libpq")
    }

    @Test func loadBalancerProxiesWebSocketsToBothNodes() async throws {
        let directives = try nginxDirectives()
        func values(_ name: String, in block: String) -> [[String]] {
            directives.filter { $0.context.last == block && $0.words.first == name }.map { Array($0.words.dropFirst()) }
        }
        // The Connection header follows the client's Upgrade: a WebSocket handshake gets `upgrade`.
        let map = directives.filter { $0.context.last == "map $http_upgrade $connection_upgrade" }.map(\.words)
        #expect(map.contains(["default", "upgrade"]) && map.contains(["''", "close"]), "\(map)")

        let upstreams = directives.compactMap(\.context.last).filter { $0.hasPrefix("upstream ") }
        let upstreamName = try #require(upstreams.first.map { String($0.dropFirst("upstream ".count)) })
        #expect(values("server", in: "upstream \(upstreamName)").map { $0.first ?? "" }.sorted() == Self.nodes.map { "\($0):8080" })
        // Board affinity: a board's requests hash to one node, the key being the WebSocket's
        // `board=` or the id in an API path (docs/storage.md, "Board affinity").
        #expect(values("hash", in: "upstream \(upstreamName)") == [["$corkboard_board", "consistent"]])
        let key = directives.filter { $0.context.last == "map $arg_board $corkboard_board" }.map(\.words)
        #expect(key.contains(["default", "$arg_board"]) && key.contains(["\"\"", "$corkboard_board_in_path"]), "\(key)")

        let location = "location /"
        #expect(values("proxy_pass", in: location) == [["http://\(upstreamName)"]])
        #expect(values("proxy_http_version", in: location) == [["1.1"]])
        let headers = values("proxy_set_header", in: location)
        #expect(headers.contains(["Upgrade", "$http_upgrade"]))
        #expect(headers.contains(["Connection", "$connection_upgrade"]))
        #expect(headers.contains(["X-Forwarded-For", "$proxy_add_x_forwarded_for"]))
        #expect(values("proxy_buffering", in: location) == [["off"]])
        // Longer than the server's 30 s ping interval, or idle WebSockets would be cut.
        let readTimeout = try #require(values("proxy_read_timeout", in: location).first?.first)
        #expect(Self.nginxSeconds(readTimeout) >= 300, "proxy_read_timeout \(readTimeout)")
        #expect(values("listen", in: "server") == [["80"]])

        try await checkSyntaxWithNginx()
    }

    /// `nginx -t` on the example as `NginxBalancer` runs it: upstream hosts on loopback (the
    /// compose service names do not resolve here), files under a private prefix.
    private func checkSyntaxWithNginx() async throws {
        let nginx = try NginxBalancer.executable()
        let folder = try TemporaryDirectory("corkboard-nginx")
        let example = try read("examples/scale-out/nginx.conf")
        let config = try NginxBalancer.configuration(from: example, listen: nil, nodes: [18081, 18082], prefix: folder.path)
        #expect(config.contains("server 127.0.0.1:18082 max_fails=1 fail_timeout=5s;"), "\(config)")
        let path = try folder.write("nginx.conf", config)
        let prefix = folder.path + "/"
        let outcome = try await BlockingWork {
            try PythonTools.run(nginx, ["-t", "-p", prefix, "-c", path, "-e", "stderr"], timeout: 30)
        }.value
        #expect(outcome.succeeded && outcome.standardError.contains("test is successful"), "\(outcome.standardError)")
        withExtendedLifetime(folder) {}
    }

    private struct NginxDirective {
        /// The enclosing blocks, outermost first, each as its words (e.g. "upstream corkboard").
        let context: [String]
        let words: [String]
    }

    /// nginx.conf as directives: words up to `;`, blocks opened by `{`; comments dropped.
    /// Enough for this file (no quoted strings with spaces, no `include`).
    private func nginxDirectives() throws -> [NginxDirective] {
        let text = try read("examples/scale-out/nginx.conf")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
            .joined(separator: "\n")
        var directives: [NginxDirective] = []
        var context: [String] = []
        var words: [String] = []
        var word = ""
        for character in text {
            if character.isWhitespace || character == ";" || character == "{" || character == "}" {
                if !word.isEmpty {
                    words.append(word)
                    word = ""
                }
                switch character {
                case ";":
                    directives.append(NginxDirective(context: context, words: words))
                    words = []
                case "{":
                    context.append(words.joined(separator: " "))
                    words = []
                case "}": _ = context.popLast()
                default: break
                }
            } else {
                word.append(character)
            }
        }
        #expect(context.isEmpty && words.isEmpty, "unbalanced braces or a directive without `;`")
        return directives
    }

    /// nginx time values: "90", "90s", "5m", "1h", "1d".
    private static func nginxSeconds(_ value: String) -> Int {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let last = value.last, let unit = units[last] { return (Int(value.dropLast()) ?? 0) * unit }
        return Int(value) ?? 0
    }
}
