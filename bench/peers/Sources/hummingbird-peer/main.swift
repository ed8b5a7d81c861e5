import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import PeerBoards

// The Corkboard protocol subset on Hummingbird 2 + hummingbird-websocket, written the way
// their README and examples do it: a Router for HTTP, a WebSocket router with `ws(...)`,
// one task reading each connection and one writing it from the connection's own stream.

let options: PeerOptions
do {
    options = try PeerOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}

// Hummingbird logs to stdout by default; stdout carries only the "listening" line here.
LoggingSystem.bootstrap(StreamLogHandler.standardError)
var logger = Logger(label: "hummingbird-peer")
logger.logLevel = .warning

let directory = BoardDirectory()
let subprotocol = "corkboard.v1"

let router = Router()
router.get("healthz") { _, _ in
    HTTPResponse.Status.ok
}
router.post("api/boards") { request, context -> Response in
    let body = try await request.body.collect(upTo: context.maxUploadSize)
    let (status, json) = await directory.create(body: Data(buffer: body))
    return Response(
        status: .init(code: status),
        headers: [.contentType: "application/json"],
        body: .init(byteBuffer: ByteBuffer(string: json)))
}

let webSocketRouter = Router(context: BasicWebSocketRequestContext.self)
webSocketRouter.ws("ws") { request, _ in
    let offered = request.headers[values: .secWebSocketProtocol]
        .flatMap { $0.split(separator: ",") }
        .contains { $0.trimmingCharacters(in: .whitespaces) == subprotocol }
    return offered ? .upgrade([.secWebSocketProtocol: subprotocol]) : .upgrade([:])
} onUpgrade: { inbound, outbound, _ in
    let (outgoing, continuation) = AsyncStream.makeStream(of: Outgoing.self)
    let session = PeerSession(directory: directory, outbox: Outbox { continuation.yield($0) })
    try await withThrowingTaskGroup(of: Void.self) { group in
        // Writer: sends what the session and the board room queued, in order.
        group.addTask {
            for await message in outgoing {
                switch message {
                case .text(let text):
                    try await outbound.write(.text(text))
                case .close(let code, let reason):
                    try await outbound.close(.init(codeNumber: Int(code)), reason: reason)
                    return
                }
            }
        }
        // Reader: this task, message by message.
        do {
            for try await message in inbound.messages(maxSize: PeerOptions.maxMessageBytes) {
                switch message {
                case .text(let text): await session.receive(text)
                case .binary: session.receiveBinary()
                }
            }
        } catch {
            // The connection failed; leave the board all the same.
        }
        await session.end()
        continuation.finish()
        try await group.waitForAll()
    }
}
webSocketRouter.ws("ws/echo") { inbound, outbound, _ in
    for try await message in inbound.messages(maxSize: PeerOptions.maxMessageBytes) {
        switch message {
        case .text(let text): try await outbound.write(.text(text))
        case .binary(let buffer): try await outbound.write(.binary(buffer))
        }
    }
}

let app = Application(
    router: router,
    server: .http1WebSocketUpgrade(
        webSocketRouter: webSocketRouter,
        configuration: .init(ws: .init(maxFrameSize: PeerOptions.maxMessageBytes))),
    configuration: .init(address: .hostname(options.host, port: options.port)),
    onServerRunning: { channel in
        let line = options.listeningLine(port: channel.localAddress?.port ?? options.port)
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    },
    logger: logger)
try await app.runService()
