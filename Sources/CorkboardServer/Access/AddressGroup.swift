import Glibc

/// The group of client addresses a per-address limit counts together: an IPv4 address alone,
/// an IPv6 address by its /64, which one subscriber is usually given whole (counted one by
/// one, a /64 would be 2^64 fresh addresses). Text that is no address stays as it is.
enum AddressGroup {
    static func of(_ address: String) -> String {
        var bytes = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        let prefix = withUnsafeBytes(of: bytes) { Array($0.prefix(8)) }
        // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 client.
        if prefix.allSatisfy({ $0 == 0 }) { return address }
        return prefix.map { String($0, radix: 16) }.joined(separator: ".") + "/64"
    }
}
