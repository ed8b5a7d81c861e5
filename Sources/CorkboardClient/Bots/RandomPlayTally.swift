import Foundation

/// What a ``RandomPlayer`` did, by outcome, and the summary line `corkboard bot random` ends with.
public struct RandomPlayTally: Sendable, Equatable {
    /// Actions taken; each is one operation, a drag's drop included.
    public var actions = 0
    /// Of the actions, the drags (drag.start, drag.over…, then the drop as a move).
    public var drags = 0
    /// Of the drags, those of a column (drag.start of a column, drag.over among the columns, then `collection.move`).
    public var columnDrags = 0
    public var committed = 0
    /// Of the committed, those the server adjusted (docs/protocol.md#5-resolution).
    public var adjusted = 0
    public var noops = 0
    /// Rejections by code (busy, locked, …): part of the game, not failures.
    public var rejections: [String: Int] = [:]
    public var unanswered = 0

    public init() {}

    /// Counts one action's outcome.
    mutating func count(_ result: OperationResult) {
        switch result {
        case .committed(let event):
            committed += 1
            if event.adjusted { adjusted += 1 }
        case .noop: noops += 1
        case .rejected(let code, _): rejections[code.rawValue, default: 0] += 1
        case .unanswered: unanswered += 1
        }
    }

    public func summary(seconds: Double, reconnects: Int) -> String {
        let rejected = rejections.values.reduce(0, +)
        let codes = rejections.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let dragged = columnDrags == 0 ? "\(drags) drags" : "\(drags) drags, \(columnDrags) of columns"
        return "random: \(actions) actions (\(dragged)) in \(String(format: "%.1f", seconds)) s: "
            + "\(committed) committed (\(adjusted) adjusted), \(noops) noop, \(rejected) rejected"
            + (codes.isEmpty ? "" : " (\(codes))") + ", \(unanswered) unanswered, \(reconnects) reconnects"
    }
}
