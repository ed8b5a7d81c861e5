/**
 * The board and operations as the wire carries them (docs/protocol.md#1-the-model,
 * #4-operations), only as much of them as undo reads.
 * @typedef {{ [key: string]: unknown }} UndoData
 * @typedef {{ id: string, label: string, data?: UndoData, folder?: { accepts: boolean } }} UndoItem
 * @typedef {{ id: string, title: string, items: UndoItem[] }} UndoCollection
 * @typedef {{ collections: UndoCollection[], folders?: { [folderId: string]: UndoItem[] } }} UndoBoard
 * @typedef {{ collection: string, before?: string | null }} UndoDestination
 * @typedef {{ type: "move", sources: string[], destination: UndoDestination }
 *   | { type: "insert", items: UndoItem[], destination: UndoDestination }
 *   | { type: "delete", items: string[] }
 *   | { type: "update", item: string, label?: string, data?: UndoData | null, accepts?: boolean }
 *   | { type: "update", item?: undefined, collection: string, title: string }
 *   | { type: "update", item?: undefined, collection?: undefined, title: string }
 *   | { type: "collection.add", collection: { id: string, title: string }, before?: string | null }
 *   | { type: "collection.remove", collection: string, withItems?: boolean }
 *   | { type: "collection.move", collections: string[], before?: string | null }
 *   | { type: "lock", locked: boolean }} UndoOperation
 */
/**
 * Where something was, so that it can be put back: its list, the neighbour that followed it
 * and the one before it (leaving out what moved with it), and its index among the rest.
 * @typedef {{ collection: string, next: string | null, previous: string | null, index: number }} Place
 * @typedef {{ next: string | null, previous: string | null, index: number }} ColumnPlace
 */
/**
 * What undoes a step (and, once used, what redoes it): a recipe, resolved against the board
 * when asked.
 * @typedef {{ kind: "place", items: (Place & { id: string })[] }
 *   | { kind: "remove", items: string[] }
 *   | { kind: "restore", items: (Place & { item: UndoItem, contents?: { [folderId: string]: UndoItem[] } })[] }
 *   | { kind: "edit", item: string, label?: string, data?: UndoData | null }
 *   | { kind: "retitle", collection: string, title: string }
 *   | { kind: "drop-column", collection: string, items: string[] }
 *   | { kind: "restore-column", column: { id: string, title: string }, place: ColumnPlace, items: UndoItem[],
 *       contents?: { [folderId: string]: UndoItem[] } }
 *   | { kind: "place-columns", columns: (ColumnPlace & { id: string })[] }} UndoStep
 */
/**
 * Why a step cannot be undone (or redone) on the board as it is now: `gone` (its card or
 * column no longer exists), `exists` (what it would bring back is already there),
 * `not-empty` (others added cards to the column it would remove).
 * @typedef {{ code: "gone" | "exists" | "not-empty", message: string }} UndoRefusal
 * @typedef {{ ops: UndoOperation[] } | { refused: UndoRefusal }} UndoResolution
 */
/**
 * The step that undoes `ops` (one gesture's operations), done on `board` (the board just
 * before them). Null when there is nothing to undo (a lock, or items that were not there).
 * @param {UndoBoard} board
 * @param {UndoOperation[]} ops
 * @returns {UndoStep | null}
 */
export function stepFor(board: UndoBoard, ops: UndoOperation[]): UndoStep | null;
/**
 * The operations that carry `step` out on `board` as it is now, or why it cannot be.
 * @param {UndoStep} step
 * @param {UndoBoard} board
 * @returns {UndoResolution}
 */
export function resolveStep(step: UndoStep, board: UndoBoard): UndoResolution;
/**
 * The where-it-was rule (docs/protocol.md#undo-and-redo): before the neighbour that followed it,
 * if that one is still in the list; else right after the one before it, if that one is;
 * else at the index it had (counted without what is being put back), or the end when the
 * list is shorter now. `ids` is the list now without what is being put back.
 * @param {string[]} ids
 * @param {{ next: string | null, previous: string | null, index: number }} place
 * @returns {string | null}
 */
export function anchorFor(ids: string[], place: {
    next: string | null;
    previous: string | null;
    index: number;
}): string | null;
/**
 * One person's undo and redo stacks. `record` a step for each gesture; `undo`/`redo` give
 * the operations to send (already moved to the other stack), and `failed` puts a step
 * back when the server refused those operations for a passing reason (someone holds the
 * card, the board is locked, too many changes at once), so it can be tried again.
 */
export class UndoHistory {
    /** @param {{ limit?: number }} [options] at most `limit` steps are kept to undo */
    constructor(options?: {
        limit?: number | undefined;
    } | undefined);
    limit: number;
    /** @type {UndoStep[]} */
    undoStack: UndoStep[];
    /** @type {UndoStep[]} */
    redoStack: UndoStep[];
    get canUndo(): boolean;
    get canRedo(): boolean;
    /**
     * A new gesture of this person's: `ops` done on `board`. Clears what could be redone.
     * @param {UndoBoard} board
     * @param {UndoOperation[]} ops
     * @returns {UndoStep | null}
     */
    record(board: UndoBoard, ops: UndoOperation[]): UndoStep | null;
    /**
     * A step whose operation the server refused (it changed nothing) is no step to undo.
     * @param {UndoStep} step
     */
    forget(step: UndoStep): void;
    /**
     * @param {UndoBoard} board the board as it is now
     * @returns {Attempt | null} null when there is nothing to undo
     */
    undo(board: UndoBoard): Attempt | null;
    /**
     * @param {UndoBoard} board the board as it is now
     * @returns {Attempt | null} null when there is nothing to redo
     */
    redo(board: UndoBoard): Attempt | null;
    /**
     * The operations of an attempt were refused for a passing reason: the step goes back to
     * be tried again, and what the attempt pushed to the other stack is taken off.
     * @param {Attempt} attempt
     */
    failed(attempt: Attempt): void;
    /**
     * @param {UndoStep[]} from
     * @param {UndoStep[]} to
     * @param {UndoBoard} board
     * @returns {Attempt | null}
     */
    take(from: UndoStep[], to: UndoStep[], board: UndoBoard): Attempt | null;
}
/**
 * The board and operations as the wire carries them (docs/protocol.md#1-the-model,
 * #4-operations), only as much of them as undo reads.
 */
