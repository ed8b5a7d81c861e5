// @ts-check
// Per-person undo and redo (docs/protocol.md#undo-and-redo). A step is what one gesture did (a
// drag, an insert, a delete, an edit, a column change); undoing it sends NEW operations,
// worked out against the board as it is now, never a replay of old ones: others have
// changed the board since. Pure functions on plain objects and a small history; the same
// rules as the Swift client's `UndoStep` (Sources/CorkboardClient/Undo), checked by both
// against Tests/Fixtures/undo/*.json.

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
export function stepFor(board, ops) {
  if (ops.length === 0) return null;
  // A column removed (with the delete of its cards before it, when a redo removes one that
  // has cards) comes back with what it held.
  const removed = ops.find((op) => op.type === "collection.remove");
  if (removed?.type === "collection.remove") {
    const index = board.collections.findIndex((c) => c.id === removed.collection);
    if (index < 0) return null;
    const column = board.collections[index];
    const rest = board.collections.filter((c) => c.id !== column.id);
    /** @type {UndoStep} */
    const step = {
      kind: "restore-column",
      column: { id: column.id, title: column.title },
      place: placeAmong(board.collections.map((c) => c.id), index, new Set([column.id]), rest.map((c) => c.id)),
      items: column.items.map(copyItem),
    };
    // A column removed with its items: what its folders held comes back too.
    const contents = Object.assign({}, ...column.items.filter((i) => i.folder).map((i) => contentsOf(board, i.id)));
    if (Object.keys(contents).length > 0) step.contents = contents;
    return step;
  }
  const first = ops[0];
  switch (first.type) {
    case "move": {
      const sources = new Set(ops.flatMap((op) => (op.type === "move" ? op.sources : [])));
      const items = placesOf(board, sources).map(({ item, place }) => ({ id: item.id, ...place }));
      return items.length > 0 ? { kind: "place", items } : null;
    }
    case "insert": {
      const items = ops.flatMap((op) => (op.type === "insert" ? op.items.map((i) => i.id) : []));
      return { kind: "remove", items };
    }
    case "delete": {
      const deleted = new Set(ops.flatMap((op) => (op.type === "delete" ? op.items : [])));
      // A deleted folder comes back with what it held (its delete took that along).
      const items = placesOf(board, deleted).map(({ item, place }) =>
        item.folder ? { item: copyItem(item), ...place, contents: contentsOf(board, item.id) } : { item: copyItem(item), ...place });
      return items.length > 0 ? { kind: "restore", items } : null;
    }
    case "update": {
      // The board's title is the owner's to set (PATCH /api/boards/{id}), and whether a folder
      // takes drops is a switch like the lock: neither is a step.
      if (first.item === undefined && first.collection === undefined) return null;
      if (first.item !== undefined && first.accepts !== undefined) return null;
      if (first.item === undefined) {
        const column = board.collections.find((c) => c.id === first.collection);
        return column ? { kind: "retitle", collection: column.id, title: column.title } : null;
      }
      const found = findItem(board, first.item);
      if (!found) return null;
      /** @type {UndoStep} */
      const step = { kind: "edit", item: first.item };
      if (first.label !== undefined) step.label = found.label;
      if (first.data !== undefined) step.data = found.data === undefined ? null : structuredClone(found.data);
      return step;
    }
    case "collection.move": {
      // The moved columns in their old board order, each with its place among the others.
      const moved = new Set(ops.flatMap((op) => (op.type === "collection.move" ? op.collections : [])));
      const ids = board.collections.map((c) => c.id);
      const rest = ids.filter((id) => !moved.has(id));
      const columns = ids.flatMap((id, index) => (moved.has(id) ? [{ id, ...placeAmong(ids, index, moved, rest) }] : []));
      return columns.length > 0 ? { kind: "place-columns", columns } : null;
    }
    case "collection.add": {
      const items = ops.flatMap((op) => (op.type === "insert" && op.destination.collection === first.collection.id ? op.items.map((i) => i.id) : []));
      return { kind: "drop-column", collection: first.collection.id, items };
    }
    default:
      // Locking is a switch of its own (the lock button), not an edit of the board.
      return null;
  }
}

/**
 * The operations that carry `step` out on `board` as it is now, or why it cannot be.
 * @param {UndoStep} step
 * @param {UndoBoard} board
 * @returns {UndoResolution}
 */
