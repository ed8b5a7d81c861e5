import Glibc
import Testing

@testable import Sockets

@Suite struct SocketAddressTests {
    @Test func resolvesNumericAddresses() throws {
        let v4 = try #require(try SocketAddress.resolve(host: "127.0.0.1", port: 8080).first)
        #expect(v4.family == AF_INET)
        #expect(v4.port == 8080)
        #expect(v4.description == "127.0.0.1:8080")
        #expect(v4.isLoopback)
        let v6 = try #require(try SocketAddress.resolve(host: "::1", port: 443).first)
        #expect(v6.family == AF_INET6)
        #expect(v6.description == "[::1]:443")
        #expect(v6.isLoopback)
    }

    @Test func publicAddressesAreNotLoopback() throws {
        #expect(try SocketAddress.resolve(host: "192.0.2.1", port: 1).first?.isLoopback == false)
        #expect(try SocketAddress.resolve(host: "2001:db8::1", port: 1).first?.isLoopback == false)
        #expect(try SocketAddress.resolve(host: "::ffff:127.0.0.1", port: 1).first?.isLoopback == true)
    }

    @Test func unresolvableHostIsAnError() {
        #expect(throws: AddressResolutionError.self) { try SocketAddress.resolve(host: "no such host.invalid", port: 1) }
    }
}
