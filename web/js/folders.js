// @ts-check
// Folders on the page (docs/model.md "Folders"). A folder is a card with a toggle; opened, its
// contents show as a drawer: a narrower column right after the column (or drawer) that holds
// the folder, named after it. A drawer is a list like a column's (a folder's list is named by
// the folder's id on the wire too), so its cards reorder, windowed, with the pointer, touch
// and keyboard, and the others' drags show in it, by the very code that does it for columns.
// Which folders a person has open is theirs, kept per board in localStorage.
//
// While a card is in hand, holding it over a folder card that takes drops for DWELL_MS
// highlights the folder: let go there and the cards go in, at its end. A quick pass over a
// folder still reorders.

import { enclosingFolders, findCollection, findItem } from "../sdk/replica.js";

/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {import("../sdk/replica.js").Collection} Collection */

/** How long a card in hand must stay over a folder before a drop there goes into it. */
export const DWELL_MS = 500;

/** Which folders this person has open on one board. */
export class OpenFolders {
  /**
   * @param {string} boardId
   * @param {Pick<Storage, "getItem" | "setItem"> | null} storage
   */
  constructor(boardId, storage) {
    this.key = `corkboard.open-folders:${boardId}`;
    this.storage = storage;
    /** @type {Set<string>} */
    this.open = new Set();
    try {
      const kept = JSON.parse(storage?.getItem(this.key) ?? "[]");
      if (Array.isArray(kept)) this.open = new Set(kept.filter((id) => typeof id === "string"));
    } catch {
      // Nothing kept, or not ours: all closed.
    }
  }

  /** @param {string} id */
  isOpen(id) {
    return this.open.has(id);
  }

  /**
   * Opens or closes a folder; returns whether it is open now.
   * @param {string} id
   * @param {boolean} [open] the state wanted (default: the other one)
   */
  toggle(id, open = !this.open.has(id)) {
    if (open) this.open.add(id);
    else this.open.delete(id);
    try {
      this.storage?.setItem(this.key, JSON.stringify([...this.open]));
    } catch {
      // Storage full or off: open for this page only.
    }
    return open;
  }
}

/**
 * The board as the page shows it: each column followed by the drawers of the open folders it
 * holds, each drawer by those of the open folders inside it, in reading order.
 * @param {Board} board
 * @param {{ isOpen(id: string): boolean }} open
 * @returns {Board}
 */
export function shownBoard(board, open) {
  if (!board.folders) return board;
  /** @type {Collection[]} */
  const shown = [];
  /** @param {Collection} list */
  const add = (list) => {
    shown.push(list);
    for (const item of list.items) {
      if (!item.folder || !open.isOpen(item.id)) continue;
      const drawer = findCollection(board, item.id);
      // A drawer's title is its folder's label: what the person named it.
      if (drawer && !shown.some((c) => c.id === drawer.id)) add({ ...drawer, title: item.label });
    }
  };
  for (const column of board.collections) add(column);
  return { ...board, collections: shown };
}

/**
 * Whether `items` may be dropped into folder `folderId`: it takes drops, is not one of them,
 * and is not inside one of them.
 * @param {Board} board
 * @param {string} folderId
 * @param {Set<string>} items
 */
export function canDropInto(board, folderId, items) {
  const folder = findItem(board, folderId)?.item;
  if (!folder?.folder?.accepts) return false;
  return !enclosingFolders(board, folderId).some((id) => items.has(id));
}

/**
 * The lists a "Move to…" may offer for `items`: the columns, then every folder they may go
 * into, named with where it is ("Ideas, in To do").
 * @param {Board} board
 * @param {Set<string>} items
 * @returns {{ id: string, title: string }[]}
 */
export function moveDestinations(board, items) {
  const columns = board.collections.map((c) => ({ id: c.id, title: c.title }));
  const folders = Object.keys(board.folders ?? {})
    .filter((id) => canDropInto(board, id, items))
    .map((id) => {
      const found = findItem(board, id);
      const where = found?.collection.folder ? findItem(board, found.collection.id)?.item.label : found?.collection.title;
      return { id, title: `${found?.item.label ?? id}, in ${where ?? "a folder"}` };
    });
  return [...columns, ...folders];
}
