import ArgumentParser
import CorkboardClient
import CorkboardServeCommand
import Foundation

/// The options of the commands that administer a running server over its HTTP API.
struct AdminServerOptions: ParsableArguments {
    @Option(
        help:
            "The server: http://HOST:PORT or https://HOST[:PORT] (ws:// and wss:// name the same server; env: CORKBOARD_URL; default http://127.0.0.1:8080)."
    )
    var url: String?

    @Option(help: "With https://: also trust the CA certificates of this PEM file (env: CORKBOARD_CA_FILE).")
    var caFile: String?

    @Option(help: "An owner's token, where the server has tokens (env: CORKBOARD_TOKEN).")
    var token: String?

    @Option(help: "Seconds to wait for each answer.")
    var timeout = 10.0

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a number of seconds above 0") }
        _ = try address()
    }

    /// The server's address; an http(s) URL is read as the ws(s) URL of the same server.
    func address() throws -> ServerAddress {
        let environment = ProcessInfo.processInfo.environment
        let text = url ?? environment["CORKBOARD_URL"] ?? "http://127.0.0.1:8080"
        let webSocketForm =
            text.hasPrefix("http://") ? "ws://" + text.dropFirst(7) : text.hasPrefix("https://") ? "wss://" + text.dropFirst(8) : text
        do {
            return try ServerAddress(url: webSocketForm)
        } catch {
            throw ValidationError(error.description.replacingOccurrences(of: "ws:// or wss://", with: "http:// or https://"))
        }
    }

    /// The server's administration with these options and their environment variables; a CA
    /// file that cannot be used ends the command with one line.
    func administration() throws -> BoardAdministration {
        let environment = ProcessInfo.processInfo.environment
        let address = try address()
        do {
            return try BoardAdministration(
                address: address, token: token ?? environment["CORKBOARD_TOKEN"], trustedCAFile: caFile ?? environment["CORKBOARD_CA_FILE"],
                timeout: timeout)
        } catch {
            fail(CommandFailure(error.description))
        }
    }
}
