import CorkboardModel
import CorkboardWire
import Foundation

/// The one-line summaries `corkboard bot` prints without --json: server messages, an
/// operation's outcome, connection changes.
public enum BotText {
    /// An operation's outcome: `committed seq 12 (adjusted)`, `noop (…)`, or for a failure
    /// the reason the command gives (`rejected (locked): …`, `no answer for …`).
    public static func describe(_ result: OperationResult) -> String {
        switch result {
        case .committed(let event): "committed seq \(event.seq)\(event.adjusted ? " (adjusted)" : "")"
        case .noop(let noop): "noop (nothing to change; board at seq \(noop.seq))"
        case .rejected(let code, let message): "rejected (\(code.rawValue)): \(message)"
        case .unanswered(let opId, let reason): "no answer for \(opId): \(reason)"
        }
    }

    public static func describe(_ message: ServerMessage) -> String {
        switch message {
        case .welcome(let welcome):
            if welcome.resumed { return "welcome: \(welcome.client) (\(welcome.role.rawValue)), resumed at seq \(welcome.seq)" }
            let board = welcome.board
            let items = board?.allItemIDs.count ?? 0
            return "welcome: \(welcome.client) (\(welcome.role.rawValue)), \(board?.title.debugDescription ?? "?") at seq \(welcome.seq): "
                + "\(board?.collections.count ?? 0) collections, \(items) items, \(welcome.count) peers"
                + (board?.locked == true ? ", locked" : "")
        case .committed(let event):
            return "#\(event.seq) \(event.client) \(describe(event.op))\(event.adjusted ? " (adjusted)" : "")  [\(event.opId)]"
                + (event.by.map { " by \($0)" } ?? "") + (event.committedTimeText.map { " at \($0)" } ?? "")
        case .noop(let noop):
            return "noop \(noop.opId) at seq \(noop.seq)"
        case .peerJoined(let client, let name, _):
            return "\(client) joined: \(name)"
        case .peerLeft(let client):
            return "\(client) left"
        case .peers(let change):
            return "\(change.count) peers: joined \(change.joined.map { "\($0.client) (\($0.name))" }.joined(separator: ", ")), "
                + "left \(change.left.joined(separator: ", "))" + (change.truncated ? ", and more" : "")
        case .peersPage(let page):
            return "\(page.count) peers: \(page.peers.map { "\($0.client) (\($0.name))" }.joined(separator: ", "))"
                + (page.next.map { ", next after \($0)" } ?? "")
        case .drag(let update):
            return "\(update.client) (\(update.name)) drags \((update.collections ?? update.items).joined(separator: ", "))" + (update.over.map(describe) ?? "")
        case .dragOver(let client, let over):
            return "\(client) drags\(describe(over))"
        case .dragCleared(let client, let reason):
            return "\(client) drag ended: \(reason.rawValue)"
        case .drags(let changes):
            return changes.map { describe($0.message) }.joined(separator: "\n")
        case .editing(let client, let name, let item):
            return "\(client) (\(name)) " + (item.map { "is editing \($0)" } ?? "stopped editing")
        case .rejected(let rejected):
            return "rejected \(rejected.ref ?? rejected.opId ?? ""): \(rejected.code.rawValue)"
                + (rejected.holder.map { " (held by \($0))" } ?? "") + (rejected.message.map { ": \($0)" } ?? "")
        case .error(let error):
            return "error \(error.code.rawValue): \(error.message)"
        case .pong(let id):
            return "pong \(id)"
        case .tokenAccepted(let expiresAt):
            return "token accepted" + (expiresAt.map { ", expires \(Date(timeIntervalSince1970: Double($0) / 1000).formatted(.iso8601))" } ?? "")
        case .tokenRefused(let refusal):
            return "token refused (\(refusal.code.rawValue)): \(refusal.message)"
        }
    }

    public static func describe(_ op: BoardOperation) -> String {
        switch op {
        case .move(let sources, let destination):
            return "move \(sources.joined(separator: ", ")) to \(describe(destination))"
        case .insert(let items, let destination):
            return "insert \(items.map(\.id).joined(separator: ", ")) into \(describe(destination))"
        case .delete(let items):
            return "delete \(items.joined(separator: ", "))"
        case .updateItem(let item, let label, let data):
            var changes: [String] = []
            if let label { changes.append("label \(label.debugDescription)") }
            switch data {
            case .unchanged: break
            case .replace: changes.append("data")
            case .remove: changes.append("no data")
            }
            return "update \(item): \(changes.joined(separator: ", "))"
        case .updateFolder(let item, let accepts):
            return "update \(item): \(accepts ? "accepts" : "refuses") drops"
        case .renameCollection(let collection, let title):
            return "rename \(collection) to \(title.debugDescription)"
        case .renameBoard(let title):
            return "rename the board to \(title.debugDescription)"
        case .addCollection(let collection, let title, let before):
            return "add collection \(collection) \(title.debugDescription)" + (before.map { " before \($0)" } ?? " last")
        case .removeCollection(let collection):
            return "remove collection \(collection)"
        case .removeCollectionAndItems(let collection):
            return "remove collection \(collection) with its items"
        case .moveCollections(let collections, let before):
            return "move collections \(collections.joined(separator: ", "))" + (before.map { " before \($0)" } ?? " last")
        case .lock(let locked):
            return locked ? "lock" : "unlock"
        }
    }

    /// " over done[2] before x": a drag's placeholder.
    public static func describe(_ over: DragTarget) -> String {
        " over \(over.collection ?? "columns")[\(over.index)]" + (over.before.map { " before \($0)" } ?? " at the end")
    }

    public static func describe(_ destination: Destination) -> String {
        destination.collection + (destination.before.map { " before \($0)" } ?? " (end)")
    }

    public static func describe(_ state: ConnectionState) -> String {
        switch state {
        case .idle: "idle"
        case .connecting(let attempt): attempt == 0 ? "connecting" : "connecting (attempt \(attempt + 1))"
        case .joined(let client, let role, let resumed): "joined as \(client) (\(role.rawValue))\(resumed ? ", resumed" : "")"
        case .disconnected(let code, let reason): "disconnected (\(code)\(reason.isEmpty ? "" : ": \(reason)")); reconnecting"
        case .waiting(let delay): String(format: "reconnecting in %.1f s", delay)
        case .closed(let error): error.map { "closed: \($0)" } ?? "closed"
        }
    }
}
