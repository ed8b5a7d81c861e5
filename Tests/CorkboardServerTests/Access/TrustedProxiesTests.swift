import CorkboardServer
import Testing

/// Who the client is behind proxies (`--trusted-proxies`): CIDR blocks read, and
/// `X-Forwarded-For` believed only from trusted peers, walked from the right.
@Suite struct TrustedProxiesTests {
    static func proxies(_ list: String) throws -> TrustedProxies {
        try TrustedProxies(parsing: list)
    }

    // MARK: Blocks

    @Test func blocksAndBareAddressesOfBothFamilies() throws {
        let trusted = try Self.proxies("127.0.0.1/32, 10.0.0.0/8,::1/128, 2001:db8:a::/48, 192.0.2.9")
        #expect(trusted.description == "127.0.0.1/32,10.0.0.0/8,::1/128,2001:db8:a::/48,192.0.2.9/32")
        for member in ["127.0.0.1", "10.0.0.1", "10.255.255.255", "::1", "2001:db8:a::1", "2001:db8:a:ffff::7", "192.0.2.9"] {
            #expect(trusted.trusts(member), "\(member)")
        }
        for stranger in ["127.0.0.2", "11.0.0.1", "9.255.255.255", "::2", "2001:db8:b::1", "192.0.2.10", "not-an-address", ""] {
            #expect(!trusted.trusts(stranger), "\(stranger)")
        }
    }

    @Test func prefixesOfEveryLengthAndBitsPastThem() throws {
        #expect(try Self.proxies("0.0.0.0/0").trusts("203.0.113.7"))
        #expect(try !Self.proxies("0.0.0.0/0").trusts("2001:db8::1"), "an IPv4 block holds no IPv6 address")
        #expect(try Self.proxies("::/0").trusts("2001:db8::1"))
        let odd = try Self.proxies("172.16.0.0/12")
        #expect(odd.trusts("172.31.255.255") && !odd.trusts("172.32.0.0") && !odd.trusts("172.15.255.255"))
        #expect(try Self.proxies("10.1.2.3/8").description == "10.0.0.0/8", "bits past the prefix are ignored")
        #expect(try Self.proxies("2001:db8::1/33").description == "2001:db8::/33")
    }

    @Test func ipv4MappedAddressesAreTheirIPv4Address() throws {
        // A dual-stack listener (`--host ::`) sees IPv4 peers as ::ffff:a.b.c.d.
        #expect(try Self.proxies("127.0.0.1/32").trusts("::ffff:127.0.0.1"))
        #expect(try Self.proxies("::ffff:10.0.0.0/104").description == "10.0.0.0/8")
        #expect(try Self.proxies("::ffff:10.0.0.0/104").trusts("10.9.8.7"))
    }

    @Test func nothingIsTheEmptyList() throws {
        #expect(TrustedProxies().isEmpty)
        #expect(try Self.proxies("").isEmpty && Self.proxies(" , ,").isEmpty)
        #expect(try Self.proxies("127.0.0.1,").networks.count == 1)
    }

    @Test(arguments: [
        "localhost", "10.0.0.0/", "10.0.0.0/33", "::1/129", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/8/8", "10.0.0", "10.0.0.0.0",
        "256.0.0.1", "010.0.0.1", "1.2.3.4:80", "[::1]", "::1::2", "fe80::1%eth0", "::ffff:10.0.0.0/80", "*", "10.0.0.0/ 8",
    ])
    func malformedBlocksAreRefusedByName(_ item: String) {
        #expect(throws: TrustedProxies.Malformed(item: item)) { try Self.proxies("127.0.0.1/32, \(item)") }
    }

    // MARK: The client

    static let loopback = try! TrustedProxies(parsing: "127.0.0.1/32,::1")

    @Test func theForwardedClientOfATrustedPeer() {
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.7"]) == "203.0.113.7")
        #expect(Self.loopback.clientAddress(peer: "::1", forwardedFor: ["2001:db8::7"]) == "2001:db8::7")
        #expect(Self.loopback.clientAddress(peer: "::1", forwardedFor: ["198.51.100.1"]) == "198.51.100.1")
        #expect(Self.loopback.clientAddress(peer: "::ffff:127.0.0.1", forwardedFor: [" 203.0.113.7 "]) == "203.0.113.7")
    }

