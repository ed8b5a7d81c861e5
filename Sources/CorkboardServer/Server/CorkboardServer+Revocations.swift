import CorkboardHub
import Dispatch
import Synchronization

extension CorkboardServer {
    /// Puts the revocations in force before anything is served: those of the revocations file
    /// and those in the store, so that a revoked token is refused from the first request on.
    static func putRevocationsInForce(_ configuration: ServerConfiguration, hub: Hub) throws(StartupError) {
        if let path = configuration.revocationsFile {
            do {
                hub.replaceListedRevocations(with: try RevocationsFile.read(path))
            } catch {
                throw .revocationsUnusable(error.description)
            }
        }
        let outcome = Mutex<Result<Void, HubError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        hub.loadRevocations { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + .seconds(30)) == .success else {
            throw .revocationsUnusable("the store did not answer within 30 s")
        }
        if case .failure(let error)? = outcome.withLock({ $0 }) { throw .revocationsUnusable(error.description) }
    }
}
