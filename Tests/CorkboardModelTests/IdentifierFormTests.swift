import CorkboardModel
import Foundation
import Testing

/// Ids are compared as Swift strings on the server (dictionary keys, `Set`s, `==`), which
/// treat canonically equivalent strings as one, and as bytes by SQLite, PostgreSQL,
/// JavaScript and Python. The server takes ids in Unicode NFC only, so that the two agree:
/// of two byte-distinct spellings of one text, at most one is ever taken.
@Suite struct IdentifierFormTests {
    /// Texts with several canonically equivalent spellings, the NFC one first.
    static let spellings: [[String]] = [
        ["\u{E9}", "e\u{301}"],
        ["\u{C5}", "A\u{30A}", "\u{212B}"],
        ["\u{1E69}", "s\u{323}\u{307}", "\u{1E63}\u{307}", "s\u{307}\u{323}"],
        ["\u{D55C}", "\u{1112}\u{1161}\u{11AB}"],
        ["\u{3A9}", "\u{2126}"],
        ["\u{1EA1}\u{301}", "a\u{323}\u{301}", "a\u{301}\u{323}"],
        ["x\u{323}\u{301}", "x\u{301}\u{323}"],
    ]
    static let plain = ["a", "-", "7", "board", "é-", "x"].map { $0.precomposedStringWithCanonicalMapping }

    /// A random text of plain pieces and pieces with several spellings: each spelling choice
    /// gives a canonically equivalent, possibly byte-distinct, string; choice 0 everywhere is NFC.
    static func randomPair(_ random: inout SplitMix64) -> (String, String) {
        var first = "", second = ""
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            if Bool.random(using: &random) {
                let piece = plain.randomElement(using: &random)!
                first += piece
                second += piece
            } else {
                let forms = spellings.randomElement(using: &random)!
                first += forms.randomElement(using: &random)!
                second += forms.randomElement(using: &random)!
            }
        }
        return (first, second)
    }

    @Test func canonicallyEquivalentByteDistinctIdsAreNeverBothValid() {
        var random = SplitMix64(seed: 31)
        var distinctPairs = 0
        for _ in 0..<20_000 {
            let (first, second) = Self.randomPair(&random)
            // Swift takes them for one string whatever their bytes: the reason for the rule.
            #expect(first == second && first.hashValue == second.hashValue)
            guard !first.utf8.elementsEqual(second.utf8) else { continue }
            distinctPairs += 1
            #expect(!(Limits.isValidID(first) && Limits.isValidID(second)), "\(Array(first.unicodeScalars)) \(Array(second.unicodeScalars))")
            #expect(!(Limits.isValidID(first) && Limits.isValidID(second)))
            // The one that is taken, if any, is the NFC spelling.
            let nfc = first.precomposedStringWithCanonicalMapping
            for id in [first, second] where Limits.isValidID(id) {
                #expect(id.utf8.elementsEqual(nfc.utf8))
            }
        }
        #expect(distinctPairs > 10_000)
    }

    /// `Limits.isNFC` agrees with Foundation's normalisation on random scalars (combining
    /// marks, singletons, astral planes). Not on Hangul: Foundation on Linux leaves
    /// `"\u{AC38}\u{11B0}"` as it is and composes the archaic jamo `"\u{1113}\u{1163}"`,
    /// where Python, JavaScript and Swift's standard library do the opposite; Hangul is
    /// checked against the answers of Python's `unicodedata` instead.
    @Test func isNFCAgreesWithFoundation() {
        #expect(!Limits.isNFC("\u{AC38}\u{11B0}") && Limits.isNFC("\u{AC41}"))
        #expect(!Limits.isNFC("\u{1112}\u{1161}\u{11AB}") && Limits.isNFC("\u{D55C}") && Limits.isNFC("\u{AC38}3\u{11AB}"))
        #expect(Limits.isNFC("\u{1113}\u{1163}"))
        var random = SplitMix64(seed: 7)
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xC0...0x17F, 0x300...0x36F, 0x1E00...0x1EFF, 0x2126...0x212B, 0x1D15E...0x1D164]
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let range = ranges.randomElement(using: &random)!
                text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: range, using: &random))!)
            }
            let isNFC = text.precomposedStringWithCanonicalMapping.utf8.elementsEqual(text.utf8)
            #expect(Limits.isNFC(text) == isNFC, "\(Array(text.unicodeScalars))")
        }
    }

    /// In the engine: an item, a collection and an opId under their NFC spelling; any other
    /// spelling is refused `invalid`, never taken for the NFC one.
    @Test func theEngineRefusesOtherSpellingsOfItsIds() throws {
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        var engine = try makeEngine("todo: a b")
        #expect(engine.apply(insert("i-1", base: 0, [nfc], to: "todo"), client: "c1", role: .editor).event != nil)
        #expect(engine.apply(insert("i-2", base: 1, [nfd], to: "todo"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(move("m-1", base: 1, [nfd], to: "todo"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(move("m-2", base: 1, ["a"], to: "todo", before: nfd), client: "c1", role: .editor).rejectionCode == .invalid)
        // The opId of a commit, sent again in the other spelling: refused, not answered as the commit.
        let committed = try #require(engine.apply(move(nfc, base: 1, [nfc], to: "todo", before: "a"), client: "c1", role: .editor).event)
        #expect(committed.opId == nfc)
        let resent = engine.apply(move(nfd, base: 2, ["a"], to: "todo"), client: "c1", role: .editor)
        #expect(resent.rejectionCode == .invalid)
        #expect(engine.seq == 2)
        #expect(engine.layoutText == "todo: \(nfc) a b")
    }

    @Test func aBoardWithAnIdInAnotherFormIsRefused() throws {
        var board = try makeBoard("todo: a b")
        board.id = "cafe\u{301}"
        #expect(board.validationProblems().contains { $0.hasPrefix("id: board id must be 1…128 bytes of UTF-8 in Unicode NFC") })
        board.id = "caf\u{E9}"
        #expect(board.validationProblems().isEmpty)
    }
}
