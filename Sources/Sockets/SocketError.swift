import Glibc

/// A failed system call on a socket, with the `errno` it set.
public struct SocketError: Error, Equatable, CustomStringConvertible {
    public let operation: String
    public let code: Int32

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }

    /// The address (host and port) is taken by another socket.
    public var isAddressInUse: Bool { code == EADDRINUSE }
}
