import CorkboardModel
import Foundation

/// One board as `corkboard export` writes it and `corkboard import` reads it: the board at
/// a seq, its epoch, and a format number. Plain JSON a person can read and edit; history is
/// not included (an import starts the board's log afresh).
public struct BoardArchive: Sendable, Hashable, Codable {
    /// The format this code writes. A file with a higher number was written by a newer
    /// corkboard and is refused rather than half understood.
    public static let currentFormat = 1

    public var format: Int
    /// The board (with its id) as it stands at `seq`.
    public var board: Board
    public var seq: Int
    /// The board's epoch at export. Optional so that a hand-written archive may leave it
    /// out: importing such a file as a new board gives it a fresh epoch.
    public var epoch: String?

    public init(board: Board, seq: Int, epoch: String?, format: Int = BoardArchive.currentFormat) {
        self.format = format
        self.board = board
        self.seq = seq
        self.epoch = epoch
    }

    /// Why this archive cannot be imported, if anything: an unknown format, a negative
    /// seq, an empty epoch, or a board that breaks the model's rules (spec §1).
    public func validationProblems() -> [String] {
        var problems: [String] = []
        if format < 1 || format > Self.currentFormat {
            problems.append("archive format \(format) is not supported (this corkboard reads 1…\(Self.currentFormat))")
        }
        if seq < 0 { problems.append("seq must not be negative") }
        if let epoch, epoch.isEmpty { problems.append("epoch must not be empty (leave it out for a fresh one)") }
        problems += board.validationProblems()
        return problems
    }

    /// Pretty-printed JSON with sorted keys, so two exports of the same board are the same
    /// bytes and a diff between two exports is readable.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    public static func decode(_ data: Data) throws -> BoardArchive {
        try JSONDecoder().decode(BoardArchive.self, from: data)
    }
}
