import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket

@testable import CorkboardServer

/// What a client costs before it proves anything: a token is refused past 8 KiB before it is
/// decoded or hashed, a first message past 64 KiB at its frame header (never parsed), and
/// an address whose hellos keep being refused is turned away before its next one is read.
@Suite(.threadsOfTheirOwn) struct HostilePreAuthTests {
    /// Three base64url parts of 300 KB: what decoding cost ~300 ms of CPU per hello.
    static let hugeToken = [String](repeating: String(repeating: "eyJh", count: 75_000), count: 3).joined(separator: ".")

    /// The CPU seconds (user and system) a process has used so far.
    static func cpuSeconds(_ pid: pid_t) -> Double {
        guard let fields = procStatFields(pid), fields.count > 12 else { return 0 }
        return Double((Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test func hellosWithHugeTokensCostTheServerAlmostNothing() async throws {
        try await offPool {
            let folder = try TemporaryDirectory("corkboard-secret")
            let secretFile = try folder.write("secret", SignedTokenServeTests.secret)
            let server = try ChildServer(
                ["--token-secret-file", secretFile], tokens: SignedTokenServeTests.fileTokens, ownerToken: "owner-token")
            let before = try Unharmed.seed(port: server.port, token: "owner-token")
            let pid = server.process.process.processIdentifier
            let cpuBefore = Self.cpuSeconds(pid)
            for _ in 0..<20 {
                let (error, close) = try SignedTokenServeTests.refusedHello(port: server.port, token: Self.hugeToken)
                #expect(error == nil, "\(String(describing: error))")
                #expect(close?.code == .messageTooBig)
            }
            let spent = Self.cpuSeconds(pid) - cpuBefore
            #expect(spent < 1, "20 hellos with a 900 KB token cost the server \(spent) s of CPU")

            // Within the first message's bound, a token past 8 KiB is refused unread, over
            // the WebSocket and over HTTP.
            let longToken = String(repeating: "a", count: 3_000) + "." + String(repeating: "b", count: 3_000) + "." + String(repeating: "c", count: 3_000)
            let (error, _) = try SignedTokenServeTests.refusedHello(port: server.port, token: longToken)
            #expect(error?.code == .unauthorized && error?.message == "the token is longer than 8192 bytes")
            let http = try Unharmed.get(server.port, "/api/boards/board", token: longToken)
            #expect(http.status == 401 && http.text.contains("longer than 8192 bytes"))
            try Unharmed.expect(port: server.port, token: "owner-token", eventsBefore: before)
        }
    }

    /// `hello` with `token` from `address` (forwarded by the trusted proxy the test plays).
    static func hello(port: UInt16, from address: String, token: String) throws -> (ErrorMessage?, Welcome?, WebSocketCloseCode?) {
        let answer = try SignedTokenServeTests.answerToHello(port: port, token: token, extraHeaders: "X-Forwarded-For: \(address)\r\n")
        return (answer.error, answer.welcome, answer.close?.code)
    }

    /// Past `refusedHelloRate`'s burst of refused hellos, an address is turned away with
    /// `rate-limited` and 1013 before its first message is read; other addresses are not.
    @Test func anAddressWhoseHellosKeepBeingRefusedIsTurnedAwayUnread() async throws {
        try await offPool {
            let server = try TestServer {
                $0.createsDemoBoard = false
                $0.access = try! TokenFile(grants: [
                    TokenFile.Grant(token: "owner-token", role: .owner, boards: .all),
                    TokenFile.Grant(token: "other-board", role: .editor, boards: ["other"]),
                ])
                $0.hub.refusedHelloRate = RateLimit(perSecond: 0.01, burst: 5)
                $0.trustedProxies = try! TrustedProxies(parsing: "127.0.0.1")
            }
            try Unharmed.createBoard(port: server.port, token: "owner-token")
            // A valid token on a board it does not cover is not counted: its holder is known.
            for _ in 0..<10 {
                let (error, _, _) = try Self.hello(port: server.port, from: "203.0.113.7", token: "other-board")
                #expect(error?.code == .forbidden)
            }
            for attempt in 0..<5 {
                let (error, _, close) = try Self.hello(port: server.port, from: "203.0.113.7", token: "guess-\(attempt)")
                #expect(error?.code == .unauthorized && close == .policyViolation)
            }
            // Spent: even a good token from this address waits (before reading, the address
            // is all the server knows).
            let (error, _, close) = try Self.hello(port: server.port, from: "203.0.113.7", token: "owner-token")
            #expect(error?.code == .rateLimited && close == .tryAgainLater, "\(String(describing: error))")
            // From another address, the good token joins, and refused hellos there start their own count.
            let (_, welcome, _) = try Self.hello(port: server.port, from: "198.51.100.2", token: "owner-token")
            #expect(welcome?.role == .owner)
            let (otherError, _, _) = try Self.hello(port: server.port, from: "198.51.100.2", token: "guess")
            #expect(otherError?.code == .unauthorized)
        }
    }

    /// IPv6 clients are counted by their /64, which one subscriber usually holds whole.
    @Test func ipv6AddressesAreCountedByTheirSlash64() {
        #expect(AddressGroup.of("2001:db8::1") == AddressGroup.of("2001:db8::ffff:2"))
        #expect(AddressGroup.of("2001:db8::1") != AddressGroup.of("2001:db8:0:1::1"))
        #expect(AddressGroup.of("203.0.113.7") == "203.0.113.7")
        #expect(AddressGroup.of("::ffff:203.0.113.7") == "::ffff:203.0.113.7")
        #expect(AddressGroup.of("not an address") == "not an address")
    }
}
