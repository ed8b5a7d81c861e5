/// Identifiers and the size limits the resolver enforces.
///
/// Ids are plain strings on the wire (docs/protocol.md#1-the-model); the aliases only
/// document intent. Every id the server takes is in Unicode Normalization Form C, so that
/// Swift's `==` and hashing, which treat canonically equivalent strings as equal
/// (`"caf\u{e9}"` and `"cafe\u{301}"`), agree with the bytes SQLite, PostgreSQL, JavaScript
/// and Python compare: two NFC strings are canonically equivalent only when their bytes are
/// the same.
public typealias ItemID = String
public typealias CollectionID = String
public typealias ClientID = String
public typealias OperationID = String

/// Limits checked when an operation is validated (a violation is rejected `invalid`).
public enum Limits {
    /// Ids are non-empty strings of at most 128 bytes of UTF-8 in NFC, without NUL
    /// (docs/protocol.md#1-the-model).
    public static let maximumIDBytes = 128
    /// How an id that `isValidID` refuses is described in messages.
    public static let idRule = "1…128 bytes of UTF-8 in Unicode NFC, without NUL"
    /// Labels and titles are free text; the bound keeps one field from filling a 1 MiB message.
    public static let maximumTextBytes = 16_384
    /// An item's `data`, measured as its JSON encoding (about: escapes are not counted). The
    /// bound keeps 10,000 items from making a board of gigabytes through 1 MiB messages.
    public static let maximumDataBytes = 65_536
    /// Levels of arrays and objects a JSON text may nest (the server's parser, Foundation's
    /// `JSONDecoder`, an archive): past it a text is refused as nested too deep.
    public static let maximumJSONDepth = 512
    /// Levels an item's `data` may nest, the object itself counting as one: a `welcome`, a
    /// page of events and an archive hold it six levels down, so every text that carries it
    /// stays within `maximumJSONDepth` and every client can read it back.
    public static let maximumDataDepth = maximumJSONDepth - 6
    /// The last seq a board reaches: 2^53 − 1, the largest integer every JSON reader holds
    /// exactly (a double, a JavaScript number). Seqs travel as JSON numbers, so a board
    /// beyond it could not be named by a `baseSeq` or a resume; at it, operations are
    /// refused rather than committed, and a stored or imported board beyond it is refused.
    public static let maximumSeq = 9_007_199_254_740_991

    /// True for a non-empty id of at most 128 UTF-8 bytes in Unicode NFC, without NUL. An id
    /// in another form is refused rather than normalised: a client that sent it would
    /// otherwise hold a spelling the server never uses, and could not find its own item again
    /// by bytes. NUL is refused because stores key boards by id in C strings and SQL, where
    /// `"demo\0x"` would be cut to `"demo"` (giving one board a second sequencer), and
    /// PostgreSQL's `text` cannot hold it at all (see `textProblem`).
    public static func isValidID(_ id: String) -> Bool {
        isWellFormedID(id) && !id.utf8.contains(0) && isNFC(id)
    }

    /// True for a non-empty id of at most 128 UTF-8 bytes, in whatever Unicode form: what a
    /// board stored before ids had to be NFC (before 0.24) may hold, and must still load.
    public static func isWellFormedID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maximumIDBytes
    }

    /// True when `text` is in Unicode Normalization Form C. ASCII, what ids nearly always
    /// are, is NFC without looking further.
    public static func isNFC(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return true }
        var span = text.utf8Span
        return span.checkForNFC(quickCheck: false)
    }

    /// Why a label or title is refused (to follow its name in a message); nil when it fits.
    /// Labels and titles may be empty (a blank card is legitimate) but not unbounded.
    public static func textProblem(_ text: String) -> String? {
        problem(of: text, within: maximumTextBytes)
    }

    /// Why free text is refused: more than `bytes` bytes of UTF-8, or a NUL. NUL is refused
    /// in every string the server keeps (ids, texts, names, strings in `data`): PostgreSQL's
    /// `text` and `jsonb` cannot hold U+0000, so an operation carrying one would fail in the
    /// store every time it was tried, and fail the operations of other members batched with it.
    static func problem(of text: String, within bytes: Int) -> String? {
        if text.utf8.count > bytes { return "is longer than \(bytes) bytes" }
        if text.utf8.contains(0) { return "holds a NUL character" }
        return nil
    }

    /// True when `data` encodes to at most `maximumDataBytes` (stops counting past it).
    public static func isValidData(_ data: JSONObject) -> Bool {
        var budget = maximumDataBytes
        return JSONValue.object(data).fits(in: &budget)
    }

    /// Why `item`'s data is refused (it is past `maximumDataBytes` or nests deeper than
    /// `maximumDataDepth`); nil when it has none or it fits.
    public static func dataProblem(_ data: JSONObject?, of item: ItemID) -> String? {
        guard let data else { return nil }
        if !isValidData(data) { return "data of item \(item) is longer than \(maximumDataBytes) bytes" }
        if !JSONValue.object(data).nests(within: maximumDataDepth) {
            return "data of item \(item) nests deeper than \(maximumDataDepth) levels"
        }
        if JSONValue.object(data).holdsNUL { return "data of item \(item) holds a NUL character" }
        return nil
    }
}