    @Test func anUntrustedPeerIsTheClientWhateverItSends() {
        #expect(Self.loopback.clientAddress(peer: "198.51.100.1", forwardedFor: ["203.0.113.7"]) == "198.51.100.1")
        #expect(Self.loopback.forwardedClient(peer: "198.51.100.1", forwardedFor: ["203.0.113.7"]) == nil)
        #expect(TrustedProxies().clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.7"]) == "127.0.0.1")
        #expect(Self.loopback.clientAddress(peer: "not an address", forwardedFor: ["203.0.113.7"]) == "not an address")
    }

    @Test func noHeaderOrAnEmptyOneLeavesThePeer() {
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: [""]) == "127.0.0.1")
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: [" , ,"]) == "127.0.0.1")
        #expect(Self.loopback.forwardedClient(peer: "127.0.0.1", forwardedFor: []) == nil)
    }

    @Test func aChainIsWalkedFromTheRightPastTrustedProxies() throws {
        let chain = try Self.proxies("127.0.0.1, 10.0.0.0/8, 2001:db8:ffff::/48")
        // client → 10.0.0.5 (edge proxy) → 10.0.0.9 → 127.0.0.1 (the peer)
        #expect(chain.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.7, 10.0.0.5, 10.0.0.9"]) == "203.0.113.7")
        #expect(chain.clientAddress(peer: "127.0.0.1", forwardedFor: ["2001:db8::7, 2001:db8:ffff::1"]) == "2001:db8::7")
        // Every hop a trusted proxy: the leftmost is as far as anyone vouched.
        #expect(chain.clientAddress(peer: "127.0.0.1", forwardedFor: ["10.0.0.5, 10.0.0.9"]) == "10.0.0.5")
    }

    @Test func spoofedEntriesLeftOfTheClientAreNeverRead() {
        // The client sent "X-Forwarded-For: 10.0.0.1, 192.0.2.1"; the proxy appended its address for it.
        let header = ["10.0.0.1, 192.0.2.1, 203.0.113.7"]
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: header) == "203.0.113.7")
        // A client claiming to be a trusted proxy is still only the address the proxy saw.
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["127.0.0.1, 203.0.113.7"]) == "203.0.113.7")
    }

    @Test func everyHeaderLineCountsInOrder() {
        let lines = ["198.51.100.1", "203.0.113.7, 127.0.0.1", "::1"]
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: lines) == "203.0.113.7")
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.7", ""]) == "203.0.113.7")
    }

    @Test func aMalformedEntryEndsTheWalkAtTheLastVouchedHop() throws {
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["garbage"]) == "127.0.0.1")
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["unknown"]) == "127.0.0.1")
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.7, garbage"]) == "127.0.0.1")
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["garbage, 203.0.113.7"]) == "203.0.113.7")
        let chain = try Self.proxies("127.0.0.1, 10.0.0.0/8")
        #expect(chain.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.7, 999.1.1.1, 10.0.0.9"]) == "10.0.0.9")
        for bad in ["203.0.113.7:", "[2001:db8::1", "[2001:db8::1]x", "2001:db8::1:80:", "1.2.3.4:80:90", "1.2.3.4/32", "_hidden"] {
            #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: [bad]) == "127.0.0.1", "\(bad)")
        }
    }

    @Test func portsAndBracketsAsSomeProxiesWriteThem() {
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.7:41234"]) == "203.0.113.7")
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["[2001:db8::7]:41234"]) == "2001:db8::7")
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["[2001:db8::7]"]) == "2001:db8::7")
    }

    @Test func oneClientIsOneKeyHoweverItIsWritten() {
        for written in ["2001:DB8::7", "2001:db8:0:0:0:0:0:7", "[2001:0db8::0007]:80"] {
            #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: [written]) == "2001:db8::7", "\(written)")
        }
        #expect(Self.loopback.clientAddress(peer: "127.0.0.1", forwardedFor: ["::ffff:203.0.113.7"]) == "203.0.113.7")
    }
}