export function resolveStep(step, board) {
  switch (step.kind) {
    case "place": {
      const present = step.items.filter((entry) => findItem(board, entry.id));
      if (present.length === 0) return refused("gone", step.items.length === 1 ? "That card no longer exists." : "Those cards no longer exist.");
      const leaving = new Set(present.map((entry) => entry.id));
      const groups = groupByDestination(board, present, leaving, (entry) => entry.id);
      if (groups.length === 0) return refused("gone", columnGone(present[0].collection));
      return { ops: groups.map(({ destination, entries }) => ({ type: "move", sources: entries, destination })) };
    }
    case "remove": {
      const present = step.items.filter((id) => findItem(board, id));
      if (present.length === 0) return refused("gone", step.items.length === 1 ? "That card no longer exists." : "Those cards no longer exist.");
      return { ops: [{ type: "delete", items: present }] };
    }
    case "restore": {
      const missing = step.items.filter((entry) => !findItem(board, entry.item.id));
      if (missing.length === 0) return refused("exists", step.items.length === 1 ? "That card is already back." : "Those cards are already back.");
      const leaving = new Set(missing.map((entry) => entry.item.id));
      const groups = groupByDestination(board, missing, leaving, (entry) => copyItem(entry.item));
      if (groups.length === 0) return refused("gone", columnGone(missing[0].collection));
      /** @type {UndoOperation[]} */
      const ops = groups.map(({ destination, entries }) => ({ type: "insert", items: entries, destination }));
      // Then what the restored folders held, each folder's after the folder itself.
      const restored = new Set(groups.flatMap((group) => group.entries.map((item) => item.id)));
      for (const entry of missing) {
        if (restored.has(entry.item.id) && entry.contents) ops.push(...refilling(board, entry.item.id, entry.contents, restored));
      }
      return { ops };
    }
    case "edit": {
      if (!findItem(board, step.item)) return refused("gone", "That card no longer exists.");
      /** @type {UndoOperation} */
      const op = { type: "update", item: step.item };
      if (step.label !== undefined) op.label = step.label;
      if (step.data !== undefined) op.data = step.data === null ? null : structuredClone(step.data);
      return { ops: [op] };
    }
    case "retitle":
      if (!board.collections.some((c) => c.id === step.collection)) return refused("gone", columnGone(step.collection));
      return { ops: [{ type: "update", collection: step.collection, title: step.title }] };
    case "drop-column": {
      const column = board.collections.find((c) => c.id === step.collection);
      if (!column) return refused("gone", columnGone(step.collection));
      const ours = new Set(step.items);
      if (column.items.some((i) => !ours.has(i.id))) {
        return refused("not-empty", `Others have added cards to “${column.title}” since, so it stays.`);
      }
      /** @type {UndoOperation[]} */
      const ops = column.items.length > 0 ? [{ type: "delete", items: column.items.map((i) => i.id) }] : [];
      return { ops: [...ops, { type: "collection.remove", collection: column.id }] };
    }
    case "restore-column": {
      if (board.collections.some((c) => c.id === step.column.id)) return refused("exists", `The column “${step.column.title}” is already there.`);
      const ids = board.collections.map((c) => c.id);
      const before = anchorFor(ids, step.place);
      const items = step.items.filter((i) => !findItem(board, i.id)).map(copyItem);
      /** @type {UndoOperation[]} */
      const ops = [{ type: "collection.add", collection: { ...step.column }, before }];
      if (items.length > 0) ops.push({ type: "insert", items, destination: { collection: step.column.id, before: null } });
      // Then what its folders held, each folder's after the folder itself.
      const restored = new Set(items.map((item) => item.id));
      for (const item of items) {
        if (item.folder && step.contents) ops.push(...refilling(board, item.id, step.contents, restored));
      }
      return { ops };
    }
    case "place-columns": {
      const ids = board.collections.map((c) => c.id);
      const present = step.columns.filter((column) => ids.includes(column.id));
      if (present.length === 0) return refused("gone", step.columns.length === 1 ? "That column no longer exists." : "Those columns no longer exist.");
      // The place rule over the columns without those going back; those landing at the same
      // spot go in one operation, in their old order.
      const leaving = new Set(present.map((column) => column.id));
      const rest = ids.filter((id) => !leaving.has(id));
      /** @type {{ before: string | null, collections: string[] }[]} */
      const groups = [];
      for (const column of present) {
        const before = anchorFor(rest, column);
        const group = groups.find((g) => g.before === before);
        if (group) group.collections.push(column.id);
        else groups.push({ before, collections: [column.id] });
      }
      return { ops: groups.map(({ before, collections }) => ({ type: "collection.move", collections, before })) };
    }
    default:
      return refused("gone", "That step cannot be undone.");
  }
}

/**
 * The inserts that put back what `folder` held (and the folders inside it), each folder's after
 * the folder itself, leaving out what is on the board again or restored already.
 * @param {UndoBoard} board
 * @param {string} folder
 * @param {{ [folderId: string]: UndoItem[] }} contents
 * @param {Set<string>} restored grows by what the inserts bring back
 * @returns {UndoOperation[]}
 */
