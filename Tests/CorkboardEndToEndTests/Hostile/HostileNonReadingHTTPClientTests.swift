import CorkboardModel
import CorkboardWire
import Foundation
import Glibc
import TestSupport
import Testing

/// HTTP clients that ask for a board's whole log and the whole board (each tens of MB here)
/// and never read a byte of the answer: the server holds no more than about its output bound
/// for each, drops them, and a client that reads still gets every page and the whole board.
@Suite(.threadsOfTheirOwn) struct HostileNonReadingHTTPClientTests {
    static let bound = 256 * 1024
    /// Cards of ~60 KB of data (under the 64 KiB data limit): 300 of them make a 18 MB log
    /// and an 18 MB board.
    static let cards = 300
    static let cardData = String(repeating: "x", count: 60_000)
    static let nonReaders = 6

    @Test func clientsThatNeverReadTheirResponsesAreDroppedWithinTheBound() async throws {
        try await offPool {
            // No byte rate: the test fills the board with 18 MB of cards from one address at once.
            let server = try ChildServer(["--max-output-bytes", String(Self.bound), "--idle-timeout", "2", "--op-byte-rate", "0"])
            let port = server.port
            try Self.insertBigCards(port: port)
            let descriptorsBefore = server.openDescriptors
            let residentBefore = server.residentBytes

            // Each asks for the log from the start, again and again (pipelined), then for the
            // board, and reads nothing; its receive buffer is small, so its socket fills early.
            let request = "GET /api/boards/board/ops?since=0 HTTP/1.1\r\nHost: t\r\n\r\n"
            let pipelined = String(repeating: request, count: 10) + "GET /api/boards/board HTTP/1.1\r\nHost: t\r\n\r\n"
            var sloths: [BlockingClient] = []
            for _ in 0..<Self.nonReaders {
                let sloth = try BlockingClient(port: port)
                sloth.setReceiveBuffer(4096)
                try sloth.send(pipelined)
                sloths.append(sloth)
            }
            // While they hold their sockets open, the server's memory stays near where it was:
            // unfixed, each one held a whole encoded log (18 MB and more) for as long as it liked.
            var peak = 0
            for _ in 0..<20 {
                peak = max(peak, server.residentBytes)
                usleep(100_000)
            }
            let growth = peak - residentBefore
            #expect(growth < 48 << 20, "the server grew by \(growth >> 20) MiB for \(Self.nonReaders) clients that do not read")

            // They are dropped as slow consumers (their sockets still open on this side), and the
            // server lets go of their descriptors.
            var dropped = 0.0
            // (Each GET of the board is counted whole before it is sent: seconds in a debug build.)
            #expect(
                try eventually(timeout: 60) {
                    dropped = try Self.metrics(port: port)["corkboard_slow_consumers_dropped_total"] ?? 0
                    return dropped >= Double(Self.nonReaders)
                }, "\(dropped) of \(Self.nonReaders) clients that read nothing were dropped")
            #expect(
                eventually(timeout: 10) { server.openDescriptors <= descriptorsBefore },
                "the server still holds \(server.openDescriptors - descriptorsBefore) more descriptors")

            // A client that reads gets the whole log, page by page, each page within the bound,
            // and the whole board.
            let (events, pages) = try Self.readWholeLog(port: port)
            #expect(events.map(\.seq) == Array(1...Self.cards), "the pages hold every event once, in order")
            #expect(pages > 1, "a log of \((Self.cards * Self.cardData.count) >> 20) MB comes in several pages")
            let document = try Unharmed.document(port: port, board: "board", token: nil)
            #expect(document.seq == Self.cards)
            #expect(document.board.allItemIDs.filter { $0.hasPrefix("big") }.count == Self.cards)
            #expect(server.isRunning)
            withExtendedLifetime(sloths) {}
        }
    }

    /// Inserts `cards` cards with ~60 KB of data each, one operation per POST.
    static func insertBigCards(port: UInt16) throws {
        for index in 0..<cards {
            let body =
                #"{"type":"insert","opId":"big-\#(index)","baseSeq":\#(index),"items":[{"id":"big\#(index)","label":"Big \#(index)","data":{"blob":"\#(cardData)"}}],"destination":{"collection":"done"}}"#
            let response = try Unharmed.post(port, "/api/boards/board/ops", body: body, token: nil)
            guard response.status == 200 else { throw HubTestFailure("insert \(index): \(response.status) \(response.text.prefix(200))") }
        }
    }

    /// One page of `GET …/ops` as this test reads it, whatever else the body holds.
    struct Page: Decodable {
        let events: [ServerMessage]
        let next: Int?
    }

    /// Follows `next` from since=0 to the end; returns the events and how many pages it took.
    static func readWholeLog(port: UInt16) throws -> ([CommittedEvent], Int) {
        var events: [CommittedEvent] = []
        var since = 0
        for pages in 1...(cards + 1) {
            let response = try Unharmed.get(port, "/api/boards/board/ops?since=\(since)", token: nil)
            guard response.status == 200 else { throw HubTestFailure("GET ops since \(since): \(response.status) \(response.text.prefix(200))") }
            #expect(response.body.count <= bound, "a page of \(response.body.count) bytes")
            let page = try JSONDecoder().decode(Page.self, from: Data(response.body))
            for case .committed(let event) in page.events { events.append(event) }
            guard let next = page.next else { return (events, pages) }
            #expect(next == events.last?.seq, "next is the seq of the page's last event")
            since = next
        }
        throw HubTestFailure("the pages did not end after \(cards + 1) requests")
    }

    static func metrics(port: UInt16) throws -> [String: Double] {
        let text = try Unharmed.get(port, "/metrics", token: nil).text
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }
}
