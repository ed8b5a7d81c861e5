import FlyingFox
import PeerBoards

/// `/ws`: one PeerSession per connection, fed from the messages FlyingFox decodes; what the
/// session and its board room send goes on the stream FlyingFox writes to the socket.
struct BoardMessageHandler: WSMessageHandler {
    let directory: BoardDirectory

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (messages, continuation) = AsyncStream.makeStream(of: WSMessage.self)
        let outbox = Outbox { outgoing in
            switch outgoing {
            case .text(let text): continuation.yield(.text(text))
            case .close(let code, let reason): continuation.yield(.close(WSCloseCode(code, reason: reason)))
            }
        }
        Task { [directory] in
            let session = PeerSession(directory: directory, outbox: outbox)
            for await message in client {
                switch message {
                case .text(let text): await session.receive(text)
                case .data: session.receiveBinary()
                case .close: break
                }
            }
            await session.end()
            continuation.finish()
        }
        return messages
    }
}
