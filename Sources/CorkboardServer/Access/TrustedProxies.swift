import Foundation
import Glibc

/// The proxies in front of the server whose `X-Forwarded-For` is believed (`--trusted-proxies`),
/// and who the client of a request is given them.
///
/// A request's client is its TCP peer, unless the peer is a trusted proxy: then
/// `X-Forwarded-For` (every line of it, comma-separated, each proxy appending the address it
/// was reached from) is walked from the right, past the addresses that are trusted proxies
/// themselves, and the first that is not is the client. Entries left of it are whatever the
/// client sent, and are never read: a client cannot choose its address by forging the header.
/// An entry that is not an address ends the walk at the hop to its right, the last one a
/// trusted proxy vouched for; so does a header that is absent or empty.
public struct TrustedProxies: Sendable, Equatable, CustomStringConvertible {
    public private(set) var networks: [Network]

    /// No proxy is trusted: every peer is its own client.
    public init() { networks = [] }

    public init(_ networks: [Network]) { self.networks = networks }

    /// Comma-separated CIDR blocks or bare addresses (`127.0.0.1/32, 10.0.0.0/8, ::1`); empty
    /// items are skipped. Throws the first item that is neither.
    public init(parsing list: String) throws(Malformed) {
        var networks: [Network] = []
        for item in list.split(separator: ",") {
            let text = item.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            guard let network = Network(text) else { throw Malformed(item: text) }
            networks.append(network)
        }
        self.networks = networks
    }

    public var isEmpty: Bool { networks.isEmpty }

    public var description: String { networks.map(\.description).joined(separator: ",") }

    /// Whether `address` (a numeric IPv4 or IPv6 address) is one of the trusted proxies.
    public func trusts(_ address: String) -> Bool {
        IPAddress(address).map(trusts) ?? false
    }

    func trusts(_ address: IPAddress) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// The client of a request from `peer` (the TCP peer's numeric address) carrying the
    /// `X-Forwarded-For` lines `forwardedFor` (in the order received). The peer itself unless
    /// it is a trusted proxy that forwarded an address; a forwarded address is given in its
    /// canonical form (`2001:db8::1`, an IPv4-mapped IPv6 address as IPv4), so that one client
    /// is one key for the rates however a proxy writes it.
    public func clientAddress(peer: String, forwardedFor: [String]) -> String {
        forwardedClient(peer: peer, forwardedFor: forwardedFor) ?? peer
    }

    /// The client a trusted proxy forwarded, or nil when the peer is the client (it is not
    /// trusted, or forwarded no usable address).
    public func forwardedClient(peer: String, forwardedFor: [String]) -> String? {
        guard !networks.isEmpty, !forwardedFor.isEmpty, let peerAddress = IPAddress(peer), trusts(peerAddress) else { return nil }
        var vouched: IPAddress?
        let entries = forwardedFor.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false)
        for entry in entries.reversed() {
            let text = entry.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue } // An empty list element (RFC 9110 §5.6.1) means nothing.
            guard let address = IPAddress(forwarded: Substring(text)) else { break }
            vouched = address
            if !trusts(address) { break }
        }
        return vouched?.description
    }

    /// An item of `--trusted-proxies` that is not an address or CIDR block.
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let item: String
        public init(item: String) { self.item = item }
        public var description: String { "'\(item)' is not an IPv4 or IPv6 address or CIDR block" }
    }

    /// A CIDR block: an address and how many of its leading bits a member shares.
    public struct Network: Sendable, Equatable, CustomStringConvertible {
        let address: IPAddress
        let prefixLength: Int

        /// `10.0.0.0/8`, `::1/128`, or a bare address (a single host). Bits past the prefix are
        /// ignored (`10.1.2.3/8` is `10.0.0.0/8`).
        public init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard var address = IPAddress(String(parts[0])) else { return nil }
            var length = address.bitCount
            if parts.count == 2 {
                guard !parts[1].isEmpty, parts[1].count <= 3, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                    let given = Int(parts[1])
                else { return nil }
                length = given
            }
            // `::ffff:10.0.0.0/104` is `10.0.0.0/8`: mapped addresses are matched as IPv4.
            if address.isIPv4, parts[0].contains(":"), parts.count == 2 {
                guard length >= 96 else { return nil }
                length -= 96
            }
            guard length <= address.bitCount else { return nil }
            address.keepPrefix(length)
            self.address = address
            prefixLength = length
        }

        func contains(_ candidate: IPAddress) -> Bool {
            guard candidate.isIPv4 == address.isIPv4 else { return false }
            var masked = candidate
            masked.keepPrefix(prefixLength)
            return masked == address
        }

        public var description: String { "\(address)/\(prefixLength)" }
    }
}

/// A numeric IPv4 or IPv6 address; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is its IPv4
/// address, as the kernel's dual-stack sockets and proxies write the same client both ways.
struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// Network order; IPv4 in the first four bytes, the rest zero.
    private(set) var bytes: [UInt8]
    let isIPv4: Bool

    var bitCount: Int { isIPv4 ? 32 : 128 }

    /// A numeric address as written in a configuration or by `getnameinfo` (no port, no brackets).
    init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count < 64 else { return nil }
        if !text.contains(":") {
            var address = in_addr()
            guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
            bytes = withUnsafeBytes(of: address) { Array($0) }
            isIPv4 = true
            return
        }
        // A zone (`fe80::1%eth0`) names an interface of this host: not a client's address.
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        let all = withUnsafeBytes(of: address) { Array($0) }
        if all[0..<10].allSatisfy({ $0 == 0 }) && all[10] == 0xff && all[11] == 0xff {
            bytes = Array(all[12..<16])
            isIPv4 = true
        } else {
            bytes = all
            isIPv4 = false
        }
    }

    /// An `X-Forwarded-For` entry: an address, or one with a port as some proxies write it
    /// (`203.0.113.7:41234`, `[2001:db8::1]:41234`, `[2001:db8::1]`).
    init?(forwarded text: Substring) {
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && rest.count > 1 && rest.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }) else {
                return nil
            }
            self.init(String(text[text.index(after: text.startIndex)..<close]))
        } else if let colon = text.firstIndex(of: ":"), text[text.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber }) {
            // One colon, digits after it: IPv4 with a port (an IPv6 address has two colons or more).
            guard colon != text.index(before: text.endIndex) else { return nil }
            let host = text[..<colon]
            guard !host.contains(":") else { return nil }
            self.init(String(host))
            guard isIPv4 else { return nil }
        } else {
            self.init(String(text))
        }
    }

    /// Clears every bit past the first `length`.
    mutating func keepPrefix(_ length: Int) {
        for index in bytes.indices {
            let kept = min(8, max(0, length - index * 8))
            bytes[index] &= kept == 8 ? 0xff : ~(0xff >> kept)
        }
    }

    var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
