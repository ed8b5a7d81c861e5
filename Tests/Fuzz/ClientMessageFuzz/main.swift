// libFuzzer target: the protocol message decoder (WireFormat.decodeClientMessage: JSON,
// ClientMessage, OperationRequest, FieldReader).
//
// Input: the text of one client message (no choice byte: the seeds are plain JSON).
//
// Invariants beyond "does not crash":
// - a message the decoder accepts, encoded as a client would send it, decodes to the same
//   message;
// - a `rejected` answer names a string opId and an operation type; an `error` has a message;
// - an accepted operation resolved by a BoardEngine (on a small fixture board, as owner)
//   leaves a valid board, and a committed event survives its own JSON round trip, both as
//   `JSONEncoder` writes it and as the server's `committed` message (`JSONWriter`).
import CorkboardModel
import CorkboardWire
import Foundation

let fixture = Board(
    id: "fuzz", title: "Fuzz",
    collections: [
        BoardCollection(id: "todo", title: "To do", items: [Item(id: "i1", label: "One"), Item(id: "i2", label: "Two", data: ["n": .number(2)])]),
        BoardCollection(id: "done", title: "Done", items: [Item(id: "i3", label: "Three")]),
        BoardCollection(id: "empty", title: "Empty"),
    ])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    switch WireFormat.decodeClientMessage(Data(input.bytes)) {
    case .message(let message):
        let encoded: Data
        do { encoded = try WireFormat.encode(message) } catch { fatalError("an accepted message did not encode: \(error)") }
        let again = WireFormat.decodeClientMessage(encoded)
        check(again == .message(message), "\(message) encoded as \(String(decoding: encoded, as: UTF8.self)) decoded as \(again)")
        if case .operation(let request) = message { resolve(request) }
    case .rejected(let rejected):
        check(rejected.message?.isEmpty == false, "rejected without a message")
    case .error(let error):
        check(!error.message.isEmpty, "error without a message")
    }
    return 0
}

func resolve(_ request: OperationRequest) {
    guard var engine = try? BoardEngine(board: fixture, seq: 5, historyCapacity: 16) else { fatalError("fixture") }
    let outcome = engine.apply(request, client: "c1", role: .owner, leases: LeaseTable(holders: ["i3": "c2"]))
    check(engine.board.validationProblems().isEmpty, "invalid board after \(request): \(engine.board.validationProblems())")
    switch outcome {
    case .committed(let commit):
        check(engine.seq == 6, "seq \(engine.seq) after a commit")
        let encoded = try? WireFormat.encode(commit.event)
        let decoded = encoded.flatMap { try? JSONDecoder().decode(CommittedEvent.self, from: $0) }
        check(decoded == commit.event, "event \(commit.event) did not survive JSON")
        let message = ServerMessage.committed(commit.event)
        let written = try? WireFormat.encode(message)
        check(
            written.flatMap { try? WireFormat.decodeServerMessage($0) } == message,
            "\(message) written as \(written.map { String(decoding: $0, as: UTF8.self) } ?? "nothing") did not decode")
        var replica = Replica(board: fixture, seq: 5)
        do { try replica.apply(commit.event) } catch { check(false, "a replica could not apply \(commit.event): \(error)") }
        check(replica.board == engine.board, "replica and engine disagree after \(commit.event)")
    case .noop, .rejected, .repeated:
        check(engine.seq == 5 && engine.board == fixture, "the board changed without a commit")
    }
}
