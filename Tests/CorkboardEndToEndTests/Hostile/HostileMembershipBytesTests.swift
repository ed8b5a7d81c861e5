import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket

/// Issue #31, items 3 and 5, over real sockets: names that made every membership message and
/// every event as big as a label. A `peers.page` stays within its byte bound however long the
/// names, a flood of `peers.list` is answered `rate-limited` once its answers pass the byte
/// rate, and a name (in `hello`, or a signed token's `name` or `sub`) over the cap is refused,
/// so no event carries more than the cap as its `by`.
@Suite(.threadsOfTheirOwn) struct HostileMembershipBytesTests {
    /// The documented bound of one `peers.page` (docs/protocol.md#peers-list): its peers'
    /// JSON, and the rest of the message (count, next, type: well under 128 bytes).
    static let pageBound = MembershipLimits.listedPeerBytes + 128

    /// A name of exactly `Limits.maximumNameBytes`, two-byte characters after the prefix so
    /// that a cut in the middle of one would show.
    static func maximalName(_ prefix: String) -> String {
        var name = prefix + String(repeating: "é", count: (Limits.maximumNameBytes - prefix.utf8.count) / 2)
        while name.utf8.count < Limits.maximumNameBytes { name += "x" }
        return name
    }

    @Test func peersListPagesStayWithinTheirBoundAndAFloodIsRateLimited() async throws {
        try await offPool {
            // 256 KiB a second, bursts of 1 MiB: a flood of full pages passes it within a second.
            let fixture = try HubFixture { $0.hub.operationByteRate = HubConfiguration.byteRate(perSecond: 256 * 1024) }
            let crowd = try (0..<150).map { try fixture.join(Self.maximalName("p\($0)-")) }
            #expect(crowd.allSatisfy { $0.name.utf8.count == Limits.maximumNameBytes })

            // Paging with the largest limit: pages cut by bytes still list everyone once, in order.
            let pager = try fixture.join("pager", observe: true)
            var listed: [ClientID] = []
            var after: Int?
            for _ in 0..<20 {
                try pager.send(.peersList(after: after, limit: MembershipLimits.maximumPage))
                let page = try #require(try pager.waitFor(type: "peers.page").peersPage)
                let text = try #require(pager.rawLog.last)
                #expect(text.utf8.count <= Self.pageBound, "a page of \(text.utf8.count) bytes")
                listed += page.peers.map(\.client)
                guard let next = page.next else { break }
                after = next
            }
            #expect(listed == crowd.map(\.clientID))

            // The flood: 50 requests of 40 bytes for pages of 200 maximal names, sent without
            // reading. Presence allows them all (60 a second); the answers' bytes do not.
            let flooder = try fixture.join("flooder", observe: true)
            let request = #"{"type":"peers.list","limit":200}"#
            let started = Date()
            for _ in 0..<50 { try flooder.send(json: request) }
            var (pages, refused, pageBytes) = (0, 0, 0)
            for _ in 0..<50 {
                let answer = try flooder.waitFor("an answer to peers.list") { $0.typeName == "peers.page" || $0.typeName == "error" }
                let text = try #require(flooder.rawLog.last)
                if case .error(let error) = answer {
                    #expect(error.code == .rateLimited, "\(error)")
                    refused += 1
                } else {
                    #expect(text.utf8.count <= Self.pageBound, "a page of \(text.utf8.count) bytes")
                    (pages, pageBytes) = (pages + 1, pageBytes + text.utf8.count)
                }
            }
            let seconds = Date().timeIntervalSince(started)
            #expect(refused > 0, "\(pages) pages and no refusal")
            // The burst, what the rate refilled meanwhile, and the one page that went into debt.
            let allowed = Double(4 * 256 * 1024) + seconds * Double(256 * 1024) + Double(Self.pageBound)
            #expect(Double(pageBytes) <= allowed, "\(pageBytes) bytes of pages in \(seconds) s")
            try Unharmed.commitAMove(crowd[0])
        }
    }

