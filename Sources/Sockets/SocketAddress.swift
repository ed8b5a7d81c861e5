import Glibc

/// An IPv4 or IPv6 address with a port, stored as the `sockaddr` the kernel takes.
public struct SocketAddress: Sendable, CustomStringConvertible {
    /// Room for either family: a `sockaddr_in` fits in a `sockaddr_in6`. Not a 128-byte
    /// `sockaddr_storage`: every connection keeps its peer's address for its lifetime.
    var storage: sockaddr_in6
    var length: socklen_t

    init(storage full: sockaddr_storage, length: socklen_t) {
        var storage = sockaddr_in6()
        let kept = min(Int(length), MemoryLayout<sockaddr_in6>.size)
        withUnsafeBytes(of: full) { source in
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<kept])) }
        }
        self.storage = storage
        self.length = socklen_t(kept)
    }

    public var family: Int32 { Int32(storage.sin6_family) }

    /// Resolves a host name or numeric address for a listener or a client.
    /// `localhost` may yield both `::1` and `127.0.0.1`; callers take the first that works.
    public static func resolve(host: String, port: UInt16, passive: Bool = false) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw AddressResolutionError(host: host, message: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var result: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let address = info.pointee.ai_addr {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { raw in
                    raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen)))
                }
                result.append(SocketAddress(storage: storage, length: info.pointee.ai_addrlen))
            }
            cursor = info.pointee.ai_next
        }
        return result
    }

    /// The port, in host byte order.
    public var port: UInt16 {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: return UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
            case AF_INET6: return UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
            default: return 0
            }
        }
    }

    /// The numeric host, e.g. `127.0.0.1` or `::1`.
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var copy = storage
        let status = withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard status == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether this is a loopback address (127.0.0.0/8 or ::1), for limits that spare local clients.
    public var isLoopback: Bool {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET:
                return UInt32(bigEndian: raw.load(as: sockaddr_in.self).sin_addr.s_addr) >> 24 == 127
            case AF_INET6:
                let bytes = withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
                if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
                // IPv4-mapped ::ffff:127.x.y.z
                return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
            default:
                return false
            }
        }
    }

    public var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

public struct AddressResolutionError: Error, CustomStringConvertible {
    public let host: String
    public let message: String
    public var description: String { "cannot resolve host '\(host)': \(message)" }
}
