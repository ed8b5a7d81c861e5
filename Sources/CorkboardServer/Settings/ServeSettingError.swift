/// Why `corkboard serve` (or `import`) refuses its options or environment, as one line a
/// person can act on. The executable reports every case as a usage error: exit status 64
/// (`EX_USAGE`), the message after `Error:`.
public enum ServeSettingError: Error, Equatable, CustomStringConvertible {
    /// A CORKBOARD_ variable that does not hold what its option takes.
    case invalidVariable(EnvironmentSettings.InvalidValue)
    case certificateWithoutKey
    case keyWithoutCertificate
    case unknownDeflateMode(String)
    case unknownStore(String)
    case postgresWithoutDatabaseURL
    case unknownSyncMode(String)
    case unknownLogLevel(String)
    case unknownLogFormat(String)
    case unknownAccessLog(String)
    /// An item of `--trusted-proxies` that is not an address or CIDR block.
    case malformedTrustedProxy(String)
    /// A count limit below 0 (0 turns it off).
    case negativeLimit(option: String)
    /// A messages-per-second rate below 0 (0 turns it off).
    case negativeRate(option: String)
    /// A bytes-per-second rate below 0 (0 turns it off).
    case negativeByteRate(option: String)
    /// A timeout under one second.
    case timeoutUnderOneSecond(option: String)
    /// A value under the smallest the server can work with.
    case belowMinimum(option: String, minimum: Int)

    public var description: String {
        switch self {
        case .invalidVariable(let invalid):
            return invalid.description
        case .certificateWithoutKey:
            return "--tls-cert needs --tls-key (the certificate's private key)"
        case .keyWithoutCertificate:
            return "--tls-key needs --tls-cert (the certificate it belongs to)"
        case .unknownDeflateMode(let name):
            return "deflate mode '\(name)' is not one of memory, speed, off"
        case .unknownStore(let name):
            return "store '\(name)' is not one of \(StoreKind.allCases.map(\.rawValue).joined(separator: ", "))"
        case .postgresWithoutDatabaseURL:
            return "--store postgres needs --database-url (or CORKBOARD_DATABASE_URL)"
        case .unknownSyncMode(let name):
            return "sync '\(name)' is not one of full, normal"
        case .unknownLogLevel(let name):
            return "log level '\(name)' is not one of trace, debug, info, notice, warning, error, critical"
        case .unknownLogFormat(let name):
            return "log format '\(name)' is not one of text, json"
        case .unknownAccessLog(let value):
            return "access log '\(value)' is not one of on, off"
        case .malformedTrustedProxy(let item):
            return "--trusted-proxies: '\(item)' is not an IPv4 or IPv6 address or CIDR block (e.g. 10.0.0.0/8, ::1/128)"
        case .negativeLimit(let option):
            return "\(option) must be 0 (no limit) or a positive number"
        case .negativeRate(let option):
            return "\(option) must be 0 (no limit) or a number of messages per second"
        case .negativeByteRate(let option):
            return "\(option) must be 0 (no limit) or a number of bytes per second"
        case .timeoutUnderOneSecond(let option):
            return "\(option) must be at least 1 second"
        case .belowMinimum(let option, let minimum):
            return "\(option) must be at least \(minimum)"
        }
    }
}
