import Foundation

/// One row of `corkboard boards list`: a board's id, title, seq and number of items (across
/// its collections). Encoded as `{"id","title","seq","items"}`.
public struct ListedBoard: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var seq: Int
    public var items: Int

    public init(id: String, title: String, seq: Int, items: Int) {
        self.id = id
        self.title = title
        self.seq = seq
        self.items = items
    }

    /// `boards list` without --json: a header, then a row per board, columns padded to their
    /// widest cell and two spaces apart (the last unpadded); an id's or title's control
    /// characters written escaped, so each board stays one line.
    public static func table(_ rows: [ListedBoard]) -> String {
        let cells =
            [["ID", "TITLE", "SEQ", "ITEMS"]]
            + rows.map { [$0.id.escapingControlCharacters, $0.title.escapingControlCharacters, String($0.seq), String($0.items)] }
        let widths = (0..<4).map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { row in
            row.enumerated().map { column, cell in
                column == 3 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// `boards list --json`: one object, `{"boards":[{"id","items","seq","title"}]}`, keys
    /// sorted, `/` unescaped.
    public static func json(_ rows: [ListedBoard]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and integers only: encoding cannot fail.
        return String(decoding: (try? encoder.encode(["boards": rows])) ?? Data(), as: UTF8.self)
    }
}

extension String {
    /// Line breaks and other control characters written escaped (`\n`), so that text from a
    /// board (an id, a title) or a server's message cannot break a line of output in two.
    public var escapingControlCharacters: String {
        unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }.joined()
    }
}
