import Foundation
import Testing
import Yams

/// No Docker engine runs where the tests do, so the deployment files are checked as data:
/// the compose service, its port, its volume, and that the Dockerfile agrees with them.
@Suite struct DeploymentFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func read(_ name: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func composeRunsTheServerWithItsDataOnAVolume() throws {
        let compose = try #require(try Yams.load(yaml: try read("docker-compose.yml")) as? [String: Any])
        let services = try #require(compose["services"] as? [String: Any])
        let service = try #require(services["corkboard"] as? [String: Any])
        #expect(service["build"] as? String == ".")
        #expect((service["ports"] as? [String])?.contains("8080:8080") == true)

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
        #expect(dockerfile.contains("swift build -c release --product corkboard"))
        #expect(dockerfile.contains("COPY web /app/web"))
        #expect(dockerfile.contains("CMD [\"corkboard\", \"serve\"]"))
        #expect(dockerfile.contains("libssl-dev") && dockerfile.contains("zlib1g-dev"))
    }
}
