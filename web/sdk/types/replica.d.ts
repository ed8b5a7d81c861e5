/**
 * An item's optional `data`: any JSON object.
 * @typedef {{ [key: string]: unknown }} ItemData
 */
/**
 * An item; with `folder` it is a folder, whose items are `board.folders[id]`
 * (docs/model.md "Folders").
 * @typedef {{ id: string, label: string, data?: ItemData, folder?: { accepts: boolean } }} Item
 */
/**
 * A list of items: a column, or (with `folder: true` and an empty title) a folder's
 * contents as `findCollection` hands it out, named by the folder's id.
 * @typedef {{ id: string, title: string, items: Item[], folder?: boolean }} Collection
 */
/**
 * A board as `welcome` carries it (an HTTP snapshot adds `seq` and `epoch`, which the
 * session keeps apart). `folders` is absent when the board has none.
 * @typedef {{ id: string, title: string, locked: boolean, collections: Collection[],
 *   folders?: { [folderId: string]: Item[] } }} Board
 */
/**
 * Where items land: before `before` in `collection` (`null` or absent: the end).
 * @typedef {{ collection: string, before?: string | null }} Destination
 */
/** @typedef {{ type: "move", sources: string[], destination: Destination }} MoveOperation */
/** @typedef {{ type: "insert", items: Item[], destination: Destination }} InsertOperation */
/** @typedef {{ type: "delete", items: string[] }} DeleteOperation */
/**
 * An update names an item (its `label` and/or `data`; `data: null` removes it; or alone a
 * folder's `accepts`) or a collection with a `title`, never both; with neither, its `title`
 * is the board's.
 * @typedef {{ type: "update", item: string, label?: string, data?: ItemData | null, accepts?: boolean }} ItemUpdateOperation
 * @typedef {{ type: "update", item?: undefined, collection: string, title: string }} CollectionUpdateOperation
 * @typedef {{ type: "update", item?: undefined, collection?: undefined, title: string }} BoardUpdateOperation
 */
/** @typedef {{ type: "collection.add", collection: { id: string, title: string }, before?: string | null }} CollectionAddOperation */
/**
 * Removes a column: an empty one, or with `withItems` one with everything in it (its folders'
 * contents too).
 * @typedef {{ type: "collection.remove", collection: string, withItems?: boolean }} CollectionRemoveOperation
 */
/**
 * Moves columns (in this order, contiguously) before the column `before` (`null` or absent:
 * the end); a committed one names only columns that exist and a `before` that is not moved.
 * @typedef {{ type: "collection.move", collections: string[], before?: string | null }} CollectionMoveOperation
 */
/** @typedef {{ type: "lock", locked: boolean }} LockOperation */
/**
 * An operation without `opId` and `baseSeq`: what `committed` carries as `op`, and what
 * the page asks the session to send.
 * @typedef {MoveOperation | InsertOperation | DeleteOperation | ItemUpdateOperation | CollectionUpdateOperation
 *   | BoardUpdateOperation | CollectionAddOperation | CollectionRemoveOperation | CollectionMoveOperation
 *   | LockOperation} Operation
 */
/**
 * Where an item is: its collection, its index there, and the item itself.
 * @typedef {{ collection: Collection, index: number, item: Item }} ItemPlace
 */
/**
 * A deep copy of a board (boards are small; copying keeps every version immutable).
 * @param {Board} board
 * @returns {Board}
 */
export function cloneBoard(board: Board): Board;
/**
 * Every list of the board: the columns, then the folders' contents.
 * @param {Board} board
 * @returns {Collection[]}
 */
export function allLists(board: Board): Collection[];
/**
 * @param {Board} board
 * @param {string} itemId
 * @returns {ItemPlace | null}
 */
export function findItem(board: Board, itemId: string): ItemPlace | null;
/**
 * The list a destination names: a column, or a folder's contents.
 * @param {Board} board
 * @param {string} collectionId
 * @returns {Collection | null}
 */
export function findCollection(board: Board, collectionId: string): Collection | null;
/**
 * The folders around a list, innermost first: none for a column; for a folder's contents
 * the folder and every folder that holds it.
 * @param {Board} board
 * @param {string} listId
 * @returns {string[]}
 */
export function enclosingFolders(board: Board, listId: string): string[];
/**
 * The item ids of a board in reading order: column by column, top to bottom, each
 * folder's items right after it.
 * @param {Board} board
 * @returns {string[]}
 */
export function orderedItemIds(board: Board): string[];
/**
 * Applies a resolved operation (as a `committed` event carries it) to a copy of `board`.
 * Throws when it does not apply (the caller's replica is out of step).
 * @param {Board} board
 * @param {Operation} op
 * @returns {Board}
 */
