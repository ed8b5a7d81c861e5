import CorkboardStore
import CorkboardWire

extension BoardRoom {
    /// Deletes the board from the store, then sends every member away and leaves the hub, so
    /// that the next `hello` or request loads afresh and finds no board. The store is asked
    /// whatever loading found: a board whose stored data does not load can still be deleted.
    func delete(_ completion: @escaping @Sendable (Result<Void, HubError>) -> Void) {
        perform {
            self.hub.store.deleteBoard(self.id) { result in
                self.queue.async {
                    if case .success = result { self.deleted() }
                    completion(result.mapError(HubError.init))
                }
            }
        }
    }

    /// A store shared by several nodes says the board was deleted (by whichever node served
    /// the `DELETE`): a room holding that life of the board (its epoch) ends as the deleting
    /// node's did. A room of a board created anew under the id meanwhile has another epoch
    /// and stays; one that loaded after the delete found no board and is gone already.
    func deletedInStore(epoch: String) {
        endIfHolding(epoch: epoch) { $0.deleted() }
    }

    /// The board is gone from the store: nothing more is resolved here (what was queued
    /// meets a store that no longer has the board), and every member is told and closed.
    func deleted() {
        end { Self.refuse($0, .gone, "the board was deleted", close: .policyViolation) }
    }

    /// Ends the room with `end` if it holds the life of the board another node ended in the
    /// shared store (its epoch).
    func endIfHolding(epoch: String, _ end: @escaping @Sendable (BoardRoom) -> Void) {
        perform {
            guard case .ready = self.readiness, self.epoch == epoch else { return }
            end(self)
        }
    }

    /// This life of the board is over (deleted, or replaced by an import): the room stops
    /// resolving, leaves the hub (the next `hello` or request loads afresh), and every member
    /// is sent away by `farewell`.
    func end(_ farewell: (any MemberLink) -> Void) {
        if case .ready = readiness { hub.metrics.boardsLoaded.decrement() }
        markMissing()
        hub.forget(self)
        let links = members.values.map(\.link)
        for key in Array(members.keys) { remove(key) }
        members.forgetAwaitedJoins()
        for link in links { farewell(link) }
    }
}
