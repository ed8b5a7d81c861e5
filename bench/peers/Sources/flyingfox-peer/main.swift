import FlyingFox
import FlyingSocks
import Foundation
import PeerBoards

// The Corkboard protocol subset on FlyingFox, written the way its README does it: routes
// appended to an HTTPServer, WebSockets through `.webSocket(some WSMessageHandler)`, which
// exchanges a stream of messages in for a stream of messages out.

let options: PeerOptions
do {
    options = try PeerOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}

let directory = BoardDirectory()
let server = HTTPServer(
    address: try .inet(ip4: options.host, port: UInt16(options.port)),
    logger: .disabled)

await server.appendRoute("GET /healthz") { _ in
    HTTPResponse(statusCode: .ok)
}
await server.appendRoute("POST /api/boards") { request in
    let (status, json) = await directory.create(body: try await request.bodyData)
    let statusCode: HTTPStatusCode = switch status {
    case 201: .created
    case 409: .conflict
    default: .badRequest
    }
    return HTTPResponse(statusCode: statusCode, headers: [.contentType: "application/json"], body: Data(json.utf8))
}
await server.appendRoute("GET /ws", to: SubprotocolSelecting("corkboard.v1", upgrade: .webSocket(BoardMessageHandler(directory: directory))))
await server.appendRoute("GET /ws/echo", to: .webSocket(EchoWSMessageHandler()))

let running = Task { try await server.run() }
try await server.waitUntilListening()
var port = options.port
if case .ip4(_, let bound)? = await server.listeningAddress { port = Int(bound) }
FileHandle.standardOutput.write(Data((options.listeningLine(port: port) + "\n").utf8))
try await running.value
