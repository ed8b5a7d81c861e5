import CorkboardModel
import Foundation

/// One board as `corkboard export` writes it and `corkboard import` reads it: the board at
/// a seq, its epoch, a format number, and (format 2, `--history`) the kept log that leads to
/// it. Plain JSON a person can read and edit. Format 1 carries no history (an import starts the
/// board's log afresh); format 2 may carry `history`, the snapshot the store keeps and the
/// events after it, so that an import keeps the board's seqs and its log
/// (docs/storage.md#export-and-import).
public struct BoardArchive: Sendable, Hashable, Codable {
    /// The highest format this code reads. A file with a higher number was written by a newer
    /// corkboard and is refused rather than half understood. An archive is written with the
    /// lowest format that holds it (`format(carryingHistory:)`), so that an export without
    /// history is still read by a corkboard that knows only format 1.
    public static let currentFormat = 2

    /// The format an archive is written in: 2 with history, 1 without.
    public static func format(carryingHistory: Bool) -> Int { carryingHistory ? 2 : 1 }

    public var format: Int
    /// The board (with its id) as it stands at `seq`.
    public var board: Board
    public var seq: Int
    /// The board's epoch at export. Optional so that a hand-written archive may leave it
    /// out: importing such a file as a new board gives it a fresh epoch.
    public var epoch: String?
    /// The kept log (format 2): nil when the archive carries none.
    public var history: ArchivedHistory?

    public init(board: Board, seq: Int, epoch: String?, history: ArchivedHistory? = nil, format: Int? = nil) {
        self.format = format ?? Self.format(carryingHistory: history != nil)
        self.board = board
        self.seq = seq
        self.epoch = epoch
        self.history = history
    }

    private enum CodingKeys: String, CodingKey { case format, board, seq, epoch, history }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        board = try container.decode(Board.self, forKey: .board)
        seq = try Self.decodeSeq(container)
        epoch = try container.decodeIfPresent(String.self, forKey: .epoch)
        history = try container.decodeIfPresent(ArchivedHistory.self, forKey: .history)
    }

    /// `seq` as an Int; a number no Int holds (2^64, 2.5, 1e400) is named in the error, which
    /// Foundation would only call "not valid JSON".
    private static func decodeSeq(_ container: KeyedDecodingContainer<CodingKeys>) throws -> Int {
        if let seq = try? container.decode(Int.self, forKey: .seq) { return seq }
        let reason: String
        if let number = try? container.decode(Double.self, forKey: .seq) {
            reason =
                number.rounded() == number
                ? "\(String(format: "%.0f", number)) is past the last seq a board reaches, \(Limits.maximumSeq) (2^53 − 1)"
                : "\(number) is not a whole number"
        } else {
            // Missing: the decoder's own "the field is missing".
            if !container.contains(.seq) { _ = try container.decode(Int.self, forKey: .seq) }
            reason = "not a whole number 0…\(Limits.maximumSeq)"
        }
        throw DecodingError.dataCorruptedError(forKey: .seq, in: container, debugDescription: reason)
    }

    /// Why this archive cannot be imported, if anything: an unknown format, a seq outside
    /// 0…`Limits.maximumSeq`, an epoch that is empty or not id-like, a board that breaks the
    /// model's rules (docs/protocol.md#1-the-model), or one past the server's size limits.
    /// Everything a board can get into through the protocol passes; nothing else does.
    public func validationProblems(limits: BoardSizeLimits) -> [String] {
        var problems: [String] = []
        if format < 1 || format > Self.currentFormat {
            problems.append("archive format \(format) is not supported (this corkboard reads 1…\(Self.currentFormat))")
        }
        if seq < 0 { problems.append("seq must not be negative") }
        if seq > Limits.maximumSeq {
            problems.append("seq \(seq) is past the last seq a board reaches, \(Limits.maximumSeq) (2^53 − 1)")
        }
        if let epoch, !Limits.isValidID(epoch) {
            problems.append("epoch must be \(Limits.idRule) (leave it out for a fresh one)")
        }
        problems += board.validationProblems()
        problems += limits.problems(of: board)
        if let history {
            if format < 2 { problems.append("history needs archive format 2 (this file says \(format))") }
            problems += history.problems(leadingTo: board, at: seq, limits: limits)
        }
        return problems
    }

    /// Pretty-printed JSON with sorted keys, so two exports of the same board are the same
    /// bytes and a diff between two exports is readable.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
