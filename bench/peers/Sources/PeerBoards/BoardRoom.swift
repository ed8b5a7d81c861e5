import Foundation

/// One board and its members. The actor is the board's serialization: a move is checked,
/// applied, given its seq and broadcast without anything else happening to the board in
/// between, and yielding into each member's outbox from inside the actor keeps every
/// member's stream in seq order.
public actor BoardRoom {
    public static let epoch = "e1"

    private var board: Board
    private var seq = 0
    /// Which collection (index into `board.collections`) holds each item.
    private var location: [String: Int] = [:]
    private var members: [String: Outbox] = [:]
    private var clientsJoined = 0
    private let encoder = JSONText.makeEncoder()

    public init(board: Board) {
        self.board = board
        for (index, collection) in board.collections.enumerated() {
            for item in collection.items { location[item.id] = index }
        }
    }

    /// The board as `POST /api/boards` returns it.
    func documentText() -> String {
        JSONText.encode(BoardDocument(board: board, seq: seq, epoch: Self.epoch), with: encoder)
    }

    /// Adds a member and sends it `welcome` with the current board; returns its client id.
    func join(outbox: Outbox) -> String {
        clientsJoined += 1
        let client = "c\(clientsJoined)"
        members[client] = outbox
        outbox.yield(.text(JSONText.encode(
            Welcome(client: client, epoch: Self.epoch, seq: seq, board: board), with: encoder)))
        return client
    }

    func leave(client: String) {
        members[client] = nil
    }

    /// Checks and applies a move by anchor; broadcasts `committed` to every member (the
    /// sender included) or answers the sender alone with `rejected`.
    func move(opId: String, baseSeq: Int, sources: [String], destination: Destination, from client: String) {
        if let problem = problem(baseSeq: baseSeq, sources: sources, destination: destination) {
            members[client]?.yield(.text(JSONText.encode(
                Rejected(opId: opId, code: "invalid", message: problem), with: encoder)))
            return
        }
        apply(sources: sources, destination: destination)
        seq += 1
        let committed = Committed(
            seq: seq, opId: opId, client: client,
            op: MoveOperation(sources: sources, destination: destination))
        // Encoded once; every member is handed the same string.
        let text = JSONText.encode(committed, with: encoder)
        for outbox in members.values { outbox.yield(.text(text)) }
    }

    private func problem(baseSeq: Int, sources: [String], destination: Destination) -> String? {
        if baseSeq < 0 || baseSeq > seq { return "baseSeq \(baseSeq) is not a seq of this board (now \(seq))" }
        if sources.isEmpty { return "a move needs at least one source" }
        if Set(sources).count != sources.count { return "a source appears twice" }
        for source in sources where location[source] == nil { return "there is no item \"\(source)\"" }
        guard let target = collectionIndex(destination.collection) else {
            return "there is no collection \"\(destination.collection)\""
        }
        if let before = destination.before {
            if location[before] != target { return "\"\(before)\" is not in \"\(destination.collection)\"" }
            if sources.contains(before) { return "\"\(before)\" is one of the sources" }
        }
        return nil
    }

    private func collectionIndex(_ id: String) -> Int? {
        board.collections.firstIndex { $0.id == id }
    }

    /// Removes the sources from wherever they are and inserts them, in the given order,
    /// before the anchor or at the end. The move has been checked.
    private func apply(sources: [String], destination: Destination) {
        let moving = Set(sources)
        var taken: [String: Item] = [:]
        for index in Set(sources.map { location[$0]! }) {
            board.collections[index].items.removeAll { item in
                guard moving.contains(item.id) else { return false }
                taken[item.id] = item
                return true
            }
        }
        let target = collectionIndex(destination.collection)!
        var items = board.collections[target].items
        let at = destination.before.flatMap { before in items.firstIndex { $0.id == before } } ?? items.endIndex
        items.insert(contentsOf: sources.map { taken[$0]! }, at: at)
        board.collections[target].items = items
        for source in sources { location[source] = target }
    }
}
