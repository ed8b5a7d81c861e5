import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `GET /api/boards/{id}/events` (docs/protocol.md#event-stream) over real sockets: the board,
/// then every commit as the ops page writes it; resumes by seq with no gap and no repeat;
/// `reset` when a resume cannot be replayed; `gone` on delete; slow readers dropped.
@Suite(.threadsOfTheirOwn) struct EventStreamTests {
    static func open(_ fixture: HubFixture, _ query: String = "", headers: [String] = []) throws -> EventStreamReader {
        let reader = try EventStreamReader(port: fixture.port, target: "/api/boards/\(fixture.board.id)/events\(query)", headers: headers)
        guard reader.status == 200 else { throw HubTestFailure("the stream answered \(reader.status)") }
        return reader
    }

    /// Commits an insert of a new card over HTTP and returns its event.
    @discardableResult
    static func insert(_ fixture: HubFixture, _ id: String, label: String = "card") throws -> CommittedEvent {
        try insert(fixture.api, id, label: label)
    }

    @discardableResult
    static func insert(_ api: BoardAPI, _ id: String, label: String = "card") throws -> CommittedEvent {
        // An insert at the end of a column means the same at any seq: the board's seq now is as good as any.
        let seq = try api.get("/api/boards").decode(BoardList.self).boards.first { $0.id == "board" }?.seq ?? 0
        let request = OperationRequest(
            opId: "op-\(id)", baseSeq: seq, .insert(items: [Item(id: id, label: label)], destination: Destination(collection: "done")))
        let answer = try api.perform("board", request)
        guard case .committed(let event) = try answer.message() else { throw HubTestFailure("inserting \(id) did not commit: \(answer)") }
        return event
    }

    /// The JSON of the event at `seq` exactly as `GET …/ops` writes it.
    static func opsPageJSON(_ fixture: HubFixture, seq: Int) throws -> String {
        let page = try fixture.api.get("/api/boards/\(fixture.board.id)/ops?since=\(seq - 1)&limit=1").text
        let prefix = #"{"events":["#
        guard page.hasPrefix(prefix), let end = page.range(of: "]", options: .backwards) else { throw HubTestFailure("odd page \(page)") }
        return String(page[page.index(page.startIndex, offsetBy: prefix.count)..<end.lowerBound])
    }

    @Test func aStreamStartsWithTheBoardThenCarriesEveryCommitAsTheOpsPageWritesIt() throws {
        let fixture = try HubFixture()
        let stream = try Self.open(fixture)
        #expect(stream.header("Content-Type") == "text/event-stream")
        #expect(stream.header("Cache-Control") == "no-store, no-transform")
        #expect(stream.header("Transfer-Encoding") == "chunked")
        #expect(stream.header("Content-Length") == nil)

        let reset = try stream.next("reset")
        #expect(reset.seq == 0)
        let document = try JSONDecoder().decode(BoardDocument.self, from: Data(reset.data.utf8))
        #expect(document == fixture.created)
        #expect(stream.retry == [3000])
        #expect(try MetricsEndpointTests.scrape(fixture)["corkboard_event_streams"] == 1)

        for n in 1...5 {
            let event = try Self.insert(fixture, "n\(n)")
            let streamed = try stream.next("committed")
            #expect(streamed.seq == event.seq)
            #expect(streamed.data == (try Self.opsPageJSON(fixture, seq: event.seq)), "byte for byte the ops page's")
            #expect(try WireFormat.decodeServerMessage(Data(streamed.data.utf8)) == .committed(event))
        }
        stream.client.reset()
        #expect(try eventually { try MetricsEndpointTests.scrape(fixture)["corkboard_event_streams"] == 0 }, "the stream is no longer counted")
    }

    @Test func aReconnectWithLastEventIDGetsExactlyTheEventsItMissedThenLiveOnes() throws {
        let fixture = try HubFixture()
        let first = try Self.open(fixture)
        _ = try first.next("reset")
        for n in 1...2 { try Self.insert(fixture, "a\(n)") }
        #expect(try first.next("committed").seq == 1)
        let last = try first.next("committed")
        #expect(last.seq == 2)
        first.client.reset()

        // Missed while away, and more committed while the reconnect is replayed.
        for n in 1...20 { try Self.insert(fixture, "b\(n)") }
        let writer = DispatchGroup()
        let failures = Locked<[String]>([])
        let api = fixture.api
        DispatchQueue.global().async(group: writer) {
            for n in 1...40 {
                do { try Self.insert(api, "c\(n)") } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        let second = try Self.open(fixture, headers: ["Last-Event-ID: \(last.id ?? "")"])
        var seqs: [Int] = []
        for _ in 0..<60 {
            let event = try second.next("committed")
            seqs.append(event.seq ?? -1)
        }
        writer.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(seqs == Array(3...62), "no gap, no repeat, no reset")
        // And it is live now.
        try Self.insert(fixture, "d1")
        #expect(try second.next("committed").seq == 63)
    }

    @Test func sinceResumesForClientsWithoutHeadersAndLastEventIDWinsOverIt() throws {
        let fixture = try HubFixture()
        for n in 1...6 { try Self.insert(fixture, "n\(n)") }
        let bySince = try Self.open(fixture, "?since=4")
        #expect(try bySince.next("committed").seq == 5)
        #expect(try bySince.next("committed").seq == 6)
        // What an EventSource does: the URL keeps its since, the header says where it got to.
        let both = try Self.open(fixture, "?since=1", headers: ["Last-Event-ID: 5"])
        #expect(try both.next("committed").seq == 6)
        // Resumed at the board's seq: nothing to replay, straight to live.
        let atHead = try Self.open(fixture, "?since=6")
        try Self.insert(fixture, "n7")
        #expect(try atHead.next("committed").seq == 7)
    }

    @Test func aResumeTheKeptLogCannotReplayStartsWithReset() throws {
        let fixture = try HubFixture { $0.hub.historyCapacity = 8 }
        for n in 1...30 { try Self.insert(fixture, "n\(n)") }
        var seq = 30
        // Older than the kept log, above the board's seq, of another epoch.
        for (query, headers) in [("", ["Last-Event-ID: 1"]), ("?since=99", []), ("?since=29&epoch=another", [])] {
            let document = try fixture.document()
            let stream = try Self.open(fixture, query, headers: headers)
            let reset = try stream.next("reset")
            #expect(reset.seq == document.seq, "\(query) \(headers)")
            #expect(try JSONDecoder().decode(BoardDocument.self, from: Data(reset.data.utf8)) == document)
            seq += 1
            try Self.insert(fixture, "after-\(seq)")
            #expect(try stream.next("committed").seq == seq, "live after the reset")
            stream.client.reset()
        }
        // With the board's own epoch the same kind of resume is replayed.
        let document = try fixture.document()
        let stream = try Self.open(fixture, "?since=\(document.seq - 1)&epoch=\(document.epoch)")
        #expect(try stream.next("committed").seq == document.seq)
    }

    @Test func deletingTheBoardEndsTheStreamWithGone() throws {
        let fixture = try HubFixture()
        let stream = try Self.open(fixture)
        _ = try stream.next("reset")
        #expect(try fixture.api.delete("/api/boards/board").status == 204)
        let gone = try stream.next("gone")
        #expect(try WireFormat.decodeServerMessage(Data(gone.data.utf8)) == .error(ErrorMessage(code: .gone, message: "the board was deleted")))
        #expect(try stream.next() == nil)
        #expect(stream.endedCleanly, "the stream ends with its last chunk")
        #expect(try fixture.api.get("/api/boards/board/events").status == 404)
    }

    @Test func aReaderThatStopsReadingIsDroppedAtTheOutputBoundAndOthersKeepTheirPace() throws {
        let fixture = try HubFixture { $0.maxPendingOutput = 256 * 1024 }
        let sloth = try Self.open(fixture)
        let reader = try Self.open(fixture)
        _ = try reader.next("reset")
        // The sloth reads nothing from here on; a small receive buffer makes the kernel stop
        // taking its bytes early, so the server's queue for it grows.
        sloth.client.setReceiveBuffer(4096)
        let label = String(repeating: "slow reader ", count: 12 * 1024 / 12)
        var dropped = false
        var inserted = 0
        while inserted < 600 && !dropped {
            inserted += 1
            let event = try Self.insert(fixture, "big-\(inserted)", label: label)
            #expect(try reader.next("committed").seq == event.seq)
            if inserted % 10 == 0 { dropped = try MetricsEndpointTests.scrape(fixture)["corkboard_event_streams"] == 1 }
        }
        #expect(dropped, "the sloth was still streamed to after \(inserted) large inserts")
        let metrics = try MetricsEndpointTests.scrape(fixture)
        #expect(metrics["corkboard_slow_consumers_dropped_total"] == 1)
        #expect(metrics["corkboard_members"] == 1, "the dropped stream left the board; the reader is still there")
    }

    @Test func streamsAreCountedWithTheConnectionLimits() throws {
        let fixture = try HubFixture { $0.http.admission.maxConnections = 3 }
        let streams = try (0..<3).map { _ in try Self.open(fixture) }
        for stream in streams { _ = try stream.next("reset") }
        let refused = try EventStreamReader(port: fixture.port, target: "/api/boards/board/events")
        #expect(refused.status == 503, "a fourth connection, stream or not, is over the limit")
        streams[0].client.reset()
        // Once one ends its connection is free again, for a stream as for anything.
        var reopened: EventStreamReader?
        #expect(
            try eventually {
                let attempt = try EventStreamReader(port: fixture.port, target: "/api/boards/board/events")
                if attempt.status == 200 { reopened = attempt }
                return attempt.status == 200
            })
        #expect(try reopened?.next("reset").seq == 0)
    }

    @Test func refusalsAreTheHTTPErrorsOfTheOtherRoutes() throws {
        let fixture = try HubFixture()
        let api = fixture.api
        #expect(try api.get("/api/boards/nope/events").status == 404)
        #expect(try api.get("/api/boards/board/events?since=x").text.contains("since must be a seq"))
        #expect(try api.get("/api/boards/board/events?since=9007199254740992").status == 400)
        #expect(try api.get("/api/boards/board/events?since=-1").status == 400)
        #expect(try api.get("/api/boards/board/events?since=1&since=2").status == 400)
        #expect(try api.get("/api/boards/board/events?limit=3").text.contains("unknown query parameter \\\"limit\\\""))
        #expect(try api.get("/api/boards/board/events?epoch=").status == 400)
        let badHeader = try api.send("GET", "/api/boards/board/events", headers: ["Last-Event-ID: seven"])
        #expect(badHeader.status == 400)
        #expect(badHeader.text.contains("Last-Event-ID must be a seq"))
        // HEAD: the head of the stream and nothing more.
        let head = try BlockingClient.request(
            port: fixture.port, "HEAD /api/boards/board/events HTTP/1.1\r\nHost: test\r\n\r\n", bodyless: true)
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream")
        #expect(try BlockingClient.request(port: fixture.port, "HEAD /api/boards/nope/events HTTP/1.1\r\nHost: test\r\n\r\n", bodyless: true).status == 404)
        #expect(try eventually { try MetricsEndpointTests.scrape(fixture)["corkboard_members"] == 0 }, "HEAD leaves no member behind")
    }

    @Test func tokensAreJudgedAsForReadingTheBoard() throws {
        let server = try HubRoleTests.server()
        func status(_ token: String?, _ board: String = "board") throws -> Int {
            let authorization = token.map { ["Authorization: Bearer \($0)"] } ?? []
            return try EventStreamReader(port: server.port, target: "/api/boards/\(board)/events", headers: authorization).status
        }
        #expect(try status(nil) == 401)
        #expect(try status("wrong") == 401)
        #expect(try status("view", "other") == 403)
        #expect(try status("view") == 200, "a viewer may follow")
        let stream = try EventStreamReader(port: server.port, target: "/api/boards/board/events", headers: ["Authorization: Bearer edit"])
        #expect(try stream.next("reset").seq == 0)
    }

    @Test func aRevokedTokenEndsItsStreamsWithAnError() throws {
        let tokens = try TemporaryDirectory("corkboard-tokens")
        let path = try tokens.write("tokens.json", TokenFileRevisions.first)
        let server = try TestServer {
            $0.createsDemoBoard = true
            $0.tokenFile = path
        }
        let stream = try EventStreamReader(port: server.port, target: "/api/boards/demo/events", headers: ["Authorization: Bearer ann"])
        _ = try stream.next("reset")
        _ = try tokens.write("tokens.json", TokenFileRevisions.second)
        server.server.reload()
        let error = try stream.next("error")
        #expect(try WireFormat.decodeServerMessage(Data(error.data.utf8)) == .error(ErrorMessage(code: .forbidden, message: "the token was revoked")))
        #expect(try stream.next() == nil)
        #expect(stream.endedCleanly)
        #expect(try EventStreamReader(port: server.port, target: "/api/boards/demo/events", headers: ["Authorization: Bearer ann"]).status == 401)
    }

    @Test func theStreamIsNotAPeer() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let stream = try Self.open(fixture)
        _ = try stream.next("reset")
        let bob = try fixture.join("Bob")
        #expect(bob.welcome.peers.map(\.name) == ["Ada"], "the stream is not among the peers")
        try bob.close()
        stream.client.reset()
        // Ada heard of Bob only: no peer.joined or peer.left for the stream.
        _ = try ada.sync()
        let heard = ada.log
        #expect(heard.compactMap { if case .peerJoined(_, let name, _) = $0 { name } else { nil } } == ["Bob"])
        #expect(heard.filter { $0.typeName == "peer.left" }.count == 1)
    }

    @Test func heartbeatsKeepAQuietStreamAlive() throws {
        let fixture = try HubFixture { $0.eventStream.heartbeat = .milliseconds(100) }
        let stream = try Self.open(fixture, "?since=0")
        // Nothing happens on the board: only pings arrive, and the reader sees them.
        #expect(try stream.untilComment("ping").isEmpty)
        #expect(try stream.untilComment("ping").isEmpty)
        try Self.insert(fixture, "n1")
        #expect(try stream.next("committed").seq == 1)
    }

    @Test func aGracefulShutdownEndsEveryStreamWithItsLastChunk() throws {
        let fixture = try HubFixture()
        let stream = try Self.open(fixture)
        _ = try stream.next("reset")
        let done = DispatchSemaphore(value: 0)
        fixture.server.server.shutdown { done.signal() }
        #expect(try stream.next() == nil)
        #expect(stream.endedCleanly)
        #expect(done.wait(timeout: .now() + 20) == .success)
    }
}