function refilling(board, folder, contents, restored) {
  /** @type {UndoOperation[]} */
  const ops = [];
  const folders = [folder];
  for (let at = 0; at < folders.length; at += 1) {
    const items = (contents[folders[at]] ?? []).filter((item) => !findItem(board, item.id) && !restored.has(item.id));
    if (items.length === 0) continue;
    for (const item of items) {
      restored.add(item.id);
      if (item.folder) folders.push(item.id);
    }
    ops.push({ type: "insert", items: items.map(copyItem), destination: { collection: folders[at], before: null } });
  }
  return ops;
}

/**
 * The where-it-was rule (docs/protocol.md#undo-and-redo): before the neighbour that followed it,
 * if that one is still in the list; else right after the one before it, if that one is;
 * else at the index it had (counted without what is being put back), or the end when the
 * list is shorter now. `ids` is the list now without what is being put back.
 * @param {string[]} ids
 * @param {{ next: string | null, previous: string | null, index: number }} place
 * @returns {string | null}
 */
export function anchorFor(ids, place) {
  if (place.next !== null && ids.includes(place.next)) return place.next;
  if (place.previous !== null && ids.includes(place.previous)) return ids[ids.indexOf(place.previous) + 1] ?? null;
  return ids[place.index] ?? null;
}

// MARK: The history

/**
 * One person's undo and redo stacks. `record` a step for each gesture; `undo`/`redo` give
 * the operations to send (already moved to the other stack), and `failed` puts a step
 * back when the server refused those operations for a passing reason (someone holds the
 * card, the board is locked, too many changes at once), so it can be tried again.
 */
export class UndoHistory {
  /** @param {{ limit?: number }} [options] at most `limit` steps are kept to undo */
  constructor(options = {}) {
    this.limit = options.limit ?? 100;
    /** @type {UndoStep[]} */
    this.undoStack = [];
    /** @type {UndoStep[]} */
    this.redoStack = [];
  }

  get canUndo() {
    return this.undoStack.length > 0;
  }

  get canRedo() {
    return this.redoStack.length > 0;
  }

  /**
   * A new gesture of this person's: `ops` done on `board`. Clears what could be redone.
   * @param {UndoBoard} board
   * @param {UndoOperation[]} ops
   * @returns {UndoStep | null}
   */
  record(board, ops) {
    const step = stepFor(board, ops);
    if (!step) return null;
    this.undoStack.push(step);
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack = [];
    return step;
  }

  /**
   * A step whose operation the server refused (it changed nothing) is no step to undo.
   * @param {UndoStep} step
   */
  forget(step) {
    const at = this.undoStack.lastIndexOf(step);
    if (at >= 0) this.undoStack.splice(at, 1);
  }

  /**
   * @param {UndoBoard} board the board as it is now
   * @returns {Attempt | null} null when there is nothing to undo
   */
  undo(board) {
    return this.take(this.undoStack, this.redoStack, board);
  }

  /**
   * @param {UndoBoard} board the board as it is now
   * @returns {Attempt | null} null when there is nothing to redo
   */
  redo(board) {
    return this.take(this.redoStack, this.undoStack, board);
  }

  /**
   * The operations of an attempt were refused for a passing reason: the step goes back to
   * be tried again, and what the attempt pushed to the other stack is taken off.
   * @param {Attempt} attempt
   */
  failed(attempt) {
    if (!("ops" in attempt)) return;
    const at = attempt.inverse ? attempt.to.lastIndexOf(attempt.inverse) : -1;
    if (at >= 0) attempt.to.splice(at, 1);
    attempt.from.push(attempt.step);
  }

  /**
   * @param {UndoStep[]} from
   * @param {UndoStep[]} to
   * @param {UndoBoard} board
   * @returns {Attempt | null}
   */
  take(from, to, board) {
    const step = from.pop();
    if (!step) return null;
    const resolution = resolveStep(step, board);
    // A step that cannot be carried out now is dropped: the board it would restore is
    // gone, and keeping it would block the steps under it.
    if ("refused" in resolution) return { refused: resolution.refused, step };
    const inverse = stepFor(board, resolution.ops);
    if (inverse) to.push(inverse);
    return { ops: resolution.ops, step, inverse, from, to };
  }
}

/**
 * @typedef {{ refused: UndoRefusal, step: UndoStep }
 *   | { ops: UndoOperation[], step: UndoStep, inverse: UndoStep | null, from: UndoStep[], to: UndoStep[] }} Attempt
 */

