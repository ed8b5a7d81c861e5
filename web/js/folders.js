// @ts-check
// Folders on the page (docs/model.md "Folders"): which folders a person keeps open, where
// dragged or moved cards may go into one, and how a folder is named as a destination. Pure
// (the storage is handed in), so node tests run it; the view draws what this decides.
//
// A folder takes cards from elsewhere only while it accepts drops, and never itself or a
// folder inside itself: the server refuses both (`rejected`), so the page does not offer them.

import { enclosingFolders, findItem, orderedItemIds } from "../sdk/replica.js";

/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {import("../sdk/replica.js").Item} Item */
/**
 * The part of the Web Storage API used here (localStorage, or anything alike).
 * @typedef {{ getItem(key: string): string | null, setItem(key: string, value: string): void,
 *   removeItem(key: string): void }} StorageLike
 */
/**
 * A folder offered as a destination: its id (the list a move names) and how to say it.
 * @typedef {{ id: string, name: string }} FolderDestination
 */

const KEY_PREFIX = "corkboard.open-folders.";
// A board has at most this many folders open in one person's memory: the oldest opened go
// first, so a board whose folders come and go never fills the storage.
const MAX_REMEMBERED = 500;

/**
 * The folders one person keeps open on one board, remembered in the browser (a reload, or
 * the next visit, shows them as they were left). Every other folder is closed.
 */
export class OpenFolders {
  /**
   * @param {StorageLike | null} storage null: remembered for this page only
   * @param {string} board
   * @param {string} person the name the page shows its person by: two people sharing a browser keep their own
   */
  constructor(storage, board, person) {
    this.storage = storage;
    this.key = `${KEY_PREFIX}${person}.${board}`;
    /** @type {Set<string>} */
    this.open = new Set(this.read());
  }

  /** @param {string} folderId */
  isOpen(folderId) {
    return this.open.has(folderId);
  }

  /**
   * Opens or closes a folder and remembers it; returns whether it is now open.
   * @param {string} folderId
   * @param {boolean} [open] absent: the other way round
   */
  toggle(folderId, open = !this.open.has(folderId)) {
    this.open.delete(folderId);
    if (open) this.open.add(folderId); // last: the newest opened
    while (this.open.size > MAX_REMEMBERED) this.open.delete(/** @type {string} */ (this.open.values().next().value));
    this.save();
    return open;
  }

  /** @returns {string[]} */
  read() {
    try {
      const parsed = JSON.parse(this.storage?.getItem(this.key) ?? "[]");
      return Array.isArray(parsed) ? parsed.filter((id) => typeof id === "string") : [];
    } catch {
      // Unreadable (a hand edit, another version's shape): every folder starts closed.
      return [];
    }
  }

  save() {
    try {
      if (this.open.size === 0) this.storage?.removeItem(this.key);
      else this.storage?.setItem(this.key, JSON.stringify([...this.open]));
    } catch {
      // Storage full or refused (private mode): open for this page only.
    }
  }
}

/**
 * The item of a folder on the board, or null (not there, or not a folder).
 * @param {Board} board
 * @param {string} folderId
 * @returns {Item | null}
 */
export function folderItem(board, folderId) {
  const item = findItem(board, folderId)?.item;
  return item?.folder ? item : null;
}

/**
 * Whether `items` may go into the folder: it is on the board, they are not it nor around it
 * (a folder never inside itself), and it takes drops, unless they all are in it already
 * (reordering inside a folder is always allowed).
 * @param {Board} board
 * @param {string} folderId
 * @param {string[]} items
 */
export function mayGoInto(board, folderId, items) {
  const folder = folderItem(board, folderId);
  if (!folder?.folder) return false;
  if (enclosingFolders(board, folderId).some((id) => items.includes(id))) return false;
  if (folder.folder.accepts) return true;
  const inside = new Set((board.folders?.[folderId] ?? []).map((i) => i.id));
  return items.every((id) => inside.has(id));
}

/**
 * What a list is called: a column's title, or a folder's label.
 * @param {Board} board
 * @param {string} listId
 */
export function listName(board, listId) {
  const column = board.collections.find((c) => c.id === listId);
  return column ? column.title : (folderItem(board, listId)?.label ?? listId);
}

/**
 * The folders that `items` may be moved into, in the board's reading order, each named with
 * the list it sits in ("Ideas (folder in To do)").
 * @param {Board} board
 * @param {string[]} items
 * @returns {FolderDestination[]}
 */
export function folderDestinations(board, items) {
  /** @type {FolderDestination[]} */
  const found = [];
  for (const id of orderedItemIds(board)) {
    const place = findItem(board, id);
    if (!place?.item.folder || !mayGoInto(board, id, items)) continue;
    found.push({ id, name: `${place.item.label} (folder in ${listName(board, place.collection.id)})` });
  }
  return found;
}
