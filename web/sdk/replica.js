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
/** @typedef {{ id: string, label: string, data?: ItemData }} Item */
/** @typedef {{ id: string, title: string, items: Item[] }} Collection */
/**
 * A board as `welcome` carries it (an HTTP snapshot adds `seq` and `epoch`, which the
 * session keeps apart).
 * @typedef {{ id: string, title: string, locked: boolean, collections: Collection[] }} Board
 */
/**
 * Where items land: before `before` in `collection` (`null` or absent: the end).
 * @typedef {{ collection: string, before?: string | null }} Destination
 */
/** @typedef {{ type: "move", sources: string[], destination: Destination }} MoveOperation */
/** @typedef {{ type: "insert", items: Item[], destination: Destination }} InsertOperation */
/** @typedef {{ type: "delete", items: string[] }} DeleteOperation */
/**
 * An update names an item (its `label` and/or `data`; `data: null` removes it) or a
 * collection with a `title`, never both.
 * @typedef {{ type: "update", item: string, label?: string, data?: ItemData | null }} ItemUpdateOperation
 * @typedef {{ type: "update", item?: undefined, collection: string, title: string }} CollectionUpdateOperation
 */
/** @typedef {{ type: "collection.add", collection: { id: string, title: string }, before?: string | null }} CollectionAddOperation */
/** @typedef {{ type: "collection.remove", collection: string }} CollectionRemoveOperation */
/** @typedef {{ type: "lock", locked: boolean }} LockOperation */
/**
 * An operation without `opId` and `baseSeq`: what `committed` carries as `op`, and what
 * the page asks the session to send.
 * @typedef {MoveOperation | InsertOperation | DeleteOperation | ItemUpdateOperation | CollectionUpdateOperation
 *   | CollectionAddOperation | CollectionRemoveOperation | LockOperation} Operation
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
  return {
    id: board.id,
    title: board.title,
    locked: board.locked,
    collections: board.collections.map((c) => ({ id: c.id, title: c.title, items: c.items.map((i) => ({ ...i })) })),
  };
}

/**
 * @param {Board} board
 * @param {string} itemId
 * @returns {ItemPlace | null}
 */
export function findItem(board, itemId) {
  for (const collection of board.collections) {
    const index = collection.items.findIndex((i) => i.id === itemId);
    if (index >= 0) return { collection, index, item: collection.items[index] };
  }
  return null;
}

/**
 * @param {Board} board
 * @param {string} collectionId
 * @returns {Collection | null}
 */
export function findCollection(board, collectionId) {
  return board.collections.find((c) => c.id === collectionId) ?? null;
}

/**
 * The item ids of a board in reading order: column by column, top to bottom.
 * @param {Board} board
 * @returns {string[]}
 */
export function orderedItemIds(board) {
  return board.collections.flatMap((c) => c.items.map((i) => i.id));
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
      const moved = takeItems(next, op.sources);
      if (moved.length !== op.sources.length) throw new Error(`move: a source is not on the board`);
      insertItems(next, moved, op.destination);
      break;
    }
    case "insert":
      for (const item of op.items) if (findItem(next, item.id)) throw new Error(`insert: ${item.id} exists`);
      insertItems(next, op.items.map((i) => ({ ...i })), op.destination);
      break;
    case "delete":
      // The server commits a delete with the items still there (docs/protocol.md#5-resolution):
      // one naming an absent item means this replica is out of step.
      if (takeItems(next, op.items).length !== op.items.length) throw new Error(`delete: an item is not on the board`);
      break;
    case "update":
      if (op.item !== undefined) {
        const found = findItem(next, op.item);
        if (!found) throw new Error(`update: no item ${op.item}`);
        if (op.label !== undefined) found.item.label = op.label;
        if (op.data === null) delete found.item.data;
        else if (op.data !== undefined) found.item.data = op.data;
      } else {
        const collection = findCollection(next, op.collection);
        if (!collection) throw new Error(`update: no collection ${op.collection}`);
        collection.title = op.title;
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
      if (at < 0 || next.collections[at].items.length > 0) throw new Error(`collection.remove: ${op.collection}`);
      next.collections.splice(at, 1);
      break;
    }
    case "lock":
      next.locked = op.locked;
      break;
    default:
      // Unreachable for the types above; a newer server could still send another.
      throw new Error(`unknown operation ${/** @type {{ type: string }} */ (op).type}`);
  }
  return next;
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
    if (!found) continue;
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
