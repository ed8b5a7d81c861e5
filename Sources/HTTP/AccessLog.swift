import Dispatch
import Logging

/// One line per answered request (`--access-log`, on by default): method, path (without the
/// query, which may carry what a log should not keep), status, body bytes, milliseconds from
/// the request's arrival to its response being handed to the socket, and the client's address:
/// the peer's (with its port), or the one a trusted proxy forwarded, with the proxy as `proxy`.
public struct AccessLog: Sendable {
    let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    func record(_ request: HTTPRequest, status: HTTPStatus, bytes: Int, since start: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        let milliseconds = Double(now > start ? now - start : 0) / 1_000_000
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "path": "\(request.path)",
            // Numbers as numbers: a JSON log (`--log-format json`) writes them unquoted.
            "status": .stringConvertible(status.code),
            "bytes": .stringConvertible(bytes),
            "duration_ms": .stringConvertible((milliseconds * 1000).rounded() / 1000),
            "remote": "\(request.forwardedClient ?? request.remoteAddress?.description ?? "-")",
        ]
        if request.forwardedClient != nil { metadata["proxy"] = "\(request.remoteAddress?.description ?? "-")" }
        logger.info("\(request.method.rawValue) \(request.path) \(status.code)", metadata: metadata)
    }
}
