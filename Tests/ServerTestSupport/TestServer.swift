import CorkboardStore
import Dispatch
import Foundation
import HTTP
import Logging
import TestSupport

@testable import CorkboardServer

/// A Corkboard server on an ephemeral loopback port, with its own web root and data folder.
public final class TestServer {
    public let server: CorkboardServer
    public let port: UInt16
    public let webRoot: TemporaryDirectory
    public let data: TemporaryDirectory

    public static let page = "<!doctype html><title>Corkboard test</title>" + String(repeating: "<div class=card>card</div>", count: 200)

    /// `store` replaces the one the configuration names (a store that fails on purpose);
    /// `addingRoutes` are routes of the embedding program (`CorkboardServer.init`'s).
    public init(
        store: BoardStore? = nil, configure: (inout ServerConfiguration) -> Void = { _ in },
        addingRoutes: (inout Router) -> Void = { _ in }
    ) throws {
        webRoot = try TemporaryDirectory("corkboard-web")
        data = try TemporaryDirectory("corkboard-data")
        try webRoot.write("index.html", Self.page)
        try webRoot.write("app.js", "console.log('corkboard');")
        try webRoot.write("big.bin", Data(repeating: 0x5A, count: 16 * 1024 * 1024))
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.webRoot = webRoot.path
        configuration.dataDirectory = data.path + "/db"
        configuration.loopCount = 2
        configure(&configuration)
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        server = try CorkboardServer(configuration: configuration, logger: logger, store: store, addingRoutes: addingRoutes)
        port = try server.start().port
    }

    deinit {
        let done = DispatchSemaphore(value: 0)
        server.shutdown { done.signal() }
        _ = done.wait(timeout: .now() + 5)
    }

    public func request(_ raw: String, bodyless: Bool = false) throws -> TestHTTPResponse {
        try BlockingClient.request(port: port, raw, bodyless: bodyless)
    }

    public func get(_ target: String, headers: String = "") throws -> TestHTTPResponse {
        try request("GET \(target) HTTP/1.1\r\nHost: test\r\n\(headers)\r\n")
    }
}
