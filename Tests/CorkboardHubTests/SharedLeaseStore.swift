import CorkboardModel
import CorkboardStore
import Synchronization

/// A store shared with other nodes that exist only in the test: the boards in a `MemoryStore`,
/// and what `ClusterSignals` adds kept here, where the test reads the leases, holds some for
/// another node's member and makes the hub hear another node's signals. Leases follow the
/// contract of LeaseContractTests (wholly or not at all, one drag per holder, a column apart
/// from an item of its id) and are answered at once.
final class SharedLeaseStore: BoardStore, ClusterSignals {
    private struct Key: Hashable {
        var board: String
        var isColumn: Bool
        var id: String
    }

    private struct State {
        var holders: [Key: ClientID] = [:]
        var handlers: [@Sendable (StoreSignal) -> Void] = []
    }

    private let boards = MemoryStore()
    private let state = Mutex(State())
    let nodeName = "n1"

    // MARK: Test side

    /// What `holder` holds on `board`, sorted.
    func held(by holder: ClientID, on board: String = "board") -> HeldLeases {
        state.withLock { state in
            let keys = state.holders.filter { $0.key.board == board && $0.value == holder }.keys
            return HeldLeases(items: keys.filter { !$0.isColumn }.map(\.id).sorted(), columns: keys.filter(\.isColumn).map(\.id).sorted())
        }
    }

    /// Another node's member holds these columns.
    func hold(columns: [CollectionID], by holder: ClientID, on board: String = "board") {
        _ = grant(board: board, isColumn: true, columns, to: holder)
    }

    /// The hub hears `signal` as from the other nodes.
    func hear(_ signal: StoreSignal) {
        for handler in state.withLock({ $0.handlers }) { handler(signal) }
    }

    // MARK: ClusterSignals

    func observe(_ handler: @escaping @Sendable (StoreSignal) -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    func publish(presence payload: String) {}

    func lease(board: String, items: [ItemID], holder: ClientID, _ completion: @escaping @Sendable (Result<ClientID?, StoreError>) -> Void) {
        completion(.success(grant(board: board, isColumn: false, items, to: holder)))
    }

    func lease(
        board: String, columns: [CollectionID], holder: ClientID, _ completion: @escaping @Sendable (Result<ClientID?, StoreError>) -> Void
    ) {
        completion(.success(grant(board: board, isColumn: true, columns, to: holder)))
    }

    func releaseLeases(board: String, holder: ClientID) {
        state.withLock { $0.holders = $0.holders.filter { $0.key.board != board || $0.value != holder } }
    }

    func leases(board: String, holder: ClientID, _ completion: @escaping @Sendable (Result<HeldLeases, StoreError>) -> Void) {
        completion(.success(held(by: holder, on: board)))
    }

    /// All of `ids` to `holder`, replacing what it held on the board; nil, or another holder of one.
    private func grant(board: String, isColumn: Bool, _ ids: [String], to holder: ClientID) -> ClientID? {
        state.withLock { state in
            let keys = ids.map { Key(board: board, isColumn: isColumn, id: $0) }
            let holders = state.holders
            if let other = keys.compactMap({ holders[$0] }).first(where: { $0 != holder }) { return other }
            state.holders = state.holders.filter { $0.key.board != board || $0.value != holder }
            for key in keys { state.holders[key] = holder }
            return nil
        }
    }

    // MARK: BoardStore, by the memory store

    func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], StoreError>) -> Void) { boards.listBoards(completion) }

    func createBoard(_ board: Board, epoch: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        boards.createBoard(board, epoch: epoch, completion)
    }

    func deleteBoard(_ id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) { boards.deleteBoard(id, completion) }

    func loadBoard(_ id: String, historyLimit: Int, _ completion: @escaping @Sendable (Result<StoredBoard?, StoreError>) -> Void) {
        boards.loadBoard(id, historyLimit: historyLimit, completion)
    }

    func append(_ batch: CommitBatch, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) { boards.append(batch, completion) }

    func events(board id: String, after seq: Int, limit: Int, _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void) {
        boards.events(board: id, after: seq, limit: limit, completion)
    }

    func importBoard(_ archive: BoardArchive, replacing: Bool, _ completion: @escaping @Sendable (Result<ImportedBoard, StoreError>) -> Void) {
        boards.importBoard(archive, replacing: replacing, completion)
    }

    func close() { boards.close() }
}