// MARK: Helpers

/**
 * @param {UndoBoard} board
 * @param {string} id
 * @returns {UndoItem | null}
 */
function findItem(board, id) {
  for (const collection of lists(board)) {
    const item = collection.items.find((i) => i.id === id);
    if (item) return item;
  }
  return null;
}

/**
 * Every list of the board: the columns, then the folders' contents by folder id (the Swift
 * client's order).
 * @param {UndoBoard} board
 * @returns {UndoCollection[]}
 */
function lists(board) {
  const folders = board.folders ?? {};
  return [...board.collections, ...Object.keys(folders).sort().map((id) => ({ id, title: "", items: folders[id] }))];
}

/**
 * What a folder holds, and the folders inside it hold, by folder id (copies).
 * @param {UndoBoard} board
 * @param {string} folderId
 * @returns {{ [folderId: string]: UndoItem[] }}
 */
function contentsOf(board, folderId) {
  /** @type {{ [folderId: string]: UndoItem[] }} */
  const contents = {};
  const folders = [folderId];
  for (let at = 0; at < folders.length && at < 10_000; at += 1) {
    const items = board.folders?.[folders[at]] ?? [];
    contents[folders[at]] = items.map(copyItem);
    for (const item of items) if (item.folder) folders.push(item.id);
  }
  return contents;
}

/**
 * The places of the `ids` on the board, in reading order (column by column, top to bottom,
 * then folder by folder), each leaving out the others of `ids`.
 * @param {UndoBoard} board
 * @param {Set<string>} ids
 * @returns {{ item: UndoItem, place: Place }[]}
 */
function placesOf(board, ids) {
  /** @type {{ item: UndoItem, place: Place }[]} */
  const places = [];
  for (const collection of lists(board)) {
    // Most lists hold none of them: a step of a drop on a board of thousands of items read
    // only the lists it takes items from.
    if (!collection.items.some((i) => ids.has(i.id))) continue;
    const all = collection.items.map((i) => i.id);
    const rest = all.filter((id) => !ids.has(id));
    collection.items.forEach((item, index) => {
      if (!ids.has(item.id)) return;
      places.push({ item, place: { collection: collection.id, ...placeAmong(all, index, ids, rest) } });
    });
  }
  return places;
}

/**
 * The place of `all[index]` among `rest` (`all` without `leaving`).
 * @param {string[]} all
 * @param {number} index
 * @param {Set<string>} leaving
 * @param {string[]} rest
 * @returns {ColumnPlace}
 */
function placeAmong(all, index, leaving, rest) {
  const next = all.slice(index + 1).find((id) => !leaving.has(id)) ?? null;
  const previous = all.slice(0, index).reverse().find((id) => !leaving.has(id)) ?? null;
  const position = all.slice(0, index).filter((id) => !leaving.has(id)).length;
  return { next, previous, index: Math.min(position, rest.length) };
}

/**
 * Entries grouped by where they go now, in their order; those whose column is gone are left
 * out.
 * @template {Place} E
 * @template T
 * @param {UndoBoard} board
 * @param {E[]} entries
 * @param {Set<string>} leaving
 * @param {(entry: E) => T} pick
 * @returns {{ destination: { collection: string, before: string | null }, entries: T[] }[]}
 */
function groupByDestination(board, entries, leaving, pick) {
  /** @type {Map<string, { destination: { collection: string, before: string | null }, entries: T[] }>} */
  const groups = new Map();
  for (const entry of entries) {
    const collection = lists(board).find((c) => c.id === entry.collection);
    if (!collection) continue;
    const rest = collection.items.map((i) => i.id).filter((id) => !leaving.has(id));
    const before = anchorFor(rest, entry);
    const key = JSON.stringify([entry.collection, before]);
    let group = groups.get(key);
    if (!group) {
      group = { destination: { collection: entry.collection, before }, entries: [] };
      groups.set(key, group);
    }
    group.entries.push(pick(entry));
  }
  return [...groups.values()];
}

/**
 * @param {UndoItem} item
 * @returns {UndoItem}
 */
function copyItem(item) {
  /** @type {UndoItem} */
  const copy = { id: item.id, label: item.label };
  if (item.data !== undefined) copy.data = structuredClone(item.data);
  if (item.folder) copy.folder = { accepts: item.folder.accepts };
  return copy;
}

/** @param {string} id */
function columnGone(id) {
  return `The column it was in (${id}) no longer exists.`;
}

/**
 * @param {UndoRefusal["code"]} code
 * @param {string} message
 * @returns {{ refused: UndoRefusal }}
 */
function refused(code, message) {
  return { refused: { code, message } };
}
