// @ts-check
// The board as data, and the operations of the protocol applied to it
// (docs/protocol.md#4-operations), exactly as the server applies a resolved `op`. Pure
// functions on plain objects: no DOM, no I/O.
//
// The typedefs below are the board and the operations as the wire carries them
// (docs/protocol.md#1-the-model, #4-operations); the other modules import them.

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
export function cloneBoard(board) {
  /** @type {Board} */
  const copy = {
    id: board.id,
    title: board.title,
    locked: board.locked,
    collections: board.collections.map((c) => ({ id: c.id, title: c.title, items: c.items.map((i) => ({ ...i })) })),
  };
  if (board.folders) {
    copy.folders = Object.fromEntries(Object.entries(board.folders).map(([id, items]) => [id, items.map((i) => ({ ...i }))]));
  }
  return copy;
}

/**
 * Every list of the board: the columns, then the folders' contents.
 * @param {Board} board
 * @returns {Collection[]}
 */
export function allLists(board) {
  return [...board.collections, ...Object.keys(board.folders ?? {}).map((id) => /** @type {Collection} */ (folderList(board, id)))];
}

/**
 * A folder's contents as a list (its `items` is the board's own array), or null.
 * @param {Board} board
 * @param {string} folderId
 * @returns {Collection | null}
 */
function folderList(board, folderId) {
  const items = board.folders && Object.hasOwn(board.folders, folderId) ? board.folders[folderId] : null;
  return items ? { id: folderId, title: "", items, folder: true } : null;
}

/**
 * @param {Board} board
 * @param {string} itemId
 * @returns {ItemPlace | null}
 */
export function findItem(board, itemId) {
  for (const collection of allLists(board)) {
    const index = collection.items.findIndex((i) => i.id === itemId);
    if (index >= 0) return { collection, index, item: collection.items[index] };
  }
  return null;
}

/**
 * The list a destination names: a column, or a folder's contents.
 * @param {Board} board
 * @param {string} collectionId
 * @returns {Collection | null}
 */
export function findCollection(board, collectionId) {
  return board.collections.find((c) => c.id === collectionId) ?? folderList(board, collectionId);
}

/**
 * The folders around a list, innermost first: none for a column; for a folder's contents
 * the folder and every folder that holds it.
 * @param {Board} board
 * @param {string} listId
 * @returns {string[]}
 */
export function enclosingFolders(board, listId) {
  /** @type {string[]} */
  const chain = [];
  let current = folderList(board, listId);
  while (current && !chain.includes(current.id)) {
    chain.push(current.id);
    const outer = findItem(board, current.id)?.collection;
    current = outer?.folder ? outer : null;
  }
  return chain;
}

/**
 * The item ids of a board in reading order: column by column, top to bottom, each
 * folder's items right after it.
 * @param {Board} board
 * @returns {string[]}
 */
export function orderedItemIds(board) {
  /** @type {string[]} */
  const ids = [];
  /** @param {Item[]} items @param {number} depth */
  const add = (items, depth) => {
    for (const item of items) {
      ids.push(item.id);
      if (item.folder && depth < 16) add(board.folders?.[item.id] ?? [], depth + 1);
    }
  };
  for (const collection of board.collections) add(collection.items, 1);
  return ids;
}

/**
 * Applies a resolved operation (as a `committed` event carries it) to a copy of `board`.
 * Throws when it does not apply (the caller's replica is out of step).
 * @param {Board} board
 * @param {Operation} op
 * @returns {Board}
 */
