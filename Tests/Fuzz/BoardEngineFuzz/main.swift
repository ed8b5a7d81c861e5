// libFuzzer target: operation resolution (CorkboardModel's BoardEngine: resolver, indexed
// board, history, outcome memory) fed with decoded client messages, several in a row.
//
// Input: client messages, one JSON text per line. `hello` switches the sending client (its
// `name` picks one of three clients and a role: names starting "v" are viewers, "o" owners,
// others editors); `drag.start`/`drag.end` take and drop leases; operations go to the engine.
//
// Invariants after every message:
// - the board stays valid (unique ids, limits);
// - a commit advances seq by one, the board as of the previous seq is the board before, and
//   a client replica applying the event holds the same board;
// - anything else (noop, rejected, repeated) changes neither the board nor seq;
// - at the end, the kept events are exactly the commits, and reverting them all gives back
//   the starting board.
import CorkboardModel
import CorkboardWire
import Foundation

let fixture = Board(
    id: "fuzz", title: "Fuzz",
    collections: [
        BoardCollection(
            id: "todo", title: "To do",
            items: [
                Item(id: "i1", label: "One"), Item(id: "i2", label: "Two", data: ["n": .number(2)]), Item(id: "i4", label: "Four"),
            ]),
        BoardCollection(id: "done", title: "Done", items: [Item(id: "i3", label: "Three")]),
        BoardCollection(id: "empty", title: "Empty"),
    ])
let startSeq = 5

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard var engine = try? BoardEngine(board: fixture, seq: startSeq, historyCapacity: 64) else { fatalError("fixture") }
    var replica = Replica(board: fixture, seq: startSeq)
    var leases = LeaseTable()
    var client: ClientID = "c1"
    var role = Role.editor
    var commits: [CommittedEvent] = []

    for line in input.bytes.split(separator: UInt8(ascii: "\n")).prefix(64) {
        guard case .message(let message) = WireFormat.decodeClientMessage(Data(line)) else { continue }
        switch message {
        case .hello(let hello):
            client = "c\(hello.name.utf8.count % 3 + 1)"
            role = hello.name.hasPrefix("v") ? .viewer : hello.name.hasPrefix("o") ? .owner : .editor
        case .dragStart(let items):
            _ = leases.acquire(items, for: client)
        case .dragOver:
            break
        case .dragEnd:
            leases.releaseAll(heldBy: client)
        case .operation(let request):
            let before = engine.board, seq = engine.seq
            let outcome = engine.apply(request, client: client, role: role, leases: leases)
            check(engine.board.validationProblems().isEmpty, "invalid board after \(request): \(engine.board.validationProblems())")
            if case .committed(let commit) = outcome {
                check(engine.seq == seq + 1, "seq \(engine.seq) after a commit on \(seq)")
                check(engine.board(asOf: seq) == before, "the board as of \(seq) is not the board before \(commit.event)")
                do { try replica.apply(commit.event) } catch { check(false, "a replica could not apply \(commit.event): \(error)") }
                check(replica.board == engine.board, "replica and engine disagree after \(commit.event)")
                commits.append(commit.event)
            } else {
                check(engine.seq == seq && engine.board == before, "\(outcome) changed the board")
            }
        }
    }

    check(engine.events(after: startSeq) == commits, "the kept events are not the commits")
    do {
        let undone = try engine.revert(after: startSeq)
        check(undone == commits, "revert undid other events than the commits")
    } catch {
        check(false, "revert failed: \(error)")
    }
    check(engine.board == fixture && engine.seq == startSeq, "reverting every commit did not restore the board")
    return 0
}
