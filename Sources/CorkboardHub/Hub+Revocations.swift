import CorkboardStore
import Foundation

/// Revoking signed tokens (docs/security.md#revoking-tokens): kept in the store so that every
/// node refuses them and a restart forgets none; every change disconnects the members whose
/// token it revokes, on every node (a shared store announces it: `StoreSignal.revocationsChanged`).
extension Hub {
    /// Reads the store's revocations and puts them in force (at start, and whenever a node
    /// changed them), then judges every member's token again.
    public func loadRevocations(_ completion: @escaping @Sendable (Result<Void, HubError>) -> Void = { _ in }) {
        guard let store = store as? any TokenRevocationStore else { return completion(.success(())) }
        store.revocations { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let revocations):
                putInForce { $0.stored = RevocationList(revocations) }
                completion(.success(()))
            case .failure(let error):
                logger.error("revocations not read from the store, the previous ones stay in force: \(error)")
                completion(.failure(HubError(error)))
            }
        }
    }

    /// Every revocation in the store.
    public func listRevocations(_ completion: @escaping @Sendable (Result<[TokenRevocation], HubError>) -> Void) {
        guard let store = store as? any TokenRevocationStore else { return completion(.success([])) }
        store.revocations { completion($0.mapError(HubError.init)) }
    }

    /// Stores `revocation` and puts it in force here at once (the other nodes hear of it).
    public func revoke(_ revocation: TokenRevocation, _ completion: @escaping @Sendable (Result<Void, HubError>) -> Void) {
        guard let store = store as? any TokenRevocationStore else {
            return completion(.failure(.unavailable("this store keeps no revocations")))
        }
        store.revoke(revocation) { [weak self] result in self?.changedRevocations(result, completion) }
    }

    /// Takes a stored revocation back; `.notFound` when there is none.
    public func withdrawRevocation(
        of target: TokenRevocation.Target, _ completion: @escaping @Sendable (Result<Void, HubError>) -> Void
    ) {
        guard let store = store as? any TokenRevocationStore else { return completion(.failure(.notFound)) }
        store.withdrawRevocation(of: target) { [weak self] result in self?.changedRevocations(result, completion) }
    }

    /// After this node changed the stored revocations: puts them in force here at once (the
    /// other nodes read them on the store's signal), then answers.
    private func changedRevocations(
        _ result: Result<Void, StoreError>, _ completion: @escaping @Sendable (Result<Void, HubError>) -> Void
    ) {
        switch result {
        case .success: loadRevocations(completion)
        case .failure(let error): completion(.failure(HubError(error)))
        }
    }

    /// Puts the revocations of the revocations file in force (at start and on SIGHUP).
    public func replaceListedRevocations(with revocations: [TokenRevocation]) {
        putInForce { $0.listed = RevocationList(revocations) }
    }

    /// Changes the revocations and, when that changed what is in force, judges every member again.
    private func putInForce(_ change: (inout RevocationSources) -> Void) {
        let changed = revocationSources.withLock { sources in
            let before = sources.inForce
            change(&sources)
            return sources.inForce != before
        }
        guard changed else { return }
        recheckEveryMember()
    }
}

/// Where the revocations in force come from, and the two merged (worked out on each change, not
/// at each of the many judgements between changes).
struct RevocationSources: Sendable {
    var stored = RevocationList() {
        didSet { inForce = stored.merged(with: listed) }
    }
    var listed = RevocationList() {
        didSet { inForce = stored.merged(with: listed) }
    }
    private(set) var inForce = RevocationList()
}
