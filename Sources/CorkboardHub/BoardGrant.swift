import CorkboardModel

/// One entry of a token's board list (docs/security.md#access-control): `sprint` grants the
/// board `sprint`; `team-*` every board whose id begins with `team-`; `wip\*` the one board
/// `wip*` (a backslash before the final `*` makes it part of the id). Compared as bytes, as
/// SQLite, PostgreSQL and JavaScript compare ids, never by Swift's Unicode equivalence.
public enum BoardGrant: Sendable, Hashable {
    case board(String)
    case prefix(String)

    public init(entry: String) {
        let bytes = Array(entry.utf8)
        let star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\")
        if bytes.last == star, bytes.dropLast().last == backslash {
            self = .board(String(decoding: bytes.dropLast(2) + [star], as: UTF8.self))
        } else if bytes.last == star {
            self = .prefix(String(decoding: bytes.dropLast(), as: UTF8.self))
        } else {
            self = .board(entry)
        }
    }

    public func covers(_ board: String) -> Bool {
        switch self {
        case .board(let id): board.utf8.elementsEqual(id.utf8)
        case .prefix(let prefix): board.utf8.starts(with: prefix.utf8)
        }
    }

    /// Why `entry` cannot be a grant, if it cannot: `*` alone (every board is written
    /// `"boards": "*"`, never implied by a list), an id that no board can have (`Limits.isValidID`:
    /// one not in Unicode NFC would be granted under a spelling the server refuses), or an
    /// empty prefix.
    public static func problem(with entry: String) -> String? {
        if entry == "*" { return #"a lone "*" in a list is refused: write "boards": "*" for every board"# }
        switch BoardGrant(entry: entry) {
        case .board(let id) where !Limits.isValidID(id):
            return "\(Self.shown(entry)) is not a board id (\(Limits.idRule))"
        case .prefix(let prefix) where prefix.utf8.contains(0) || !Limits.isNFC(prefix) || prefix.utf8.count >= Limits.maximumIDBytes:
            return "the pattern \(Self.shown(entry)) must begin with 1…127 bytes of UTF-8 in Unicode NFC, without NUL"
        default:
            return nil
        }
    }

    /// `entry` quoted with every scalar past ASCII escaped: `"cafe\u{301}"` and `"caf\u{E9}"`
    /// print alike, and the person fixing the file must see which one it holds.
    private static func shown(_ entry: String) -> String {
        let scalars = entry.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }
        return "\"" + scalars.joined() + "\""
    }
}