    @Test func aNameOverTheCapIsRefusedAndOneAtItIsTheMostAnEventCarries() async throws {
        try await offPool {
            let fixture = try HubFixture()
            let (error, close) = try SignedTokenServeTests.refusedHello(port: fixture.port, name: String(repeating: "n", count: 16 * 1024))
            #expect(error == ErrorMessage(code: .invalid, message: "name is longer than \(Limits.maximumNameBytes) bytes"))
            #expect(close?.code == .policyViolation)
            let (justOver, _) = try SignedTokenServeTests.refusedHello(port: fixture.port, name: Self.maximalName("o") + "é")
            #expect(justOver?.code == .invalid)
            // NUL: a name is stored with every event its holder commits, and PostgreSQL cannot.
            let (withNUL, nulClose) = try SignedTokenServeTests.refusedHello(port: fixture.port, name: "Ada\u{0}")
            #expect(withNUL == ErrorMessage(code: .invalid, message: "name holds a NUL character"))
            #expect(nulClose?.code == .policyViolation)

            let name = Self.maximalName("ada-")
            let ada = try fixture.join(name)
            let event = try Unharmed.commitAMove(ada)
            #expect(event.by == name, "the name is never cut")
            let committed = try #require(ada.rawLog.last { $0.contains(#""type":"committed""#) })
            // A move's JSON is about 200 bytes here: the name is the rest.
            #expect(committed.utf8.count <= 200 + Limits.maximumNameBytes + 64, "\(committed.utf8.count) bytes")
        }
    }

    @Test func aSignedTokenWithAnOversizedSubOrNameIsNotValid() async throws {
        try await offPool {
            let signer = SignedTokenServeTests.signer
            let server = try SignedTokenServeTests.server()
            func token(subject: String, name: String) -> String {
                signer.mint(
                    SignedTokenClaims(subject: subject, name: name, boards: .all, role: .owner, expires: Date().addingTimeInterval(600)))
            }
            // 4 KiB in a hello (a token past 8 KiB is refused before it is decoded, whatever
            // it holds); 1 KiB in an Authorization header (a longer header is 431).
            for size in [4 * 1024, 1024] {
                let huge = String(repeating: "s", count: size)
                for (claims, claim) in [(token(subject: huge, name: "Ada"), "sub"), (token(subject: "ada", name: huge), "name")] {
                    let reason = "the token's \(claim) is longer than \(Limits.maximumNameBytes) bytes"
                    let (error, close) = try SignedTokenServeTests.refusedHello(port: server.port, token: claims)
                    #expect(error == ErrorMessage(code: .unauthorized, message: reason))
                    #expect(close?.code == .policyViolation && close?.reason == reason)
                    guard size == 1024 else { continue }
                    let http = try Unharmed.get(server.port, "/api/boards/board", token: claims)
                    #expect(http.status == 401 && http.text.contains(reason), "\(http.status) \(http.text)")
                }
            }
            // At the cap, both are taken, and the sub is the commits' `by`.
            let subject = Self.maximalName("id-")
            let ada = try BoardTestClient(port: server.port, board: "board", name: "x", token: token(subject: subject, name: Self.maximalName("Ada")))
            #expect(try Unharmed.commitAMove(ada).by == subject)
        }
    }

    /// `corkboard token mint` refuses to make a token the server would refuse.
    @Test func theCommandLineMintsNoTokenWithANameOverTheCap() throws {
        for option in ["--sub", "--name"] {
            var arguments = ["token", "mint", "--secret", SignedTokenServeTests.secret, "--role", "viewer", "--boards", "*"]
            arguments += option == "--sub" ? ["--sub", Self.maximalName("u") + "x", "--name", "N"] : ["--sub", "u", "--name", Self.maximalName("N") + "x"]
            let mint = try ServerProcess(arguments)
            #expect(mint.waitForExit() == 64)
            #expect(mint.standardError.contains("\(option) is longer than \(Limits.maximumNameBytes) bytes"), "\(mint.standardError)")
            #expect(mint.standardOutput.isEmpty)
        }
    }
}
