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
        perform {
            guard case .ready = self.readiness, self.epoch == epoch else { return }
            self.deleted()
        }
    }

    /// The board is gone from the store: nothing more is resolved here (what was queued
    /// meets a store that no longer has the board), and every member is told and closed.
    func deleted() {
        if case .ready = readiness { hub.metrics.boardsLoaded.decrement() }
        markMissing()
        hub.forget(self)
        let links = members.values.map(\.link)
        for key in Array(members.keys) { remove(key) }
        joining.removeAll()
        for link in links { Self.refuse(link, .gone, "the board was deleted", close: .policyViolation) }
    }
}
