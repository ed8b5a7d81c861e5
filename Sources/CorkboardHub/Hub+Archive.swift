import CorkboardModel
import CorkboardStore

/// Archives through the HTTP API (`GET` and `PUT /api/boards/{id}/archive`): a board's durable
/// state (with its kept log) as the store holds it, and an archive put in as a new board or in
/// place of one, with the board's room and members dealt with as a restore means for them.
extension Hub {
    /// The board's archive: its durable state, and with `history` its whole kept log.
    public func archive(board: String, history: Bool, _ completion: @escaping @Sendable (Result<BoardArchive, HubError>) -> Void) {
        guard Limits.isValidID(board) else { return completion(.failure(.notFound)) }
        store.loadBoard(board, historyLimit: .max) { result in
            switch result {
            case .failure(let error): completion(.failure(HubError(error)))
            case .success(nil): completion(.failure(.notFound))
            case .success(let stored?):
                do {
                    completion(.success(try BoardArchive(stored, history: history)))
                } catch {
                    completion(.failure(.unavailable("the stored log of \(board) does not apply: \(error)")))
                }
            }
        }
    }

    /// Puts a validated archive in (`ArchiveImport` decides its seq and epoch): `.alreadyExists`
    /// when the board exists and not `replacing`; a new board counts against `maxBoards`. A
    /// replaced board's members are closed with 1012 (join again): rejoining, their old epoch
    /// gets them the new board's snapshot.
    public func importBoard(
        _ archive: BoardArchive, replacing: Bool, _ completion: @escaping @Sendable (Result<ImportedBoard, HubError>) -> Void
    ) {
        withinBoardLimit(sparing: archive.board.id, completion) { finish in
            self.room(for: archive.board.id).importArchive(archive, replacing: replacing, finish)
        }
    }
}
