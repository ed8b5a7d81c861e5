import Foundation

/// Whole-store archives (`corkboard export --all`): JSON Lines, one board archive per line,
/// each compact JSON with sorted keys, in board id order. A file of one board, as `export
/// --board` writes it, is one pretty-printed archive; `import` reads either.
extension BoardArchive {
    /// One line of a whole-store archive, its newline included.
    public func encodedLine() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// The archives of a file: JSON Lines when it has several lines and its first is a whole
    /// JSON value by itself (an archive written on one line), else the whole file as one
    /// archive. Blank lines are skipped. An error names the line (from 1) of a JSON Lines file.
    public static func decodeAll(_ data: Data) throws(ArchiveDecodingError) -> [BoardArchive] {
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let filled = lines.filter { !$0.allSatisfy(isWhitespace) }
        // One line: one archive, whichever way it is written (its errors name no line).
        guard filled.count > 1, let firstLine = filled.first, (try? JSONSerialization.jsonObject(with: Data(firstLine))) != nil else {
            return [try decode(data)]
        }
        var archives: [BoardArchive] = []
        for (index, line) in lines.enumerated() where !line.allSatisfy(isWhitespace) {
            do {
                archives.append(try decode(Data(line)))
            } catch {
                throw ArchiveDecodingError(board: error.board, description: "line \(index + 1): \(error.description)")
            }
        }
        return archives
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }
}
