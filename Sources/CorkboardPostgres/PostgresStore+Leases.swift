import CorkboardModel
import CorkboardStore
import Dispatch
import Foundation

/// Item leases across nodes (the `lease` table): a drag's items are held in the database
/// for `leaseLifetime`, renewed by this node's heartbeat every `heartbeatInterval` while it
/// lives, so a killed node's leases lapse by themselves. The heartbeat is also a presence
/// message: nodes that stop hearing one drop that node's drags.
extension PostgresStore {
    static let leaseLifetimeMilliseconds = 10_000
    static let heartbeatInterval = 2.0

    public func lease(
        board: String, items: [ItemID], holder: ClientID,
        _ completion: @escaping @Sendable (Result<ClientID?, StoreError>) -> Void
    ) {
        let call = PostgresStatement(
            "SELECT corkboard_lease($1, $2, $3, $4, $5)",
            [board, holder, node, Self.arrayLiteral(items), String(Self.leaseLifetimeMilliseconds)])
        send([call]) { result in
            switch result {
            case .success: completion(.success(nil))
            case .failure(.server(sqlState: "CB409", let holder)): completion(.success(holder))
            case .failure(let error): completion(.failure(.unavailable("\(error)")))
            }
        }
    }

    public func releaseLeases(board: String, holder: ClientID) {
        send([PostgresStatement("DELETE FROM lease WHERE board = $1 AND holder = $2", [board, holder])]) { _ in }
    }

    public func leasedItems(
        board: String, holder: ClientID,
        _ completion: @escaping @Sendable (Result<[ItemID], StoreError>) -> Void
    ) {
        let query = PostgresStatement(
            "SELECT item FROM lease WHERE board = $1 AND holder = $2 AND expires_at > now()", [board, holder])
        send([query]) { result in
            switch result {
            case .success(let groups):
                let rows = groups[0]
                completion(.success((0..<rows.count).compactMap { rows.text($0, "item") }))
            case .failure(let error):
                completion(.failure(.unavailable("\(error)")))
            }
        }
    }

    /// Renews this node's leases and tells the others it lives; on the writer's queue.
    func startHeartbeat() {
        writer.queue.async { [self] in
            let timer = DispatchSource.makeTimerSource(queue: writer.queue)
            timer.schedule(deadline: .now(), repeating: Self.heartbeatInterval)
            timer.setEventHandler { [weak self] in
                guard let self, writer.isReady else { return }
                writer.executeOnQueue([
                    PostgresStatement(
                        "UPDATE lease SET expires_at = now() + $2 * interval '1 millisecond' WHERE node = $1",
                        [node, String(Self.leaseLifetimeMilliseconds)]),
                    PostgresStatement("SELECT pg_notify($1, $2)", [Self.nodesChannel, node]),
                ]) { _ in }
            }
            timer.resume()
            heartbeat = timer
        }
    }

    /// A text[] literal: every element quoted, `"` and `\` escaped.
    static func arrayLiteral(_ values: [String]) -> String {
        "{"
            + values.map { value in
                "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }.joined(separator: ",") + "}"
    }
}