export type UndoData = {
    [key: string]: unknown;
};
/**
 * The board and operations as the wire carries them (docs/protocol.md#1-the-model,
 * #4-operations), only as much of them as undo reads.
 */
export type UndoItem = {
    id: string;
    label: string;
    data?: UndoData;
    folder?: {
        accepts: boolean;
    };
};
/**
 * The board and operations as the wire carries them (docs/protocol.md#1-the-model,
 * #4-operations), only as much of them as undo reads.
 */
export type UndoCollection = {
    id: string;
    title: string;
    items: UndoItem[];
};
/**
 * The board and operations as the wire carries them (docs/protocol.md#1-the-model,
 * #4-operations), only as much of them as undo reads.
 */
export type UndoBoard = {
    collections: UndoCollection[];
    folders?: {
        [folderId: string]: UndoItem[];
    } | undefined;
};
/**
 * The board and operations as the wire carries them (docs/protocol.md#1-the-model,
 * #4-operations), only as much of them as undo reads.
 */
export type UndoDestination = {
    collection: string;
    before?: string | null;
};
/**
 * The board and operations as the wire carries them (docs/protocol.md#1-the-model,
 * #4-operations), only as much of them as undo reads.
 */
export type UndoOperation = {
    type: "move";
    sources: string[];
    destination: UndoDestination;
} | {
    type: "insert";
    items: UndoItem[];
    destination: UndoDestination;
} | {
    type: "delete";
    items: string[];
} | {
    type: "update";
    item: string;
    label?: string;
    data?: UndoData | null;
    accepts?: boolean;
} | {
    type: "update";
    item?: undefined;
    collection: string;
    title: string;
} | {
    type: "update";
    item?: undefined;
    collection?: undefined;
    title: string;
} | {
    type: "collection.add";
    collection: {
        id: string;
        title: string;
    };
    before?: string | null;
} | {
    type: "collection.remove";
    collection: string;
    withItems?: boolean;
} | {
    type: "collection.move";
    collections: string[];
    before?: string | null;
} | {
    type: "lock";
    locked: boolean;
};
/**
 * Where something was, so that it can be put back: its list, the neighbour that followed it
 * and the one before it (leaving out what moved with it), and its index among the rest.
 */
export type Place = {
    collection: string;
    next: string | null;
    previous: string | null;
    index: number;
};
/**
 * Where something was, so that it can be put back: its list, the neighbour that followed it
 * and the one before it (leaving out what moved with it), and its index among the rest.
 */
export type ColumnPlace = {
    next: string | null;
    previous: string | null;
    index: number;
};
/**
 * What undoes a step (and, once used, what redoes it): a recipe, resolved against the board
 * when asked.
 */
export type UndoStep = {
    kind: "place";
    items: (Place & {
        id: string;
    })[];
} | {
    kind: "remove";
    items: string[];
} | {
    kind: "restore";
    items: (Place & {
        item: UndoItem;
        contents?: {
            [folderId: string]: UndoItem[];
        } | undefined;
    })[];
} | {
    kind: "edit";
    item: string;
    label?: string | undefined;
    data?: UndoData | null | undefined;
} | {
    kind: "retitle";
    collection: string;
    title: string;
} | {
    kind: "drop-column";
    collection: string;
    items: string[];
} | {
    kind: "restore-column";
    column: {
        id: string;
        title: string;
    };
    place: ColumnPlace;
    items: UndoItem[];
    contents?: {
        [folderId: string]: UndoItem[];
    } | undefined;
} | {
    kind: "place-columns";
    columns: (ColumnPlace & {
        id: string;
    })[];
};
/**
 * Why a step cannot be undone (or redone) on the board as it is now: `gone` (its card or
 * column no longer exists), `exists` (what it would bring back is already there),
 * `not-empty` (others added cards to the column it would remove).
 */
export type UndoRefusal = {
    code: "gone" | "exists" | "not-empty";
    message: string;
};
/**
 * Why a step cannot be undone (or redone) on the board as it is now: `gone` (its card or
 * column no longer exists), `exists` (what it would bring back is already there),
 * `not-empty` (others added cards to the column it would remove).
 */
export type UndoResolution = {
    ops: UndoOperation[];
} | {
    refused: UndoRefusal;
};
export type Attempt = {
    refused: UndoRefusal;
    step: UndoStep;
} | {
    ops: UndoOperation[];
    step: UndoStep;
    inverse: UndoStep | null;
    from: UndoStep[];
    to: UndoStep[];
};
/**
 * @param {UndoRefusal["code"]} code
 * @param {string} message
 * @returns {{ refused: UndoRefusal }}
 */
declare function refused(code: UndoRefusal["code"], message: string): {
    refused: UndoRefusal;
};
export {};
