// swift-tools-version:6.0
// Peer servers for Corkboard's benchmarks: the same protocol subset (hello → welcome,
// move → committed broadcast, echo) on the frameworks a user would pick instead.
// Kept in its own package so Corkboard's main package stays free of SwiftNIO.
import PackageDescription

let package = Package(
    name: "CorkboardPeers",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        // Hummingbird's own logging API, to send its log to stderr (stdout is for the "listening" line).
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    ],
    targets: [
        // Board state and message handling shared by both Swift peers, so they do
        // identical application work and differ only in the framework around it.
        .target(name: "PeerBoards"),
        .executableTarget(
            name: "hummingbird-peer",
            dependencies: [
                "PeerBoards",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "flyingfox-peer",
            dependencies: [
                "PeerBoards",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]),
    ]
)
