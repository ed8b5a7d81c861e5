import CorkboardModel

/// One client's undo and redo stacks. `record` a step for each of its own changes; `undo`
/// and `redo` give the operations to send (the step already moved to the other stack), and
/// `failed` puts a step back when the server refused those operations for a passing reason,
/// so it can be tried again. The same history as the browser SDK's ``UndoHistory``.
public struct UndoHistory: Sendable {
    /// At most this many steps are kept to undo; the oldest go first.
    public var limit: Int
    private(set) var undoStack: [UndoStep] = []
    private(set) var redoStack: [UndoStep] = []

    public init(limit: Int = 100) {
        self.limit = limit
    }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    /// A new change of this client's: `operations` done on `board`. Clears what could be redone.
    public mutating func record(_ operations: [BoardOperation], on board: Board) {
        guard let step = UndoStep.undoing(operations, on: board) else { return }
        undoStack.append(step)
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        redoStack.removeAll()
    }

    /// What to send to undo the last step on `board` as it is now; nil when there is none.
    public mutating func undo(on board: Board) -> UndoAttempt? {
        take(from: \.undoStack, to: \.redoStack, on: board)
    }

    /// What to send to redo the last undone step on `board` as it is now; nil when there is none.
    public mutating func redo(on board: Board) -> UndoAttempt? {
        take(from: \.redoStack, to: \.undoStack, on: board)
    }

    /// The attempt's operations were refused for a passing reason: its step goes back to be
    /// tried again, and what it pushed to the other stack is taken off.
    public mutating func failed(_ attempt: UndoAttempt) {
        guard case .send(_, let step, let inverse, let wasUndo) = attempt else { return }
        if let inverse {
            if wasUndo, let at = redoStack.lastIndex(of: inverse) { redoStack.remove(at: at) }
            if !wasUndo, let at = undoStack.lastIndex(of: inverse) { undoStack.remove(at: at) }
        }
        if wasUndo { undoStack.append(step) } else { redoStack.append(step) }
    }

    private mutating func take(
        from source: WritableKeyPath<Self, [UndoStep]>, to target: WritableKeyPath<Self, [UndoStep]>, on board: Board
    ) -> UndoAttempt? {
        guard let step = self[keyPath: source].popLast() else { return nil }
        switch step.resolve(on: board) {
        case .failure(let refusal):
            // A step that cannot be carried out now is dropped: what it would restore is
            // gone, and keeping it would block the steps under it.
            return .refused(refusal)
        case .success(let operations):
            let inverse = UndoStep.undoing(operations, on: board)
            if let inverse { self[keyPath: target].append(inverse) }
            return .send(operations, step: step, inverse: inverse, wasUndo: source == \Self.undoStack)
        }
    }
}

/// What `UndoHistory.undo` or `redo` made of the step.
public enum UndoAttempt: Sendable, Hashable {
    /// It cannot be done on the board as it is now; nothing is sent.
    case refused(UndoRefusal)
    /// Send `operations`, in this order.
    case send([BoardOperation], step: UndoStep, inverse: UndoStep?, wasUndo: Bool)
}
