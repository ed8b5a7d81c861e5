import CorkboardStore

extension BoardRoom {
    /// Imports an archive under this room's id, once the room has loaded (so nothing it
    /// resolves meanwhile is lost in between): on success the room leaves the hub, so that
    /// the next `hello` or request loads the imported board afresh.
    func importArchive(
        _ archive: BoardArchive, replacing: Bool, _ completion: @escaping @Sendable (Result<ImportedBoard, HubError>) -> Void
    ) {
        perform {
            self.hub.store.importBoard(archive, replacing: replacing) { result in
                self.queue.async {
                    if case .success = result { self.replaced() }
                    completion(result.mapError(HubError.init))
                }
            }
        }
    }

    /// A store shared by several nodes says the board was replaced (by whichever node
    /// imported): a room holding that life of the board (its epoch) ends as the importing
    /// node's did. A room that loaded the new board has its epoch and stays.
    func replacedInStore(epoch: String) {
        endIfHolding(epoch: epoch) { $0.replaced() }
    }

    /// The board under this id is another now (another epoch, maybe other seqs): every member
    /// is closed with 1012 to join again. A member that rejoins resuming from the old epoch is
    /// welcomed with the new board's snapshot (docs/protocol.md#resume).
    func replaced() {
        end { $0.close(.serviceRestart, reason: "the board was replaced; join again") }
    }
}
