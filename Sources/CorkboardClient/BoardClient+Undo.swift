import CorkboardModel

/// Undo and redo of this client's own changes (docs/protocol.md#undo-and-redo): each committed
/// operation the client performed is one step; undoing it sends new operations resolved
/// against the replica as it is now (a moved card goes back before the neighbour it had, a
/// deleted one comes back with its id, label and data), or is refused when what it needs is
/// gone. Others' changes are never undone.
extension BoardClient {
    public var canUndo: Bool { undoHistory.withLock { $0.canUndo } }
    public var canRedo: Bool { undoHistory.withLock { $0.canRedo } }

    /// Undoes this client's last step still to undo.
    public func undo() async -> UndoResult {
        await carryOut { history, board in history.undo(on: board) }
    }

    /// Redoes the last step undone (a new change clears them).
    public func redo() async -> UndoResult {
        await carryOut { history, board in history.redo(on: board) }
    }

    /// Records a committed change of this client's as a step; `board` is the replica's board
    /// just before it was sent.
    func recordForUndo(_ result: OperationResult, on board: Board?) {
        guard case .committed(let event) = result, let board else { return }
        undoHistory.withLock { $0.record([event.op], on: board) }
    }

    private func carryOut(_ take: (inout UndoHistory, Board) -> UndoAttempt?) async -> UndoResult {
        guard let board else { return .nothingToDo }
        let attempt = undoHistory.withLock { take(&$0, board) }
        switch attempt {
        case nil:
            return .nothingToDo
        case .refused(let refusal):
            return .refused(refusal)
        case .send(let operations, _, _, _)?:
            var results: [OperationResult] = []
            // In order, each after the last's answer: a restored collection must exist before
            // its items go back into it.
            for operation in operations {
                let result = await send(Self.requested(operation))
                results.append(result)
                if case .rejected(let code, _) = result {
                    if Self.passingRejections.contains(code), let attempt { undoHistory.withLock { $0.failed(attempt) } }
                    break
                }
            }
            return .sent(results)
        }
    }

    /// Refusals after which the same undo can work later: someone holds the card, the board
    /// is locked, too many changes at once, the store could not save.
    private static let passingRejections: Set<RejectionCode> = [.busy, .locked, .rateLimited, .unavailable]

    private static func requested(_ operation: BoardOperation) -> RequestedOperation {
        switch operation {
        case .move(let sources, let destination): .move(sources: sources, destination: destination)
        case .insert(let items, let destination): .insert(items: items, destination: destination)
        case .delete(let items): .delete(items: items)
        case .updateItem(let item, let label, let data): .updateItem(item: item, label: label, data: data)
        case .updateFolder(let item, let accepts): .updateFolder(item: item, accepts: accepts)
        case .renameCollection(let collection, let title): .renameCollection(collection: collection, title: title)
        case .addCollection(let collection, let title, let before): .addCollection(collection: collection, title: title, before: before)
        case .removeCollection(let collection): .removeCollection(collection: collection)
        case .removeCollectionAndItems(let collection): .removeCollectionAndItems(collection: collection)
        case .moveCollections(let collections, let before): .moveCollections(collections: collections, before: before)
        case .lock(let locked): .lock(locked: locked)
        case .renameBoard(let title): .renameBoard(title: title)
        }
    }
}

/// What `BoardClient.undo()` or `redo()` did.
public enum UndoResult: Sendable, Hashable {
    /// There was no step to undo (or redo), or the client has no board yet.
    case nothingToDo
    /// The step cannot be done on the board as it is now; nothing was sent.
    case refused(UndoRefusal)
    /// The operations sent and their answers, in order (it stops at the first rejection).
    case sent([OperationResult])

    /// True when every operation sent committed (or changed nothing).
    public var succeeded: Bool {
        guard case .sent(let results) = self else { return false }
        return results.allSatisfy {
            switch $0 {
            case .committed, .noop: true
            case .rejected, .unanswered: false
            }
        }
    }
}
