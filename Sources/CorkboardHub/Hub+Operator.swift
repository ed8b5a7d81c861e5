import CorkboardModel
import Dispatch
import Synchronization

/// What an operator asks of a running node (`/api/admin`): who is on which board, which other
/// nodes are alive, and draining this one.
extension Hub {
    /// This node's name among the nodes sharing the store (nil with a store of its own).
    public var nodeName: String? { cluster?.nodeName }

    /// The other nodes sharing the store that are alive now, by their heartbeats, by name.
    public var otherNodes: [String] { liveNodes().sorted() }

    /// The boards open on this node (sorted by id) with their members, each room read on its
    /// own queue; a board still loading answers once it has loaded.
    public func onlineBoards(_ completion: @escaping @Sendable ([OnlineBoard]) -> Void) {
        let found = Mutex<[OnlineBoard]>([])
        let group = DispatchGroup()
        for room in openRooms {
            group.enter()
            room.perform {
                if case .ready = room.readiness { found.withLock { $0.append(room.online) } }
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            completion(found.withLock { $0 }.sorted { $0.board < $1.board })
        }
    }

    /// Ends every member's connection on this node with `code` (a drain: 1001, join again
    /// elsewhere), event streams included; new connections are still taken.
    public func disconnectEveryMember(_ code: MemberClose, reason: String) {
        for room in openRooms {
            room.perform {
                for member in room.members.values { member.link.close(code, reason: reason) }
            }
        }
    }
}

extension BoardRoom {
    /// Who is on the board as this room knows it; on the room's queue.
    fileprivate var online: OnlineBoard {
        let here = members.values.sorted { $0.order < $1.order }.map { member in
            OnlineMember(
                client: member.client, name: member.name, user: member.author, role: member.role, node: nil, observes: member.observes)
        }
        let elsewhere = membership.remotePeers.sorted { $0.order < $1.order }.map { peer in
            OnlineMember(client: peer.client, name: peer.name, user: nil, role: nil, node: peer.node, observes: false)
        }
        return OnlineBoard(board: id, members: here + elsewhere)
    }
}
