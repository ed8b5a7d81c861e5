import CorkboardModel
import CorkboardStore
import Dispatch
import Foundation

/// Leases across nodes (the `lease` table): a drag's items, or columns, are held in the database
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
        lease(board: board, keys: items, columns: false, holder: holder, completion)
    }

    public func lease(
        board: String, columns: [CollectionID], holder: ClientID,
        _ completion: @escaping @Sendable (Result<ClientID?, StoreError>) -> Void
    ) {
        lease(board: board, keys: columns, columns: true, holder: holder, completion)
    }

    /// Migration 11's `corkboard_lease_keys`: item ids, or column ids when `columns`.
    private func lease(
        board: String, keys: [String], columns: Bool, holder: ClientID,
        _ completion: @escaping @Sendable (Result<ClientID?, StoreError>) -> Void
    ) {
        let call = PostgresStatement(
            "SELECT corkboard_lease_keys($1, $2, $3, $4, $5, $6)",
            [board, holder, node, Self.arrayLiteral(keys), columns ? "true" : "false", String(Self.leaseLifetimeMilliseconds)])
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

    public func leases(
        board: String, holder: ClientID,
        _ completion: @escaping @Sendable (Result<HeldLeases, StoreError>) -> Void
    ) {
        let query = PostgresStatement(
            "SELECT item, is_column FROM lease WHERE board = $1 AND holder = $2 AND expires_at > now()", [board, holder])
        send([query]) { result in
            switch result {
            case .success(let groups):
                let rows = groups[0]
                var held = HeldLeases()
                for row in 0..<rows.count {
                    guard let key = rows.text(row, "item") else { continue }
                    if rows.text(row, "is_column") == "t" { held.columns.append(key) } else { held.items.append(key) }
                }
                completion(.success(held))
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
