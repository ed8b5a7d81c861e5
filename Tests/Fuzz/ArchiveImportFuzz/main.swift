// libFuzzer target: what `corkboard import` does with a file before it writes anything
// (CorkboardStore's `BoardArchive.decode` and `validationProblems(limits:)`), then what the
// server does with a board it loads (`BoardEngine` built at the archive's seq) and an
// operation on it.
//
// Input: one choice byte (bit 0: small limits, 3 items and 2 collections; otherwise the
// server's defaults, 10,000 and 1,000), then the file's bytes.
//
// Invariants:
// - decoding and validating never trap, whatever the bytes (numbers past Int, nesting past
//   512 levels, invalid UTF-8, huge counts);
// - an accepted archive satisfies every limit, checked here independently: format 1, seq in
//   0…`Limits.maximumSeq`, an id-like epoch, valid ids and texts without duplicates, item and
//   collection counts within the limits, every item's data within its size and depth, the
//   text nested at most 512 levels;
// - it round-trips: encoded as `corkboard export` writes it, it decodes to itself;
// - the engine builds from it, and operations on it never trap: a commit takes seq + 1 (never
//   past the last seq), at the last seq every operation is rejected `invalid`, and nothing
//   but a commit changes the board or its seq.
import CorkboardModel
import CorkboardStore
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let limits =
        input.takeChoice() & 1 == 1
        ? BoardSizeLimits(maximumItems: 3, maximumCollections: 2)
        : BoardSizeLimits(maximumItems: 10_000, maximumCollections: 1_000)
    let text = Data(input.bytes)
    guard let archive = try? BoardArchive.decode(text), archive.validationProblems(limits: limits).isEmpty else { return 0 }

    checkWithinLimits(archive, limits, text)
    do {
        let again = try BoardArchive.decode(try archive.encoded())
        check(again == archive, "the archive does not survive export: \(again) != \(archive)")
    } catch {
        check(false, "an accepted archive does not survive export: \(error)")
    }
    applyOperations(to: archive, limits)
    return 0
}

/// Every limit the server holds a board to, counted here rather than asked of the validator.
func checkWithinLimits(_ archive: BoardArchive, _ limits: BoardSizeLimits, _ text: Data) {
    let board = archive.board
    check(archive.format == 1, "format \(archive.format) accepted")
    check(archive.seq >= 0 && archive.seq <= Limits.maximumSeq, "seq \(archive.seq) accepted")
    if let epoch = archive.epoch {
        check(!epoch.isEmpty && epoch.utf8.count <= Limits.maximumIDBytes && !epoch.utf8.contains(0), "epoch \(epoch.debugDescription) accepted")
    }
    check(!board.id.isEmpty && board.id.utf8.count <= Limits.maximumIDBytes && !board.id.utf8.contains(0), "board id \(board.id.debugDescription) accepted")
    check(board.title.utf8.count <= Limits.maximumTextBytes, "a board title of \(board.title.utf8.count) bytes accepted")
    let items = board.collections.flatMap(\.items)
    check(items.count <= limits.maximumItems ?? .max, "\(items.count) items accepted under \(limits)")
    check(board.collections.count <= limits.maximumCollections ?? .max, "\(board.collections.count) collections accepted under \(limits)")
    check(Set(board.collections.map(\.id)).count == board.collections.count, "a collection id twice accepted")
    check(Set(items.map(\.id)).count == items.count, "an item id twice accepted")
    for collection in board.collections {
        check(!collection.id.isEmpty && collection.id.utf8.count <= Limits.maximumIDBytes, "collection id \(collection.id.debugDescription) accepted")
        check(collection.title.utf8.count <= Limits.maximumTextBytes, "a title of \(collection.title.utf8.count) bytes accepted")
    }
    for item in items {
        check(!item.id.isEmpty && item.id.utf8.count <= Limits.maximumIDBytes, "item id \(item.id.debugDescription) accepted")
        check(item.label.utf8.count <= Limits.maximumTextBytes, "a label of \(item.label.utf8.count) bytes accepted")
        if let data = item.data {
            check(Limits.isValidData(data), "data of item \(item.id) past \(Limits.maximumDataBytes) bytes accepted")
            check(depth(of: .object(data)) <= Limits.maximumDataDepth, "data of item \(item.id) nesting \(depth(of: .object(data))) levels accepted")
        }
    }
    check(bracketDepth(text) <= Limits.maximumJSONDepth, "a text nested \(bracketDepth(text)) levels accepted")
}

/// Levels of arrays and objects in a value (the value itself counting as one).
func depth(of value: JSONValue) -> Int {
    switch value {
    case .null, .bool, .number, .string: 0
    case .array(let values): 1 + (values.map(depth).max() ?? 0)
    case .object(let members): 1 + (members.values.map(depth).max() ?? 0)
    }
}

/// The deepest nesting of brackets outside strings in a JSON text.
func bracketDepth(_ text: Data) -> Int {
    var (level, deepest, inString, escaped) = (0, 0, false, false)
    for byte in text {
        if inString {
            if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
        } else if byte == 0x22 {
            inString = true
        } else if byte == 0x5B || byte == 0x7B {
            level += 1
            deepest = max(deepest, level)
        } else if byte == 0x5D || byte == 0x7D {
            level -= 1
        }
    }
    return deepest
}

/// Builds the engine the server would, and applies a lock toggle, a collection, an insert and
/// a move of the first item: a commit is the next seq, never past the last; at the last seq
/// everything is rejected `invalid`; anything else changes nothing.
func applyOperations(to archive: BoardArchive, _ limits: BoardSizeLimits) {
    var engine: BoardEngine
    do {
        engine = try BoardEngine(board: archive.board, seq: archive.seq, historyCapacity: 8)
    } catch {
        check(false, "an accepted archive does not build an engine: \(error)")
        return
    }
    engine.maximumItems = limits.maximumItems
    engine.maximumCollections = limits.maximumCollections
    var requests = [
        OperationRequest(opId: "f-lock", .lock(locked: !archive.board.locked)),
        OperationRequest(opId: "f-add", .addCollection(collection: "fuzz-collection", title: "F", before: nil)),
    ]
    if let first = archive.board.collections.first {
        requests.append(
            OperationRequest(
                opId: "f-insert", baseSeq: archive.seq,
                .insert(
                    items: [Item(id: "fuzz-item", label: "F")], destination: Destination(collection: first.id))))
    }
    if let item = archive.board.collections.first(where: { !$0.items.isEmpty })?.items.first, let last = archive.board.collections.last {
        requests.append(OperationRequest(opId: "f-move", baseSeq: archive.seq, .move(sources: [item.id], destination: Destination(collection: last.id))))
    }
    for request in requests {
        let (seq, board) = (engine.seq, engine.board)
        let outcome = engine.apply(request, client: "c1", role: .owner)
        if case .committed(let commit) = outcome {
            check(seq < Limits.maximumSeq, "\(request.opId) committed on a board at the last seq")
            check(commit.event.seq == seq + 1 && engine.seq == seq + 1, "\(request.opId) committed at \(commit.event.seq) on \(seq)")
            check(engine.board.validationProblems().isEmpty, "invalid board after \(request.opId): \(engine.board.validationProblems())")
        } else {
            if seq == Limits.maximumSeq { check(outcome.isInvalid, "\(request.opId) at the last seq: \(outcome)") }
            check(engine.seq == seq && engine.board == board, "\(outcome) changed the board")
        }
    }
}

extension Outcome {
    var isInvalid: Bool {
        if case .rejected(let rejection) = self { return rejection.code == .invalid }
        return false
    }
}
