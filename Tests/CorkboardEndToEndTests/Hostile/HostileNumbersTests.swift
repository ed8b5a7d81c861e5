import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Numbers and nesting no board can hold, sent over real sockets: a `resume.seq` past every
/// seq (2^53 and beyond) is answered with the snapshot (`"resumed":false`), not close 1008;
/// JSON nested past 512 levels is told `nested too deep (more than 512 levels)` (an operation
/// with its opId in `rejected`, over HTTP 400), and data deeper than a `welcome` can carry is
/// rejected. The connection stays open and the board goes on.
@Suite(.threadsOfTheirOwn) struct HostileNumbersTests {
    private let tooDeep = "nested too deep (more than 512 levels)"

    @Test(arguments: ["9007199254740992", "9223372036854775807", "18446744073709551616", "1e300", "-1e300"])
    func aResumeSeqNoBoardReachesGetsTheSnapshot(seq: String) async throws {
        try await offPool {
            let server = try ChildServer()
            let port = server.port
            let before = try Unharmed.seed(port: port)
            let epoch = try Unharmed.document(port: port, board: "board", token: nil).epoch
            let socket = try WebSocketTestClient(port: port)
            try socket.send(text: #"{"type":"hello","board":"board","name":"Big","resume":{"epoch":"\#(epoch)","seq":\#(seq)}}"#)
            guard case .welcome(let welcome) = try decodeServerText(try socket.receiveText()) else {
                throw HubTestFailure("expected a welcome for resume seq \(seq)")
            }
            #expect(!welcome.resumed)
            #expect(welcome.seq == before.count && welcome.board != nil)
            // Still a member: an operation from it is answered.
            try socket.send(text: #"{"type":"delete","opId":"gone-1","baseSeq":0,"items":["nope"]}"#)
            guard case .rejected(let rejected) = try decodeServerText(try socket.receiveText()) else {
                throw HubTestFailure("the member's operation was not answered")
            }
            #expect(rejected.opId == "gone-1" && rejected.code == .gone)
            try Unharmed.expect(port: port, eventsBefore: before)
            #expect(server.isRunning)
        }
    }

    @Test func anOperationNestedTooDeepIsRejectedWithItsOpIdAndTheMemberStays() async throws {
        try await offPool {
            let server = try ChildServer()
            let port = server.port
            let before = try Unharmed.seed(port: port)
            let member = try BoardTestClient(port: port, board: "board", name: "Deep")
            let deep = String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
            let insert =
                #"{"type":"insert","opId":"deep-1","baseSeq":0,"items":[{"id":"x","label":"X","data":"# + deep
                + #"}],"destination":{"collection":"todo"}}"#
            try member.send(json: insert)
            #expect(try member.outcome(of: "deep-1") == .rejected(Rejected(opId: "deep-1", code: .invalid, message: tooDeep)))
            try member.send(json: String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000))
            #expect(try member.waitFor(type: "error") == .error(ErrorMessage(code: .invalid, message: tooDeep)))

            // Over HTTP: 400 with the same message.
            let operation = try Unharmed.post(port, "/api/boards/board/ops", body: insert, token: nil)
            #expect(operation.status == 400 && operation.text.contains(tooDeep), "\(operation.status) \(operation.text)")
            let newBoard = #"{"id":"deep","title":"Deep","collections":[],"x":"# + deep + "}"
            let created = try Unharmed.post(port, "/api/boards", body: newBoard, token: nil)
            #expect(created.status == 400 && created.text.contains(tooDeep), "\(created.status) \(created.text)")

            // Within the parser's 512 levels but deeper than a welcome can carry an item's data.
            var data = "1"
            for _ in 0..<506 { data = "[" + data + "]" }
            let tooDeepData = try member.perform(
                OperationRequest(
                    opId: "deep-2", baseSeq: member.seq,
                    .insert(
                        items: [Item(id: "y", label: "Y", data: ["v": try JSONDecoder().decode(JSONValue.self, from: Data(data.utf8))])],
                        destination: Destination(collection: "todo"))))
            #expect(tooDeepData == .rejected(Rejected(opId: "deep-2", code: .invalid, message: "data of item y nests deeper than 506 levels")))
            try Unharmed.expect(port: port, eventsBefore: before)
            // A newcomer still reads the board.
            #expect(try BoardTestClient(port: port, board: "board", name: "Later").board == Unharmed.document(port: port, board: "board", token: nil).board)
            #expect(server.isRunning)
        }
    }
}