export function applyOperation(board, op) {
  const next = cloneBoard(board);
  switch (op.type) {
    case "move": {
      const inside = enclosingFolders(next, op.destination.collection).find((id) => op.sources.includes(id));
      if (inside) throw new Error(`move: folder ${inside} would be inside itself`);
      const moved = takeItems(next, op.sources);
      if (moved.length !== op.sources.length) throw new Error(`move: a source is not on the board`);
      insertItems(next, moved, op.destination);
      break;
    }
    case "insert":
      for (const item of op.items) if (findItem(next, item.id)) throw new Error(`insert: ${item.id} exists`);
      for (const item of op.items) if (item.folder && findCollection(next, item.id)) throw new Error(`insert: ${item.id} names a list`);
      insertItems(next, op.items.map((i) => ({ ...i })), op.destination);
      // A folder is inserted empty.
      for (const item of op.items) if (item.folder) next.folders = { ...next.folders, [item.id]: [] };
      break;
    case "delete": {
      // The server commits a delete with the items still there (docs/protocol.md#5-resolution):
      // one naming an absent item means this replica is out of step.
      if (!op.items.every((id) => findItem(next, id))) throw new Error(`delete: an item is not on the board`);
      // What is inside a folder goes with it.
      for (const item of takeItems(next, op.items)) removeFolders(next, item);
      break;
    }
    case "update":
      if (op.item !== undefined) {
        const found = findItem(next, op.item);
        if (!found) throw new Error(`update: no item ${op.item}`);
        if (op.accepts !== undefined) {
          if (!found.item.folder) throw new Error(`update: ${op.item} is not a folder`);
          found.item.folder = { accepts: op.accepts };
        }
        if (op.label !== undefined) found.item.label = op.label;
        if (op.data === null) delete found.item.data;
        else if (op.data !== undefined) found.item.data = op.data;
      } else if (op.collection !== undefined) {
        const collection = findCollection(next, op.collection);
        if (!collection) throw new Error(`update: no collection ${op.collection}`);
        collection.title = op.title;
      } else {
        next.title = op.title;
      }
      break;
    case "collection.add": {
      if (findCollection(next, op.collection.id)) throw new Error(`collection.add: ${op.collection.id} exists`);
      const at = op.before == null ? -1 : next.collections.findIndex((c) => c.id === op.before);
      /** @type {Collection} */
      const collection = { id: op.collection.id, title: op.collection.title, items: [] };
      if (at < 0) next.collections.push(collection);
      else next.collections.splice(at, 0, collection);
      break;
    }
    case "collection.remove": {
      const at = next.collections.findIndex((c) => c.id === op.collection);
      if (at < 0 || (next.collections[at].items.length > 0 && op.withItems !== true)) throw new Error(`collection.remove: ${op.collection}`);
      // With its items: they go as a delete takes them, folders with what they hold.
      for (const item of next.collections[at].items) removeFolders(next, item);
      next.collections.splice(at, 1);
      break;
    }
    case "collection.move": {
      const ids = next.collections.map((c) => c.id);
      const sources = op.collections.map((id) => ids.indexOf(id));
      const before = op.before ?? null;
      if (sources.length === 0 || sources.some((at) => at < 0) || new Set(op.collections).size !== sources.length) {
        throw new Error(`collection.move: ${op.collections.join(", ")}`);
      }
      if (before !== null && (!ids.includes(before) || op.collections.includes(before))) throw new Error(`collection.move: before ${before}`);
      const moving = sources.map((at) => next.collections[at]);
      next.collections = next.collections.filter((c) => !op.collections.includes(c.id));
      const at = before === null ? next.collections.length : next.collections.findIndex((c) => c.id === before);
      next.collections.splice(at, 0, ...moving);
      break;
    }
    case "lock":
      next.locked = op.locked;
      break;
    default:
      // Unreachable for the types above; a newer server could still send another.
      throw new Error(`unknown operation ${/** @type {{ type: string }} */ (op).type}`);
  }
  // As on the wire: no `folders` on a board without folders.
  if (next.folders && Object.keys(next.folders).length === 0) delete next.folders;
  return next;
}

/**
 * Removes the contents of a deleted folder (and of the folders inside it) from the board.
 * @param {Board} board
 * @param {Item} item
 */
function removeFolders(board, item) {
  if (!item.folder || !board.folders) return;
  const inside = board.folders[item.id] ?? [];
  delete board.folders[item.id];
  for (const child of inside) removeFolders(board, child);
}

/**
 * Removes the items (those present) from wherever they are; returns them in the order asked.
 * @param {Board} board
 * @param {string[]} ids
 * @returns {Item[]}
 */
function takeItems(board, ids) {
  /** @type {Item[]} */
  const taken = [];
  for (const id of ids) {
    const found = findItem(board, id);
    if (!found) continue; // absent, or inside a folder taken before it
    found.collection.items.splice(found.index, 1);
    taken.push(found.item);
  }
  return taken;
}

/**
 * @param {Board} board
 * @param {Item[]} items
 * @param {Destination} destination
 */
function insertItems(board, items, destination) {
  const collection = findCollection(board, destination.collection);
  if (!collection) throw new Error(`no collection ${destination.collection}`);
  const at = destination.before == null ? -1 : collection.items.findIndex((i) => i.id === destination.before);
  if (destination.before != null && at < 0) throw new Error(`anchor ${destination.before} is not in ${destination.collection}`);
  if (at < 0) collection.items.push(...items);
  else collection.items.splice(at, 0, ...items);
}

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
export function resolveMoveLocally(board, sources, destination) {
  const present = [...new Set(sources)].filter((id) => findItem(board, id));
  const target = findCollection(board, destination.collection);
  if (present.length === 0 || !target) return null;
  let before = destination.before ?? null;
  if (before !== null) {
    const index = target.items.findIndex((i) => i.id === before);
    if (index < 0) before = null;
    else if (present.includes(before)) {
      before = target.items.slice(index + 1).find((i) => !present.includes(i.id))?.id ?? null;
    }
  }
  return { type: "move", sources: present, destination: { collection: destination.collection, before } };
}

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
export function resolveColumnMoveLocally(board, collections, before) {
  const ids = board.collections.map((c) => c.id);
  const present = [...new Set(collections)].filter((id) => ids.includes(id));
  if (present.length === 0) return null;
  let anchor = before ?? null;
  if (anchor !== null) {
    const index = ids.indexOf(anchor);
    if (index < 0) anchor = null;
    else if (present.includes(anchor)) anchor = ids.slice(index + 1).find((id) => !present.includes(id)) ?? null;
  }
  return { type: "collection.move", collections: present, before: anchor };
}

/**
 * The id at `index` of a collection's list with `excluded` items left out (null: the end).
 * @param {Board} board
 * @param {string} collectionId
 * @param {number} index
 * @param {Set<string>} excluded
 * @returns {string | null}
 */
export function anchorAt(board, collectionId, index, excluded) {
  const collection = findCollection(board, collectionId);
  if (!collection) return null;
  const rest = collection.items.filter((i) => !excluded.has(i.id));
  return rest[index]?.id ?? null;
}
