import HTTP

/// The server's HTTP surface. Later parts add `/api/...` and `/ws` here.
enum Routes {
    static func make(configuration: ServerConfiguration, staticFiles: StaticFiles) -> Router {
        var router = Router(fallback: staticFiles.handle)
        router.add(.GET, "/healthz") { _, responder in
            responder.respond(.json(.ok, Array(#"{"status":"ok"}"#.utf8)))
        }
        if configuration.echoEndpoint { BenchEndpoints.add(to: &router, options: configuration.webSocket) }
        return router
    }
}
