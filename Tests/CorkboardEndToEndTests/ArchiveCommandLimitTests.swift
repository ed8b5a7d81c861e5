import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `corkboard import` holds a board to every limit the server holds boards to: seqs within
/// 0…2^53 − 1, the item and collection counts (the same options and variables as `serve`,
/// with the same defaults), an item's data, labels and ids, JSON nesting. A refusal is one
/// line naming the board and what is wrong, exit status 1, and nothing imported. A board at
/// the last seq refuses operations (`rejected` `invalid`) while the server and its other
/// boards go on.
@Suite(.threadsOfTheirOwn) struct ArchiveCommandLimitTests {
    let folder: ArchiveFolder

    init() throws {
        folder = try ArchiveFolder()
    }

    private func board(_ id: String = "big", collections: Int = 1, items: Int = 1, item: (Int) -> Item = { Item(id: "i\($0)", label: "Item \($0)") }) -> Board {
        Board(
            id: id, title: "Big",
            collections: (0..<collections).map { index in
                BoardCollection(id: "c\(index)", title: "C\(index)", items: index == 0 ? (0..<items).map(item) : [])
            })
    }

    /// Writes `json` to a file and imports it; returns exit status, standard output and error.
    private func importText(_ json: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> (Int32?, String, String) {
        let file = try folder.data.write("archive-\(UUID().uuidString).json", json)
        return try folder.run(["import", "--data", folder.data.path] + arguments + [file], environment: environment)
    }

    private func importArchive(
        _ board: Board, seq: Int = 0, epoch: String? = nil, _ arguments: [String] = [],
        environment: [String: String] = [:]
    ) throws -> (Int32?, String, String) {
        try importText(
            String(decoding: try BoardArchive(board: board, seq: seq, epoch: epoch).encoded(), as: UTF8.self),
            arguments, environment: environment)
    }

    /// Refused in exactly one line on standard error, with status 1, and nothing imported.
    private func expectRefused(
        _ result: (Int32?, String, String), _ line: String, board: String = "big",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(result.0 == 1, "exit status", sourceLocation: sourceLocation)
        #expect(result.1 == "", sourceLocation: sourceLocation)
        #expect(result.2 == "corkboard: error: \(line)\n", sourceLocation: sourceLocation)
        let exported = try folder.run(["export", "--data", folder.data.path, "--board", board])
        #expect(exported.0 == 1 && exported.2.hasPrefix("corkboard: error: there is no "), "\(exported.2)", sourceLocation: sourceLocation)
    }

    // MARK: Seqs

    @Test(arguments: [Int.max, 1 << 53, 1 << 62])
    func aSeqPastTheLastIsRefused(seq: Int) throws {
        try expectRefused(
            try importArchive(board(), seq: seq),
            #"board "big" cannot be imported: seq \#(seq) is past the last seq a board reaches, 9007199254740991 (2^53 − 1)"#)
    }

    @Test(arguments: [
        ("18446744073709551616", "18446744073709551616 is past the last seq a board reaches, 9007199254740991 (2^53 − 1)"),
        ("-9223372036854775809", "-9223372036854775808 is past the last seq a board reaches, 9007199254740991 (2^53 − 1)"),
        ("2.5", "2.5 is not a whole number"),
        ("1e400", "not a whole number 0…9007199254740991"),
    ])
    func aSeqNoIntegerHoldsIsRefusedNamingTheBoard(seq: String, reason: String) throws {
        let file = try folder.data.write("seq.json", #"{"format":1,"seq":\#(seq),"board":{"id":"big","title":"Big","locked":false,"collections":[]}}"#)
        try expectRefused(
            try folder.run(["import", "--data", folder.data.path, file]),
            #"board "big" in \#(file) is not a board archive: wrong value at seq: \#(reason)"#)
    }

    @Test func aNegativeSeqIsRefused() throws {
        try expectRefused(try importArchive(board(), seq: -1), #"board "big" cannot be imported: seq must not be negative"#)
    }

    // MARK: The size limits, as `serve` reads them

    @Test func moreItemsThanTheServersDefaultAreRefused() throws {
        try expectRefused(
            try importArchive(board(items: 10_001)),
            #"board "big" cannot be imported: collections: a board holds at most 10000 items; this one has 10001"#)
    }

    @Test func moreCollectionsThanTheServersDefaultAreRefused() throws {
        try expectRefused(
            try importArchive(board(collections: 1_001)),
            #"board "big" cannot be imported: collections: a board holds at most 1000 collections; this one has 1001"#)
    }

    @Test func theLimitsComeFromTheSameOptionsAndVariablesAsServes() throws {
        try expectRefused(
            try importArchive(board(items: 4), ["--max-items-per-board", "3"]),
            #"board "big" cannot be imported: collections: a board holds at most 3 items; this one has 4"#)
        try expectRefused(
            try importArchive(board(collections: 3), environment: ["CORKBOARD_MAX_COLLECTIONS_PER_BOARD": "2"]),
            #"board "big" cannot be imported: collections: a board holds at most 2 collections; this one has 3"#)
        // 0 is "no limit", as for serve.
        let unlimited = try importArchive(board(items: 10_001), ["--max-items-per-board", "0"])
        #expect(unlimited.0 == 0, "\(unlimited.2)")
        #expect(unlimited.1 == "created board big at seq 0, epoch \(unlimited.1.split(separator: " ").last ?? "")")
        let bad = try importArchive(board(), environment: ["CORKBOARD_MAX_ITEMS_PER_BOARD": "many"])
        #expect(bad.0 != 0 && bad.2.contains("CORKBOARD_MAX_ITEMS_PER_BOARD='many' is not a whole number"), "\(bad.2)")
    }

    @Test func everyProblemOfABoardIsCountedOnTheOneLine() throws {
        let board = board(items: 5) { Item(id: "i\($0)", label: "x", data: ["t": .string(String(repeating: "x", count: 70_000))]) }
        try expectRefused(
            try importArchive(board),
            #"board "big" cannot be imported: collections[0].items[0].data: data of item i0 is longer than 65536 bytes; collections[0].items[1].data: data of item i1 is longer than 65536 bytes; collections[0].items[2].data: data of item i2 is longer than 65536 bytes (and 2 more)"#
        )
    }

    // MARK: What one item, one id or the text may hold

    @Test func dataPastItsBoundIsRefused() throws {
        let board = board { Item(id: "i\($0)", label: "x", data: ["t": .string(String(repeating: "x", count: Limits.maximumDataBytes))]) }
        try expectRefused(
            try importArchive(board), #"board "big" cannot be imported: collections[0].items[0].data: data of item i0 is longer than 65536 bytes"#)
    }

    @Test func aLabelPastItsBoundIsRefused() throws {
        let board = board { Item(id: "i\($0)", label: String(repeating: "l", count: Limits.maximumTextBytes + 1)) }
        try expectRefused(
            try importArchive(board), #"board "big" cannot be imported: collections[0].items[0].label: label of item i0 is longer than 16384 bytes"#)
    }

    @Test func anIdPastItsBoundIsRefusedOnOneLine() throws {
        let long = String(repeating: "x", count: 129)
        try expectRefused(
            try importArchive(board { _ in Item(id: long, label: "x") }),
            #"board "big" cannot be imported: collections[0].items[0].id: item id "\#(long)" must be 1…128 bytes of UTF-8 in Unicode NFC, without NUL"#)
        // An id with a line break stays on one line.
        try expectRefused(
            try importArchive(board { _ in Item(id: "a\nb", label: String(repeating: "l", count: 20_000)) }),
            #"board "big" cannot be imported: collections[0].items[0].label: label of item a\nb is longer than 16384 bytes"#)
        try expectRefused(
            try importArchive(board("bad\u{0}id")),
            #"board "bad\0id" cannot be imported: id: board id must be 1…128 bytes of UTF-8 in Unicode NFC, without NUL"#, board: "bad")
    }

    @Test func anEpochThatIsNoIdIsRefused() throws {
        try expectRefused(
            try importArchive(board(), epoch: String(repeating: "e", count: 129)),
            #"board "big" cannot be imported: epoch must be 1…128 bytes of UTF-8 in Unicode NFC, without NUL (leave it out for a fresh one)"#)
    }

    @Test func aTextNestedTooDeepIsRefused() throws {
        let deep = String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
        let text =
            #"{"format":1,"seq":0,"board":{"id":"big","title":"Big","locked":false,"collections":[{"id":"c","title":"C","items":[{"id":"i","label":"I","data":"#
            + deep + "}]}]}}"
        let result = try importText(text)
        #expect(result.0 == 1)
        let lines = result.2.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasSuffix(" is not a board archive: nested too deep (more than 512 levels)"), "\(result.2)")
    }

    // MARK: The last seq

    @Test func aBoardAtTheLastSeqRefusesOperationsWhileTheServerGoesOn() throws {
        let last = Board(
            id: "last", title: "Last",
            collections: [
                BoardCollection(id: "todo", title: "To do", items: [Item(id: "a", label: "A"), Item(id: "b", label: "B")]),
                BoardCollection(id: "done", title: "Done"),
            ])
        let imported = try importArchive(last, seq: Limits.maximumSeq, epoch: "0123456789abcdef")
        #expect(imported.0 == 0, "\(imported.2)")
        #expect(imported.1 == "created board last at seq 9007199254740991, epoch 0123456789abcdef\n")
        #expect(try importArchive(board("other", collections: 2, items: 3)).0 == 0)

        let (server, api) = try folder.serve()
        defer { folder.stop(server) }
        let port = api.port
        let member = try BoardTestClient(port: port, board: "last", name: "Ada")
        #expect(member.welcome.seq == Limits.maximumSeq && member.board == last)
        let refused = try member.reject(.move(sources: ["a"], destination: Destination(collection: "done")))
        #expect(refused.code == .invalid)
        #expect(refused.message == "the board is at its last seq (9007199254740991) and takes no more operations")
        let overHTTP = try api.perform("last", OperationRequest(opId: "h1", baseSeq: Limits.maximumSeq, .delete(items: ["b"])))
        #expect(overHTTP.status == 400)
        guard case .rejected(let rejected) = try overHTTP.message() else { throw HubTestFailure("expected rejected: \(overHTTP)") }
        #expect(rejected.code == .invalid && rejected.opId == "h1")

        // Another board keeps committing, and the refused one is as it was.
        let other = try BoardTestClient(port: port, board: "other", name: "Bob")
        #expect(try other.commit(.move(sources: ["i0"], destination: Destination(collection: "c1"))).seq == 1)
        #expect(try other.commit(.delete(items: ["i1"])).seq == 2)
        #expect(try member.reject(.delete(items: ["a"])).code == .invalid)
        let document = try api.document("last")
        #expect(document.board == last && document.seq == Limits.maximumSeq)
        #expect(server.process.isRunning)
    }

    @Test func replacingABoardAtTheLastSeqIsRefusedAndLeavesItAsItWas() throws {
        let last = board("last")
        #expect(try importArchive(last, seq: Limits.maximumSeq, epoch: "first-epoch").0 == 0)
        let again = try importArchive(last, seq: 0)
        #expect(again.0 == 1)
        #expect(
            again.2
                == "corkboard: error: board \"last\" cannot be imported: the board here is at seq 9007199254740991; a replacement needs a seq above 9007199254740991, past the last a board reaches (9007199254740991)\n"
        )
        let (status, exported, log) = try folder.run(["export", "--data", folder.data.path, "--board", "last"])
        #expect(status == 0, "\(log)")
        let archive = try BoardArchive.decode(Data(exported.utf8))
        #expect(archive == BoardArchive(board: last, seq: Limits.maximumSeq, epoch: "first-epoch"))
    }
}
