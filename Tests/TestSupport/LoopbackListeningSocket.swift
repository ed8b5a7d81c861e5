import Glibc

/// A TCP socket listening on 127.0.0.1 at a port the system picks, close-on-exec: the
/// descriptor (the caller closes it) and the port. For tests that play a server or a proxy.
public func listenOnLoopback(backlog: Int32) throws -> (descriptor: Int32, port: UInt16) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw BlockingClient.Failure(description: "socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listening = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && listen(descriptor, backlog) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard listening else {
        let problem = String(cString: strerror(errno))
        close(descriptor)
        throw BlockingClient.Failure(description: "listen on 127.0.0.1: \(problem)")
    }
    return (descriptor, UInt16(bigEndian: address.sin_port))
}
