/// Revocations kept in this process only, like the boards.
extension MemoryStore: TokenRevocationStore {
    public func revocations(_ completion: @escaping @Sendable (Result<[TokenRevocation], StoreError>) -> Void) {
        completion(.success(revoked.withLock { Array($0.values) }))
    }

    public func revoke(_ revocation: TokenRevocation, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        revoked.withLock { $0[revocation.target] = revocation }
        completion(.success(()))
    }

    public func withdrawRevocation(
        of target: TokenRevocation.Target, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        completion(revoked.withLock { $0.removeValue(forKey: target) } == nil ? .failure(.notFound) : .success(()))
    }
}
