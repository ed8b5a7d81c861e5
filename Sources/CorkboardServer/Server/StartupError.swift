/// Why the server could not start, as one line a person can act on.
public enum StartupError: Error, CustomStringConvertible {
    case webRootMissing(String)
    case dataDirectoryUnusable(String, reason: String)
    case addressInUse(host: String, port: UInt16)
    case cannotListen(host: String, port: UInt16, reason: String)
    case storeUnusable(String)
    case tlsUnusable(String)
    case tokenFileUnusable(String)
    case revocationsUnusable(String)
    case webhooksUnusable(String)

    public var description: String {
        switch self {
        case .webRootMissing(let path):
            return "web root '\(path)' does not exist or is not a folder (set --web-root or CORKBOARD_WEB_ROOT; --web-root '' serves the API only)"
        case .dataDirectoryUnusable(let path, let reason):
            return "data folder '\(path)' cannot be used: \(reason) (set --data or CORKBOARD_DATA)"
        case .addressInUse(let host, let port):
            return "port \(port) on \(host) is already in use (is another server running? choose one with --port)"
        case .cannotListen(let host, let port, let reason):
            return "cannot listen on \(host):\(port): \(reason)"
        case .storeUnusable(let reason):
            return "the store cannot be used: \(reason)"
        case .tlsUnusable(let reason):
            return "TLS cannot be set up: \(reason) (check --tls-cert and --tls-key)"
        case .revocationsUnusable(let reason):
            return "revocations: \(reason) (check --revocations, and that the store can be read)"
        case .webhooksUnusable(let reason):
            return "webhooks: \(reason) (check --webhooks)"
        case .tokenFileUnusable(let reason):
            return "tokens: \(reason) (check --tokens, --token-secret, --token-secret-file, --token-public-key-file, --token-jwks-file)"
        }
    }
}
