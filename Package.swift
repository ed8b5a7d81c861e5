// swift-tools-version:6.0
// Corkboard: a real-time collaborative reorder backend on Foundation and Dispatch.
// No SwiftNIO anywhere in this graph (the peer servers for benchmarks live in bench/peers/).
import PackageDescription

let package = Package(
    name: "Corkboard",
    // Linux only (Debian is what it is built and tested on): the sockets, TLS and the stores
    // import Glibc, so no Apple platform is claimed.
    products: [
        .executable(name: "corkboard", targets: ["corkboard"]),
        .executable(name: "corkboard-bench", targets: ["corkboard-bench"]),
        .library(name: "CorkboardModel", targets: ["CorkboardModel"]),
        .library(name: "CorkboardWire", targets: ["CorkboardWire"]),
        .library(name: "CorkboardClient", targets: ["CorkboardClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        // `swift package generate-documentation`: the DocC catalogs of the library products, built
        // by .ci/run with warnings as errors (a plugin only: nothing of it is linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // C libraries from Debian's -dev packages.
        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),

        // Pure core: boards, operations, resolver, history. No I/O, imports nothing of ours.
        .target(name: "CorkboardModel"),
        // Codable wire messages of the protocol. Pure.
        .target(name: "CorkboardWire", dependencies: ["CorkboardModel"]),

        // Non-blocking BSD sockets on Dispatch. Knows nothing of HTTP or boards.
        .target(name: "Sockets", dependencies: ["CEpoll", .product(name: "Logging", package: "swift-log")]),
        // TLS on OpenSSL as a transport filter of Sockets' connections: a session is a pure byte
        // transform over memory BIOs; server contexts reload from their files, clients verify.
        .target(name: "TLS", dependencies: ["Sockets", "COpenSSL"]),
        // HTTP/1.1: request parser (bytes in), responses, router, static files, server connection.
        .target(
            name: "HTTP",
            dependencies: ["Sockets", "CZlib", .product(name: "Logging", package: "swift-log")]),
        // WebSocket (RFC 6455): handshake, frame codec (bytes in), connection state machine.
        .target(
            name: "WebSocket",
            dependencies: ["HTTP", "Sockets", "COpenSSL"]),
        // permessage-deflate (RFC 7692) on zlib, plugged into WebSocket's extension seam.
        .target(name: "WebSocketDeflate", dependencies: ["WebSocket", "CZlib"]),
        // The storage interface the sequencers commit through, and the in-memory store.
        .target(name: "CorkboardStore", dependencies: ["CorkboardModel"]),
        // The embedded default store: SQLite through GRDB, one connection behind one serial queue.
        .target(
            name: "CorkboardSQLite",
            dependencies: ["CorkboardStore", "CorkboardModel", .product(name: "GRDB", package: "GRDB.swift")]),
        // The scale-out store: PostgreSQL through libpq, non-blocking, driven by a Dispatch read
        // source on the connection's socket; LISTEN/NOTIFY wakes the other nodes.
        .target(
            name: "CorkboardPostgres",
            dependencies: ["CorkboardStore", "CorkboardModel", "CPostgres"]),
        // Boards as rooms: one sequencer per board, sessions, membership, resume, broadcast.
        // Knows no transport: members are `MemberLink`s (WebSockets in CorkboardServer).
        .target(
            name: "CorkboardHub",
            dependencies: [
                "CorkboardModel", "CorkboardWire", "CorkboardStore",
                .product(name: "Logging", package: "swift-log"), .product(name: "CoreMetrics", package: "swift-metrics"),
            ]),
        // The Corkboard server: configuration, routes (/ws, /api, static), startup and shutdown.
        .target(
            name: "CorkboardServer",
            dependencies: [
                "CorkboardHub", "CorkboardStore", "CorkboardSQLite", "CorkboardPostgres", "CorkboardModel", "CorkboardWire",
                "HTTP", "Sockets", "TLS", "WebSocket", "WebSocketDeflate", "COpenSSL", .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The OpenAPI document, in the binary (`corkboard` is installed as one file).
            resources: [.embedInCode("OpenAPI/openapi.json")]),
        // The bot client library: a board replica over our own WebSocket client, typed
        // operations with async results, reconnect and resume; `bot random`'s strategy and
        // the lines `corkboard bot` prints; `corkboard boards`' calls of the HTTP API and its table.
        .target(
            name: "CorkboardClient",
            dependencies: ["CorkboardModel", "CorkboardWire", "WebSocket", "WebSocketDeflate", "HTTP", "Sockets", "TLS"]),
        // <sys/epoll.h>, for the I/O loops (one epoll each) and the benchmark's lean clients (Linux).
        .target(name: "CEpoll"),
        // Benchmarks behind `corkboard-bench`.
        .target(
            name: "CorkboardBench",
            dependencies: [
                "CorkboardModel", "CorkboardWire", "CorkboardStore", "CorkboardClient", "WebSocket", "WebSocketDeflate", "Sockets",
                "CEpoll", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),

        // Thin executable: parses options, wires modules, runs. No benchmark in it.
        .executableTarget(
            name: "corkboard",
            dependencies: [
                "CorkboardServer", "CorkboardServeCommand", "CorkboardHub", "CorkboardSQLite", "CorkboardPostgres", "CorkboardStore",
                "CorkboardClient", "CorkboardModel", "CorkboardWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // `serve`'s options and process (settings, signals, the listening line), shared by both
        // executables so that the benchmarks measure the server as `corkboard serve` runs it.
        .target(
            name: "CorkboardServeCommand",
            dependencies: [
                "CorkboardServer", "HTTP", "Sockets", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The benchmarks' executable, apart from the production one: every `corkboard-bench`
        // scenario, and `serve` with the test WebSockets (/ws/echo, /ws/broadcast) added.
        .executableTarget(
            name: "corkboard-bench",
            dependencies: [
                "CorkboardBench", "CorkboardServeCommand", "CorkboardServer", "CorkboardModel", "CorkboardStore", "CorkboardSQLite",
                "CorkboardPostgres", "HTTP", "WebSocket", "WebSocketDeflate",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Blocking clients, temporary folders and child processes for the tests.
        .target(name: "TestSupport", dependencies: ["WebSocket", "CorkboardModel", "CorkboardStore"], path: "Tests/TestSupport"),
        // Members in memory for in-process hub tests, and the board client every hub test uses.
        .target(
            name: "HubTestSupport",
            dependencies: [
                "CorkboardHub", "CorkboardModel", "CorkboardWire", "CorkboardStore", "WebSocket", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/HubTestSupport"),
        // What the in-process server tests and the end-to-end tests share: a server in the test
        // process (`TestServer`, `HubFixture`), the HTTP API and a WebSocket board client against
        // a port (`BoardAPI`, `WebSocketClientTransport`), a `corkboard serve` child (`ChildServer`,
        // `ServedChild`), the checks after a hostile scenario (`Unharmed`), a webhook receiver.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "CorkboardServer", "CorkboardStore", "CorkboardModel", "CorkboardWire", "HTTP", "Sockets", "WebSocket",
                "TestSupport", "HubTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/ServerTestSupport"),

        .testTarget(name: "CorkboardModelTests", dependencies: ["CorkboardModel", "TestSupport"]),
        .testTarget(name: "CorkboardWireTests", dependencies: ["CorkboardWire", "CorkboardModel"]),
        .testTarget(name: "SocketsTests", dependencies: ["Sockets", "TestSupport"]),
        .testTarget(name: "TLSTests", dependencies: ["TLS", "Sockets", "COpenSSL", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Sockets", "TestSupport"]),
        .testTarget(name: "WebSocketTests", dependencies: ["WebSocket", "HTTP", "Sockets", "TestSupport"]),
        .testTarget(name: "WebSocketDeflateTests", dependencies: ["WebSocketDeflate", "WebSocket", "HTTP", "Sockets", "TestSupport"]),
        // Autobahn|Testsuite and a Python `websockets` client against a real `corkboard serve`.
        .testTarget(name: "WebSocketConformanceTests", dependencies: ["TestSupport"], exclude: ["python"]),
        // The BoardStore contract, run against every store (memory, SQLite, PostgreSQL).
        .testTarget(
            name: "CorkboardStoreTests",
            dependencies: ["CorkboardStore", "CorkboardModel", "CorkboardSQLite", "CorkboardPostgres", "TestSupport"]),
        .testTarget(
            name: "CorkboardSQLiteTests",
            dependencies: [
                "CorkboardSQLite", "CorkboardStore", "CorkboardModel", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "CorkboardClientTests",
            dependencies: ["CorkboardClient", "CorkboardModel", "CorkboardWire", "WebSocket", "Sockets", "TestSupport"]),
        .testTarget(
            name: "CorkboardPostgresTests",
            dependencies: ["CorkboardPostgres", "CorkboardStore", "CorkboardModel", "TestSupport"]),
        .testTarget(name: "CorkboardBenchTests", dependencies: ["CorkboardBench", "TestSupport"]),
        .testTarget(
            name: "CorkboardHubTests",
            dependencies: [
                "CorkboardHub", "CorkboardStore", "CorkboardModel", "CorkboardWire", "HubTestSupport", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The server in the test process: routes, the hub over real sockets, the API, limits.
        .testTarget(
            name: "CorkboardServerTests",
            dependencies: [
                "CorkboardServer", "CorkboardHub", "CorkboardStore", "CorkboardSQLite", "CorkboardWire", "CorkboardModel",
                "HTTP", "Sockets", "WebSocket", "TestSupport", "HubTestSupport", "ServerTestSupport", "COpenSSL",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        // End to end: every test that starts a process (`corkboard` as a child, its commands),
        // a browser (Chromium through the scripts in browser/), PostgreSQL, nginx, node or a
        // Python tool (python/, the clients, the examples, the release tarball).
        .testTarget(
            name: "CorkboardEndToEndTests",
            dependencies: [
                "CorkboardServer", "CorkboardHub", "CorkboardStore", "CorkboardWire", "CorkboardModel", "CorkboardClient",
                "Sockets", "WebSocket", "WebSocketDeflate", "TestSupport", "HubTestSupport", "ServerTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["browser", "python"]),
    ]
)