export function applyOperation(board: Board, op: Operation): Board;
/**
 * What the server will most likely make of a move we ask for (rules 3–5 of
 * docs/protocol.md#5-resolution on the state we have), so a drop shows at once. The
 * server's `committed` op replaces it.
 * Returns the resolved op, or null when nothing would move.
 * @param {Board} board
 * @param {string[]} sources
 * @param {Destination} destination
 * @returns {MoveOperation | null}
 */
export function resolveMoveLocally(board: Board, sources: string[], destination: Destination): MoveOperation | null;
/**
 * What the server will most likely make of a collection move we ask for (its rules 3–5 over
 * the columns, on the state we have). Returns the resolved op, or null when no named column
 * exists. A `before` that is no column here goes to the end (the server may do better from
 * the board at `baseSeq`; its `committed` op replaces this).
 * @param {Board} board
 * @param {string[]} collections
 * @param {string | null | undefined} before
 * @returns {CollectionMoveOperation | null}
 */
export function resolveColumnMoveLocally(board: Board, collections: string[], before: string | null | undefined): CollectionMoveOperation | null;
/**
 * The id at `index` of a collection's list with `excluded` items left out (null: the end).
 * @param {Board} board
 * @param {string} collectionId
 * @param {number} index
 * @param {Set<string>} excluded
 * @returns {string | null}
 */
export function anchorAt(board: Board, collectionId: string, index: number, excluded: Set<string>): string | null;
/**
 * An item's optional `data`: any JSON object.
 */
export type ItemData = {
    [key: string]: unknown;
};
/**
 * An item; with `folder` it is a folder, whose items are `board.folders[id]`
 * (docs/model.md "Folders").
 */
export type Item = {
    id: string;
    label: string;
    data?: ItemData;
    folder?: {
        accepts: boolean;
    };
};
/**
 * A list of items: a column, or (with `folder: true` and an empty title) a folder's
 * contents as `findCollection` hands it out, named by the folder's id.
 */
export type Collection = {
    id: string;
    title: string;
    items: Item[];
    folder?: boolean;
};
/**
 * A board as `welcome` carries it (an HTTP snapshot adds `seq` and `epoch`, which the
 * session keeps apart). `folders` is absent when the board has none.
 */
export type Board = {
    id: string;
    title: string;
    locked: boolean;
    collections: Collection[];
    folders?: {
        [folderId: string]: Item[];
    } | undefined;
};
/**
 * Where items land: before `before` in `collection` (`null` or absent: the end).
 */
export type Destination = {
    collection: string;
    before?: string | null;
};
export type MoveOperation = {
    type: "move";
    sources: string[];
    destination: Destination;
};
export type InsertOperation = {
    type: "insert";
    items: Item[];
    destination: Destination;
};
export type DeleteOperation = {
    type: "delete";
    items: string[];
};
/**
 * An update names an item (its `label` and/or `data`; `data: null` removes it; or alone a
 * folder's `accepts`) or a collection with a `title`, never both; with neither, its `title`
 * is the board's.
 */
export type ItemUpdateOperation = {
    type: "update";
    item: string;
    label?: string;
    data?: ItemData | null;
    accepts?: boolean;
};
/**
 * An update names an item (its `label` and/or `data`; `data: null` removes it; or alone a
 * folder's `accepts`) or a collection with a `title`, never both; with neither, its `title`
 * is the board's.
 */
export type CollectionUpdateOperation = {
    type: "update";
    item?: undefined;
    collection: string;
    title: string;
};
/**
 * An update names an item (its `label` and/or `data`; `data: null` removes it; or alone a
 * folder's `accepts`) or a collection with a `title`, never both; with neither, its `title`
 * is the board's.
 */
export type BoardUpdateOperation = {
    type: "update";
    item?: undefined;
    collection?: undefined;
    title: string;
};
export type CollectionAddOperation = {
    type: "collection.add";
    collection: {
        id: string;
        title: string;
    };
    before?: string | null;
};
/**
 * Removes a column: an empty one, or with `withItems` one with everything in it (its folders'
 * contents too).
 */
export type CollectionRemoveOperation = {
    type: "collection.remove";
    collection: string;
    withItems?: boolean;
};
/**
 * Moves columns (in this order, contiguously) before the column `before` (`null` or absent:
 * the end); a committed one names only columns that exist and a `before` that is not moved.
 */
export type CollectionMoveOperation = {
    type: "collection.move";
    collections: string[];
    before?: string | null;
};
export type LockOperation = {
    type: "lock";
    locked: boolean;
};
/**
 * An operation without `opId` and `baseSeq`: what `committed` carries as `op`, and what
 * the page asks the session to send.
 */
export type Operation = MoveOperation | InsertOperation | DeleteOperation | ItemUpdateOperation | CollectionUpdateOperation | BoardUpdateOperation | CollectionAddOperation | CollectionRemoveOperation | CollectionMoveOperation | LockOperation;
/**
 * Where an item is: its collection, its index there, and the item itself.
 */
export type ItemPlace = {
    collection: Collection;
    index: number;
    item: Item;
};
