// @ts-check
// The board in the DOM: columns and cards kept by id (so focus, selection and running
// animations survive every update), cards animating to their new places (FLIP), and the
// others' presence drawn on top: held cards with the holder's name, placeholder ghosts.

import { inkOn } from "./ink.js";
import { colourOf } from "./people.js";
import { webLink } from "./web-link.js";
import { ROW_GUESS, WINDOW_AFTER, seenRange, windowPlan } from "./column-window.js";
import { stackedSlotIndex } from "../sdk/drag-geometry.js";

// Folders nest at most this deep (Limits.maximumFolderDepth): a board never has more, and a
// render never walks further (a cycle, which the server refuses, would not hang the page).
const MAX_DEPTH = 16;

/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {import("../sdk/replica.js").Collection} Collection */
/** @typedef {import("../sdk/replica.js").Item} Item */
/** @typedef {import("../sdk/wire.js").Peer} Peer */
/**
 * A list of cards as drawn: a column's, or an open folder's (`folder`: never drawn as a
 * window, however long). Kept by the list's id (a column's, or the folder's item id).
 * @typedef {{ list: HTMLOListElement, ids: string[], shown: HTMLElement[], spacers: HTMLLIElement[],
 *   gaps: { from: number, to: number, spacer: HTMLLIElement }[], row: number, gap: number, first: number, last: number,
 *   displaced: boolean, folder: boolean }} ListElements
 */
/**
 * A column's elements, made once per collection id and kept.
 * @typedef {ListElements & { element: HTMLElement, title: HTMLElement, count: HTMLElement, remove: HTMLButtonElement,
 *   grip: HTMLButtonElement, menu: HTMLButtonElement, add: HTMLButtonElement, addFolder: HTMLButtonElement }} ColumnElements
 */
/**
 * What a folder's card shows besides a card's: its open/close toggle and how many items it holds.
 * @typedef {{ toggle: HTMLButtonElement, count: HTMLElement, open: boolean | null, accepts: boolean | null, size: number,
 *   name: string }} DrawnFolder
 */
/**
 * What a card element shows, as last drawn (so an unchanged card is not written to).
 * @typedef {{ label: HTMLElement, menu: HTMLElement, text: string, accent: string | null,
 *   link: HTMLAnchorElement | null, folder: DrawnFolder | null }} DrawnCard
 */
/**
 * What one render gathers while it walks the board's lists: the cards it draws, the folders
 * it draws open, and the lists whose cards are not in the order shown.
 * @typedef {{ pinned: Set<string>, liveCards: Set<string>, open: Set<string>,
 *   changed: { column: ListElements, elements: HTMLElement[] }[] }} RenderWalk
 */

const MOVE_ANIMATION_MS = 180;

/** Whether the person asked their system for less motion (then nothing glides or flies). */
export function prefersReducedMotion() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Whether two lists (of ids, or of elements) are the same, in the same order.
 * @template T
 * @param {T[]} a
 * @param {T[]} b
 */
function sameOrder(a, b) {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at += 1) if (a[at] !== b[at]) return false;
  return true;
}

/**
 * A button of the page's (not a form's submit button).
 * @param {string} className
 * @param {string} text
 */
function button(className, text) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = text;
  return element;
}

export class BoardView {
  /** @param {HTMLElement} root the board's element, which the view fills */
  constructor(root) {
    this.root = root;
    /** @type {Map<string, ColumnElements>} */
    this.columns = new Map();
    /**
     * The lists of the folders drawn open, by folder id.
     * @type {Map<string, ListElements>}
     */
    this.folderLists = new Map();
    /**
     * Whether the person keeps a folder open (board-page.js hands in their remembered choice).
     * @type {(folderId: string) => boolean}
     */
    this.isFolderOpen = () => false;
    /**
     * The board and options last drawn: opening a folder draws them again.
     * @type {{ board: Board, options: { editable: boolean } } | null}
     */
    this.last = null;
    /** @type {Map<string, HTMLLIElement>} */
    this.cards = new Map();
    /** @type {Map<string, DrawnCard>} */
    this.drawn = new Map();
    /**
     * The columns' ids in the order they are shown.
     * @type {string[]}
     */
    this.columnOrder = [];
    /**
     * The cards marked held by others.
     * @type {Set<string>}
     */
    this.held = new Set();
    /**
     * The others' ghost slots, by client.
     * @type {Map<string, HTMLLIElement>}
     */
    this.ghosts = new Map();
    /** @type {Set<string>} */
    this.selected = new Set();
    /** @type {HTMLButtonElement | null} */
    this.addColumnButton = null;
    this.rendering = false;
    /** True while animateChange runs a change: it measures and animates, a render inside it does not. */
    this.changing = false;
    /** Called after each render, so a drag in progress can put its placeholder back. */
    this.afterRender = () => {};
    this.rewindowFrame = 0;
    // Scrolling a long column (or the board, or the page) brings other cards near the screen.
    const scrolled = () => this.scheduleRewindow();
    root.addEventListener("scroll", scrolled, { capture: true, passive: true });
    addEventListener("scroll", scrolled, { passive: true });
    addEventListener("resize", scrolled, { passive: true });
  }

  /**
   * The shown state of `board`, animating cards that moved. `rendering` is true meanwhile: a
   * focused node it moves is blurred for a moment (Chrome fires that blur right here), and an
   * open editor must not take that for the person leaving it.
   * @param {Board} board
   * @param {{ editable: boolean }} options
   */
  render(board, options) {
    this.rendering = true;
    try {
      this.update(board, options);
    } finally {
      this.rendering = false;
    }
  }

  /**
   * Touches only what changed: a column whose cards are in the order it shows is left alone
   * (its cards' text and colour are compared, not rewritten), and in one that changed only the
   * run between the unchanged start and end is put in order. The glide (FLIP) is measured on
   * the changed columns' cards that are on the screen: with thousands of cards, measuring and
   * animating every card made each change cost hundreds of milliseconds.
   * @param {Board} board
   * @param {{ editable: boolean }} options
   */
  update(board, { editable }) {
    this.last = { board, options: { editable } };
    // Moving a node to another list takes the focus away from it: give it back, so a
    // keyboard user whose card someone else moved keeps their place (and hears of it).
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    const hadFocus = focused !== null && this.root.contains(focused);
    if (this.root.querySelector(".loading")) {
      this.root.replaceChildren();
      this.columnOrder = []; // every column goes back in
    }
    if (this.root.dataset.boardId !== board.id) this.root.dataset.boardId = board.id;

    const columnOrder = board.collections.map((c) => c.id);
    const columnsMoved = !sameOrder(columnOrder, this.columnOrder);
    /** @type {RenderWalk} */
    const walk = { pinned: this.pinned(), liveCards: new Set(), open: new Set(), changed: [] };
    const { changed, liveCards } = walk;
    for (const collection of board.collections) {
      const column = this.column(collection);
      column.ids = collection.items.map((item) => item.id);
      const resized = this.drawItems(collection.items, board, walk, 1);
      const elements = this.planned(column, walk.pinned, this.lastWindow(column));
      if (resized || column.displaced || !sameOrder(elements, column.shown)) changed.push({ column, elements });
    }
    // Cards displaced by the change (and every card when the columns themselves move).
    const lists = columnsMoved ? [...this.columns.values()].map((c) => c.list) : changed.map(({ column }) => column.list);
    const before = this.changing ? new Map() : this.cardRects(lists);

    if (columnsMoved) {
      /** @type {HTMLElement | null} */
      let previous = null;
      for (const collection of board.collections) {
        const column = /** @type {ColumnElements} */ (this.columns.get(collection.id));
        if (column.element.previousElementSibling !== previous || column.element.parentNode !== this.root) {
          this.root.insertBefore(column.element, previous ? previous.nextElementSibling : this.root.firstElementChild);
        }
        previous = column.element;
      }
      const live = new Set(columnOrder);
      for (const [id, column] of this.columns) {
        if (!live.has(id)) {
          column.element.remove();
          this.columns.delete(id);
        }
      }
      this.columnOrder = columnOrder;
    }
    for (const collection of board.collections) this.updateColumn(/** @type {ColumnElements} */ (this.columns.get(collection.id)), collection, editable);
    for (const { column, elements } of changed) this.order(column, elements);
    // A folder closed (or gone) takes its list along; its cards leave with the others below.
    for (const [id, folder] of this.folderLists) {
      if (walk.open.has(id)) continue;
      folder.list.remove();
      this.folderLists.delete(id);
    }
    // Every card on the board is in `cards` now (drawCard made the new ones): only when it holds
    // more did cards leave. (Visiting all of them after every change cost up to 3 ms of a drop
    // on a board of 3,000 cards.)
    if (liveCards.size !== this.cards.size) {
      for (const [id, card] of this.cards) {
        if (!liveCards.has(id)) {
          card.remove();
          this.cards.delete(id);
          this.drawn.delete(id);
          this.selected.delete(id);
        }
      }
    }
    this.showSelection();
    this.placeAddColumnButton(editable);
    this.afterRender();
    if (hadFocus && focused.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
    this.animateFrom(before);
    // The window was planned with a card's guessed height until one is measured.
    this.scheduleRewindow();
  }

  /**
   * Draws the cards of `items` and, in each folder among them drawn open, its own cards (its
   * list is checked like a column's). True when a card's content changed, or an open folder's
   * cards did (its height may have).
   * @param {Item[]} items
   * @param {Board} board
   * @param {RenderWalk} walk
   * @param {number} depth the depth of `items` (a column's are at 1)
   * @returns {boolean}
   */
  drawItems(items, board, walk, depth) {
    let resized = false;
    for (const item of items) {
      walk.liveCards.add(item.id);
      const inside = item.folder ? (board.folders?.[item.id] ?? []) : [];
      const open = item.folder !== undefined && depth < MAX_DEPTH && this.isFolderOpen(item.id);
      if (this.drawCard(item, inside.length, open)) resized = true;
      if (!open) continue;
      walk.open.add(item.id);
      const folder = this.folderList(item.id);
      folder.ids = inside.map((i) => i.id);
      const innerResized = this.drawItems(inside, board, walk, depth + 1);
      const elements = folder.ids.map((id) => /** @type {HTMLLIElement} */ (this.cards.get(id)));
      if (innerResized || folder.displaced || !sameOrder(elements, folder.shown)) {
        walk.changed.push({ column: folder, elements });
        resized = true;
      }
    }
    return resized;
  }

  /**
   * The list of an open folder, made (inside its card, under its label) the first time.
   * @param {string} folderId
   * @returns {ListElements}
   */
  folderList(folderId) {
    let folder = this.folderLists.get(folderId);
    if (folder) return folder;
    const list = document.createElement("ol");
    list.className = "cards folder-cards";
    list.dataset.folderId = folderId;
    /** @type {HTMLLIElement} */ (this.cards.get(folderId)).append(list);
    folder = { list, ids: [], shown: [], spacers: [], gaps: [], row: ROW_GUESS, gap: 0, first: 0, last: -1, displaced: false, folder: true };
    this.folderLists.set(folderId, folder);
    return folder;
  }

  /**
   * The drawn list of a column or of an open folder.
   * @param {string} listId
   * @returns {ListElements | undefined}
   */
  listElements(listId) {
    return this.columns.get(listId) ?? this.folderLists.get(listId);
  }

  /** Draws the board again as last drawn: after a folder was opened or closed. */
  redraw() {
    if (this.last) this.render(this.last.board, this.last.options);
  }

  /**
   * Puts the elements of `column` (cards and spacers) in the order `elements`, moving only
   * those out of place: what it no longer shows leaves the list, and the common start and end
   * of what it showed are left as they are. Placeholders, ghosts and drafts stay where they are.
   * @param {ListElements} column
   * @param {HTMLElement[]} elements
   */
  order(column, elements) {
    // After someone else moved one of its cards (`displaced`), every element is checked.
    const shown = column.displaced ? [] : column.shown;
    column.displaced = false;
    // What it no longer shows leaves first: left in place until after, a card scrolled out of
    // the window stood before the cards that stay, and each of them was moved past it (a
    // scroll by one card re-inserted the whole window, and a click on a card moved meanwhile
    // was lost).
    if (column.shown.length > 0) {
      const kept = new Set(elements);
      for (const element of column.shown) if (!kept.has(element) && element.parentNode === column.list) element.remove();
    }
    let start = 0;
    while (start < elements.length && start < shown.length && elements[start] === shown[start]) start += 1;
    let end = 0;
    while (end < elements.length - start && end < shown.length - start && elements[elements.length - 1 - end] === shown[shown.length - 1 - end]) end += 1;
    /** @type {Element | null} */
    let previous = start > 0 ? elements[start - 1] : null;
    for (let at = start; at < elements.length - end; at += 1) {
      const element = elements[at];
      // Only move what is out of place: moving a node resets its focus and hover state.
      if (element.parentNode !== column.list || this.previousShown(element) !== previous) {
        column.list.insertBefore(element, previous ? previous.nextSibling : column.list.firstChild);
      }
      previous = element;
    }
    column.shown = elements;
  }

  /**
   * The window a render draws in a long column: the one the last frame planned (the next
   * frame's rewindow brings it up to date). Finding what is on the screen now would lay the
   * page out in the middle of a change (a drop's, a move's), only to lay it out again after.
   * Only a column never windowed yet is measured.
   * @param {ColumnElements} column
   * @returns {{ first: number, last: number } | undefined}
   */
  lastWindow(column) {
    if (column.last < 0) return undefined;
    const end = column.ids.length - 1;
    return { first: Math.min(column.first, end), last: Math.min(column.last, end) };
  }

  /**
   * The elements `column` shows: every card, or for a long column the cards of `range` (near
   * the screen: measured when not given) and the `pinned` ones, with spacers for the runs left out.
   * @param {ColumnElements} column
   * @param {Set<string>} pinned
   * @param {{ first: number, last: number }} [range]
   * @returns {HTMLElement[]}
   */
  planned(column, pinned, range) {
    const ids = column.ids;
    column.gaps = [];
    if (ids.length <= WINDOW_AFTER) {
      column.first = 0;
      column.last = ids.length - 1;
      return ids.map((id) => /** @type {HTMLLIElement} */ (this.cards.get(id)));
    }
    const { first, last } = range ?? seenRange(column.list, ids.length, column.row);
    column.first = first;
    column.last = last;
    return windowPlan(ids, first, last, pinned).map((part) => {
      if ("id" in part) return /** @type {HTMLLIElement} */ (this.cards.get(part.id));
      const spacer = column.spacers[column.gaps.length] ?? document.createElement("li");
      if (!column.spacers.includes(spacer)) {
        spacer.className = "card-spacer";
        spacer.setAttribute("aria-hidden", "true");
        column.spacers.push(spacer);
      }
      const cards = part.to - part.from + 1;
      // The spacer stands for `cards` cards and the gaps between them (the list's gap follows it).
      const height = `${Math.max(0, Math.round(cards * column.row - column.gap))}px`;
      if (spacer.style.height !== height) spacer.style.height = height;
      spacer.dataset.cards = String(cards);
      column.gaps.push({ from: part.from, to: part.to, spacer });
      return spacer;
    });
  }

  /**
   * The cards that stay in the DOM wherever they are: the one with the focus, those in hand
   * (lifted, landing or pressed) and those being edited.
   * @returns {Set<string>}
   */
  pinned() {
    /** @type {Set<string>} */
    const ids = new Set();
    const add = (/** @type {Element | null | undefined} */ node) => {
      const id = /** @type {HTMLElement | null | undefined} */ (node?.closest?.("li.card"))?.dataset.itemId;
      if (id) ids.add(id);
    };
    add(document.activeElement);
    for (const node of this.root.querySelectorAll("li.card.lifted, li.card.landing, li.card.pressing, li.card [contenteditable=true], li.card .editing")) add(node);
    return ids;
  }

  /** Redraws the long columns' windows at the next frame (after a scroll, a resize or a render). */
  scheduleRewindow() {
    if (this.rewindowFrame) return;
    this.rewindowFrame = requestAnimationFrame(() => {
      this.rewindowFrame = 0;
      this.rewindow();
    });
  }

  /**
   * Shows the cards now near the screen in each long column (a card's height measured on the
   * cards drawn), without animating anything: nothing moved on the board.
   */
  rewindow() {
    /** @type {{ column: ColumnElements, elements: HTMLElement[] }[]} */
    const changed = [];
    let pinned = null;
    for (const column of this.columns.values()) {
      if (column.ids.length <= WINDOW_AFTER) continue;
      this.measureRow(column);
      pinned ??= this.pinned();
      const elements = this.planned(column, pinned);
      if (column.displaced || !sameOrder(elements, column.shown)) changed.push({ column, elements });
    }
    if (changed.length === 0) return;
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    this.rendering = true;
    try {
      for (const { column, elements } of changed) this.order(column, elements);
      this.afterRender();
      if (focused?.isConnected && document.activeElement !== focused && this.root.contains(focused)) focused.focus({ preventScroll: true });
    } finally {
      this.rendering = false;
    }
  }

  /**
   * A card's height plus the gap after it: the mean height of the cards drawn. Their heights,
   * not their positions: a card lifted out of the list (not laid out), a placeholder or a ghost
   * between the cards, or a card gliding (FLIP) moves the others, and a row measured from
   * where they were set every spacer wrong by a share of a row per card (1,900 cards above
   * the screen: 50 rows), so the column jumped under the person's eyes after a drag and
   * drew cards far from the screen. A card raised in hand (scaled) is left out too.
   * @param {ColumnElements} column
   */
  measureRow(column) {
    let total = 0;
    let cards = 0;
    for (const child of /** @type {HTMLCollectionOf<HTMLElement>} */ (column.list.children)) {
      if (!child.classList.contains("card") || !child.dataset.itemId || child.matches(".keyboard-lifted, .pressing")) continue;
      const height = child.getBoundingClientRect().height;
      if (height === 0) continue;
      total += height;
      cards += 1;
    }
    if (cards === 0) return;
    // Read here, where the list is laid out: before it is in the document its style is empty.
    column.gap = parseFloat(getComputedStyle(column.list).rowGap) || 0;
    const row = total / cards + column.gap;
    if (Math.abs(row - column.row) > 0.5) column.row = row;
  }

  /**
   * Makes sure the card `id` is in the DOM (a long column scrolled to it and redrawn), and
   * returns it; undefined when no column has it.
   * @param {string} id
   * @returns {HTMLLIElement | undefined}
   */
  reveal(id) {
    const card = this.cards.get(id);
    if (!card || card.isConnected) return card;
    for (const column of this.columns.values()) {
      const at = column.ids.indexOf(id);
      if (at < 0) continue;
      column.list.scrollTop = Math.max(0, at * column.row - column.list.clientHeight / 2);
      this.rewindow();
      break;
    }
    return card;
  }

  /**
   * The card next to `id` for an arrow key without a card in hand: above or below in its
   * column as drawn (an open folder's cards right after it), or at the same place (or the
   * last) in the column to the left or right.
   * @param {string} id
   * @param {string} key
   * @returns {string | null}
   */
  neighbour(id, key) {
    const order = this.columnOrder.map((c) => /** @type {ColumnElements} */ (this.columns.get(c)));
    const columnAt = order.findIndex((c) => this.readingOrder(c.ids).includes(id));
    if (columnAt < 0) return null;
    const column = order[columnAt];
    if (key === "ArrowUp" || key === "ArrowDown") {
      const ids = this.readingOrder(column.ids);
      return ids[ids.indexOf(id) + (key === "ArrowUp" ? -1 : 1)] ?? null;
    }
    // A card in a folder counts at its outermost folder's place.
    const at = column.ids.findIndex((top) => this.readingOrder([top]).includes(id));
    const next = order[columnAt + (key === "ArrowLeft" ? -1 : 1)];
    return next ? (next.ids[Math.min(at, next.ids.length - 1)] ?? null) : null;
  }

  /**
   * The ids of a list's cards as the eye reads them: each open folder's drawn cards right after it.
   * @param {string[]} ids
   * @returns {string[]}
   */
  readingOrder(ids) {
    if (this.folderLists.size === 0) return ids;
    /** @type {string[]} */
    const out = [];
    /** @param {string[]} list @param {number} depth */
    const add = (list, depth) => {
      for (const id of list) {
        out.push(id);
        const folder = this.folderLists.get(id);
        if (folder && depth < MAX_DEPTH) add(folder.ids, depth + 1);
      }
    };
    add(ids, 1);
    return out;
  }

  /**
   * The cards of a column in the board's order (drawn or not).
   * @param {string} collectionId
   * @returns {string[]}
   */
  idsOf(collectionId) {
    return this.listElements(collectionId)?.ids ?? [];
  }

  /**
   * After a card was moved in the DOM by someone other than the view (a keyboard move shows
   * the card in hand at its slot): the next render puts every column in order again.
   */
  displaced() {
    for (const column of this.columns.values()) column.displaced = true;
    for (const folder of this.folderLists.values()) folder.displaced = true;
  }

  /**
   * The card or spacer before `element` in its list (placeholders, ghosts and drafts are neither).
   * @param {Element} element
   * @returns {Element | null}
   */
  previousShown(element) {
    let node = element.previousElementSibling;
    while (node && !node.classList.contains("card") && !node.classList.contains("card-spacer")) node = node.previousElementSibling;
    return node;
  }

  /**
   * @param {Collection} collection
   * @returns {ColumnElements}
   */
  column(collection) {
    let column = this.columns.get(collection.id);
    if (column) return column;
    const element = document.createElement("section");
    element.className = "column";
    element.dataset.collectionId = collection.id;
    const header = document.createElement("header");
    header.className = "column-header";
    // The handle a column is dragged by (column-drag.js), and its menu (column-menu.js).
    const grip = button("icon-button column-grip", "⠿");
    const menu = button("icon-button column-menu", "⋯");
    menu.setAttribute("aria-haspopup", "menu");
    const title = document.createElement("h2");
    title.className = "column-title";
    title.tabIndex = 0;
    title.title = "Rename";
    const count = document.createElement("span");
    count.className = "column-count";
    const remove = button("icon-button column-remove", "×");
    header.append(grip, title, count, remove, menu);
    const list = document.createElement("ol");
    list.className = "cards";
    const add = button("add-card", "+ Add a card");
    const addFolder = button("add-folder", "+ Folder");
    const adders = document.createElement("div");
    adders.className = "column-adders";
    // "+ Add a card" last: Shift+Tab from "+ Add a column" reaches the new column's first.
    adders.append(addFolder, add);
    element.append(header, list, adders);
    column = { element, title, count, remove, grip, menu, list, add, addFolder, ids: [], shown: [], spacers: [], gaps: [], row: ROW_GUESS, gap: 0, first: 0, last: -1, displaced: false, folder: false };
    this.columns.set(collection.id, column);
    return column;
  }

  /**
   * @param {ColumnElements} column
   * @param {Collection} collection
   * @param {boolean} editable
   */
  updateColumn(column, collection, editable) {
    if (!column.title.isContentEditable && column.title.textContent !== collection.title) column.title.textContent = collection.title;
    const count = String(collection.items.length);
    if (column.count.textContent !== count) column.count.textContent = count;
    if (column.list.getAttribute("aria-label") !== collection.title) {
      column.list.setAttribute("aria-label", collection.title);
      column.remove.setAttribute("aria-label", `Remove the empty column ${collection.title}`);
      column.grip.setAttribute("aria-label", `Move the column ${collection.title}`);
      column.menu.setAttribute("aria-label", `Column ${collection.title}: actions`);
    }
    if (column.grip.hidden === editable) {
      column.grip.hidden = !editable;
      column.menu.hidden = !editable;
    }
    const removable = editable && collection.items.length === 0;
    if (column.remove.hidden === removable) column.remove.hidden = !removable;
    if (column.add.hidden === editable) {
      column.add.hidden = !editable;
      column.addFolder.hidden = !editable;
    }
  }

  /**
   * Makes or updates the card of `item`; true when what it shows changed (its height may have).
   * A folder's card also shows how many items it holds (`size`) and whether it is `open`.
   * @param {Item} item
   * @param {number} [size]
   * @param {boolean} [open]
   * @returns {boolean}
   */
  drawCard(item, size = 0, open = false) {
    let drawn = this.drawn.get(item.id);
    if (!drawn) {
      const card = document.createElement("li");
      card.className = "card";
      card.tabIndex = 0;
      card.dataset.itemId = item.id;
      card.setAttribute("aria-roledescription", "card");
      const label = document.createElement("span");
      label.className = "card-label";
      const menu = document.createElement("button");
      menu.type = "button";
      menu.className = "icon-button card-menu";
      menu.textContent = "⋯";
      menu.tabIndex = -1;
      // The card's native drag handle, to another board, tab or app (drag-out.js).
      const grip = document.createElement("span");
      grip.className = "card-grip";
      grip.draggable = true;
      grip.textContent = "⠿";
      grip.title = "Drag to another board, tab or app";
      grip.setAttribute("aria-hidden", "true");
      card.append(grip, label, menu);
      this.cards.set(item.id, card);
      drawn = { label, menu, text: "", accent: null, link: null, folder: null };
      this.drawn.set(item.id, drawn);
    }
    const card = /** @type {HTMLLIElement} */ (this.cards.get(item.id));
    let changed = false;
    // Compared with what was drawn, not read from the DOM: a render looks at every card of the
    // board, and 10,000 DOM reads cost more than the rest of it. An open editor's text belongs
    // to the person typing; it is drawn once they are done (the editor leaves the label as the
    // board has it, or sends the change that this then draws).
    if (drawn.text !== item.label && !drawn.label.isContentEditable) {
      drawn.label.textContent = item.label;
      drawn.menu.setAttribute("aria-label", `Actions for ${item.label}`);
      drawn.text = item.label;
      changed = true;
    }
    if (this.drawLink(card, drawn, item.data?.url)) changed = true;
    if ((item.folder || drawn.folder) && this.drawFolder(card, drawn, item, size, open)) changed = true;
    const color = item.data?.color;
    const accent = typeof color === "string" && /^#[0-9a-f]{3,8}$|^[a-z]+$/i.test(color) ? color : null;
    if (accent !== drawn.accent) {
      if (accent) card.style.setProperty("--card-accent", accent);
      else card.style.removeProperty("--card-accent");
      drawn.accent = accent;
    }
    return changed;
  }

  /**
   * The folder's part of its card: the toggle (▸ closed, ▾ open: `aria-expanded`), the folder
   * mark, the count of what it holds, and whether it takes drops (`data-accepts`). An item
   * that stops being a folder (it never does today) loses them. True when any changed.
   * @param {HTMLElement} card
   * @param {DrawnCard} drawn
   * @param {Item} item
   * @param {number} size
   * @param {boolean} open
   */
  drawFolder(card, drawn, item, size, open) {
    if (!item.folder) {
      drawn.folder?.toggle.remove();
      drawn.folder?.count.remove();
      card.classList.remove("folder");
      card.removeAttribute("aria-expanded");
      drawn.folder = null;
      return true;
    }
    let folder = drawn.folder;
    let changed = false;
    if (!folder) {
      const toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "icon-button folder-toggle";
      // Like the menu button, out of the tab order: a focused folder opens and closes with
      // the O key or its menu.
      toggle.tabIndex = -1;
      const count = document.createElement("span");
      count.className = "folder-count";
      drawn.label.before(toggle);
      drawn.label.after(count);
      card.classList.add("folder");
      card.setAttribute("aria-roledescription", "folder");
      folder = { toggle, count, open: null, accepts: null, size: -1, name: "" };
      drawn.folder = folder;
      changed = true;
    }
    if (folder.open !== open || changed) {
      folder.toggle.setAttribute("aria-expanded", String(open));
      card.setAttribute("aria-expanded", String(open));
      card.classList.toggle("open", open);
      folder.open = open;
      changed = true;
    }
    const name = `${open ? "Close" : "Open"} ${item.label}`;
    if (folder.name !== name) {
      folder.toggle.setAttribute("aria-label", name);
      folder.name = name;
    }
    if (folder.size !== size) {
      folder.count.textContent = String(size);
      folder.count.title = size === 1 ? "1 item inside" : `${size} items inside`;
      folder.size = size;
      changed = true;
    }
    if (folder.accepts !== item.folder.accepts) {
      card.dataset.accepts = String(item.folder.accepts);
      folder.accepts = item.folder.accepts;
    }
    return changed;
  }

  /**
   * A card whose data holds a web link (a link dropped on the board) shows it under its label,
   * as its host, opening in a new tab; any other `url` is not shown (it may be anything).
   * True when the link was added, changed or removed.
   * @param {HTMLElement} card
   * @param {DrawnCard} drawn
   * @param {unknown} url
   */
  drawLink(card, drawn, url) {
    const href = webLink(url) ? url : null;
    if ((drawn.link?.href ?? null) === (href === null ? null : new URL(href).href)) return false;
    if (href === null) {
      drawn.link?.remove();
      drawn.link = null;
      return true;
    }
    if (!drawn.link) {
      drawn.link = document.createElement("a");
      drawn.link.className = "card-link";
      drawn.link.target = "_blank";
      drawn.link.rel = "noopener noreferrer";
      drawn.link.tabIndex = -1;
      card.append(drawn.link);
    }
    drawn.link.href = href;
    drawn.link.textContent = new URL(href).host;
    drawn.link.title = href;
    return true;
  }

  /**
   * Marks the selected cards (after the selection changed without a render); only those whose
   * mark changes are touched. A card is a list item, which `aria-selected` is not allowed on
   * (a listbox's options would be, but an option may hold no button): a screen reader hears
   * "selected" from words only it reads, after the card's text, and the count when the
   * selection changes (selection.js).
   */
  showSelection() {
    for (const card of /** @type {NodeListOf<HTMLElement>} */ (this.root.querySelectorAll("li.card.selected"))) {
      if (!this.selected.has(/** @type {string} */ (card.dataset.itemId))) {
        card.classList.remove("selected");
        card.querySelector(":scope > .selected-mark")?.remove();
      }
    }
    for (const id of this.selected) {
      const card = this.cards.get(id);
      if (!card || card.classList.contains("selected")) continue;
      card.classList.add("selected");
      const mark = document.createElement("span");
      mark.className = "visually-hidden selected-mark";
      mark.textContent = ", selected";
      card.append(mark);
    }
  }

  /** @param {boolean} editable */
  placeAddColumnButton(editable) {
    if (!this.addColumnButton) {
      this.addColumnButton = document.createElement("button");
      this.addColumnButton.type = "button";
      this.addColumnButton.className = "add-column";
      this.addColumnButton.textContent = "+ Add a column";
    }
    this.addColumnButton.hidden = !editable;
    if (this.root.lastElementChild !== this.addColumnButton) this.root.append(this.addColumnButton);
  }

  // MARK: Presence of others

  /**
   * Marks cards others hold and shows their placeholders as ghost slots. Only what changed is
   * touched: a card held before and still held by the same person keeps its mark, and a ghost
   * already at its slot stays.
   * @param {Peer[]} peers
   * @param {Board | null} board
   */
  showPresence(peers, board) {
    /** @type {Map<string, Peer>} */
    const holders = new Map();
    for (const peer of peers) for (const id of peer.drag?.items ?? []) if (this.cards.has(id)) holders.set(id, peer);
    for (const id of this.held) {
      const card = this.cards.get(id);
      const peer = holders.get(id);
      if (card && peer && card.dataset.heldBy === peer.client) continue;
      this.held.delete(id);
      if (!card) continue;
      card.classList.remove("held");
      delete card.dataset.heldBy;
      card.style.removeProperty("--holder-color");
      card.style.removeProperty("--holder-ink");
      card.querySelector(".held-badge")?.remove();
    }
    for (const [id, peer] of holders) {
      if (this.held.has(id)) continue;
      const card = /** @type {HTMLLIElement} */ (this.cards.get(id));
      card.classList.add("held");
      card.dataset.heldBy = peer.client;
      const color = colourOf(peer);
      card.style.setProperty("--holder-color", color);
      card.style.setProperty("--holder-ink", inkOn(color));
      const badge = document.createElement("span");
      badge.className = "held-badge";
      badge.textContent = peer.name;
      card.append(badge);
      this.held.add(id);
    }
    /** @type {Set<string>} */
    const shown = new Set();
    for (const peer of peers) {
      const over = peer.drag?.over;
      // A column, or a folder drawn open (a closed one shows no ghost: its cards are not drawn).
      // A drag of columns names no list: remote-columns.js shows it.
      const list = over?.collection;
      const column = list && this.listElements(list);
      if (!peer.drag || !over || !list || !column || !board) continue;
      shown.add(peer.client);
      let ghost = this.ghosts.get(peer.client);
      if (!ghost) {
        ghost = document.createElement("li");
        ghost.className = "ghost-slot";
        ghost.dataset.client = peer.client;
        ghost.setAttribute("aria-hidden", "true");
        this.ghosts.set(peer.client, ghost);
      }
      // A drag of several cards says how many (and stands taller): a one-card outline made a
      // four-card drag look like one card coming.
      const carried = peer.drag.items.length;
      const text = carried > 1 ? `${peer.name} · ${carried} cards` : peer.name;
      if (ghost.textContent !== text) {
        ghost.textContent = text;
        ghost.dataset.count = String(carried);
        ghost.style.setProperty("--holder-color", colourOf(peer));
        ghost.style.setProperty("--ghost-cards", String(Math.min(carried, 3)));
      }
      // Of type `string | undefined` because a card still being written (a draft) has no id.
      /** @type {Set<string | undefined>} */
      const dragged = new Set(peer.drag.items);
      const next = this.slotNode(list, over.index, dragged);
      if (ghost.parentNode !== column.list || this.nextShown(ghost) !== next) column.list.insertBefore(ghost, next);
    }
    for (const [client, ghost] of this.ghosts) {
      if (shown.has(client)) continue;
      ghost.remove();
      this.ghosts.delete(client);
    }
  }

  /**
   * The card at `index` of a column with `excluded` cards left out (null: past its end), from
   * the board's order.
   * @param {ListElements} column
   * @param {number} index
   * @param {Set<string | undefined>} excluded
   * @returns {HTMLLIElement | null}
   */
  cardAtSlot(column, index, excluded) {
    let at = -1;
    for (const id of column.ids) {
      if (excluded.has(id)) continue;
      at += 1;
      if (at === index) return this.cards.get(id) ?? null;
    }
    return null;
  }

  /**
   * What to insert a placeholder (or the card in hand) before so that it shows at `index` of
   * the column with `excluded` left out: the card there, or when a long column does not draw
   * it, the spacer standing for it; null at the column's end.
   * @param {string} collectionId
   * @param {number} index
   * @param {Set<string | undefined>} excluded
   * @returns {HTMLElement | null}
   */
  slotNode(collectionId, index, excluded) {
    const column = this.listElements(collectionId);
    const card = column ? this.cardAtSlot(column, index, excluded) : null;
    if (!column || !card || card.parentNode === column.list) return card;
    const at = column.ids.indexOf(/** @type {string} */ (card.dataset.itemId));
    return column.gaps.find((gap) => gap.from <= at && at <= gap.to)?.spacer ?? null;
  }

  /**
   * The index, among a column's cards with `excluded` left out, of the slot before the drawn
   * card `drawn[at]` (after the last drawn one when `at` is past them): in a long column the
   * drawn cards are a window, and the board's index is not their index in it.
   * @param {string} collectionId
   * @param {HTMLElement[]} drawn the column's drawn cards without `excluded`, in order
   * @param {number} at
   * @param {Set<string | undefined>} excluded
   */
  slotIndex(collectionId, drawn, at, excluded) {
    const column = this.listElements(collectionId);
    if (!column || column.folder || column.ids.length <= WINDOW_AFTER) return at;
    const rest = column.ids.filter((id) => !excluded.has(id));
    if (at < drawn.length) return Math.max(0, rest.indexOf(/** @type {string} */ (drawn[at].dataset.itemId)));
    return drawn.length === 0 ? 0 : rest.indexOf(/** @type {string} */ (drawn[drawn.length - 1].dataset.itemId)) + 1;
  }

  /**
   * The card or spacer after `node` in its list (placeholders, ghosts and drafts are neither).
   * @param {Element} node
   * @returns {Element | null}
   */
  nextShown(node) {
    let next = node.nextElementSibling;
    while (next && !next.classList.contains("card") && !next.classList.contains("card-spacer")) next = next.nextElementSibling;
    return next;
  }

  // MARK: Animation

  /**
   * Where the cards of `lists` that are on the screen are: only they can be seen to glide.
   * The first and last on the screen are found by halving (the cards are in a column, top to
   * bottom), so a column of thousands costs a few measurements, not thousands.
   * @param {Iterable<HTMLElement>} lists
   * @returns {Map<string, DOMRect>}
   */
  cardRects(lists) {
    const rects = new Map();
    for (const list of lists) {
      const children = list.children;
      const box = list.getBoundingClientRect();
      const top = Math.max(box.top, 0);
      const bottom = Math.min(box.bottom, innerHeight);
      if (box.right < 0 || box.left > innerWidth || bottom < top) continue;
      // The first child whose bottom is below the top of what is seen.
      let low = 0;
      let high = children.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (children[middle].getBoundingClientRect().bottom < top) low = middle + 1;
        else high = middle;
      }
      for (let at = low; at < children.length; at += 1) {
        const child = /** @type {HTMLElement} */ (children[at]);
        const rect = child.getBoundingClientRect();
        // A lifted card is not drawn (display none: an empty rect): it says nothing of where the rest are.
        if (rect.top > bottom && rect.height > 0) break;
        if (child.classList.contains("card") && child.dataset.itemId) rects.set(child.dataset.itemId, rect);
      }
    }
    return rects;
  }

  /**
   * FLIP: every card measured before that moved starts where it was and glides to where it is.
   * @param {Map<string, DOMRect>} before
   */
  animateFrom(before) {
    if (before.size === 0 || prefersReducedMotion()) return;
    // Every card is measured before any starts to glide: an animation started dirties the
    // style, and a measurement after it restyled the page again, once per card.
    /** @type {{ card: HTMLLIElement, dx: number, dy: number }[]} */
    const glides = [];
    for (const [id, old] of before) {
      const card = this.cards.get(id);
      // A card that was not drawn (lifted: display none) has an empty rect at the window's
      // corner, and a landing one is drawn by the drag's avatar flying in: neither glides.
      if (!card || !card.isConnected || (old.width === 0 && old.height === 0) || card.classList.contains("lifted") || card.classList.contains("landing")) continue;
      const now = card.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) >= 1 || Math.abs(dy) >= 1) glides.push({ card, dx, dy });
    }
    for (const { card, dx, dy } of glides) {
      card.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
        duration: MOVE_ANIMATION_MS,
        easing: "cubic-bezier(0.2, 0, 0, 1)",
      });
    }
  }

  /**
   * Runs `change` (which moves DOM nodes around in `lists`) and animates the cards it displaced.
   * @param {() => void} change
   * @param {Iterable<HTMLElement>} lists the lists whose cards it can move
   */
  animateChange(change, lists) {
    // Inside another change (a drop: the drag's end, then the move drawn), the outer one measures and animates.
    if (this.changing) return change();
    const before = this.cardRects(lists);
    this.changing = true;
    try {
      change();
    } finally {
      this.changing = false;
    }
    this.animateFrom(before);
    return undefined;
  }

  // MARK: Lookup

  /**
   * The column under a point of the viewport (a little above and below it counts).
   * @param {number} x
   * @param {number} y
   * @returns {{ id: string, column: ColumnElements } | null}
   */
  columnAt(x, y) {
    for (const [id, column] of this.columns) {
      const rect = column.element.getBoundingClientRect();
      if (x >= rect.left && x <= rect.right && y >= rect.top - 8 && y <= rect.bottom + 8) return { id, column };
    }
    return null;
  }

  /**
   * The open folder whose list (drawn in `list`, as one of its cards) is under a point, if
   * `mayEnter` lets cards go there; the cards in hand are never entered.
   * @param {ListElements} list
   * @param {number} x
   * @param {number} y
   * @param {Set<string | undefined>} excluded
   * @param {(folderId: string) => boolean} mayEnter
   * @returns {{ id: string, folder: ListElements } | null}
   */
  openFolderAt(list, x, y, excluded, mayEnter) {
    for (const child of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.list.children)) {
      const id = child.dataset.itemId;
      if (!id || !child.classList.contains("open") || excluded.has(id) || child.classList.contains("lifted")) continue;
      const folder = this.folderLists.get(id);
      if (!folder) continue;
      const rect = folder.list.getBoundingClientRect();
      if (x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom && mayEnter(id)) return { id, folder };
    }
    return null;
  }

  /**
   * The folder card whose own part (not its open list) is under a point, among the cards of
   * `list` that are not in hand.
   * @param {ListElements} list
   * @param {number} x
   * @param {number} y
   * @param {Set<string | undefined>} excluded
   * @returns {string | null}
   */
  folderCardAt(list, x, y, excluded) {
    for (const child of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.list.children)) {
      const id = child.dataset.itemId;
      if (!id || !child.classList.contains("folder") || excluded.has(id)) continue;
      const rect = child.getBoundingClientRect();
      if (x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom) return id;
    }
    return null;
  }

  /**
   * The slot under a point of the viewport, as a drag shows it: the column there (columnAt),
   * or the open folder's list there when `mayEnter` lets the cards in (the innermost), the
   * index in it with `excluded` left out (before the first drawn card whose middle is below
   * the point), and the node a placeholder goes before to show there (null: the end). `onFolder`
   * is the folder card under the point, if any (a drop may go into it). Shared by the pointer
   * drag and drops from outside the board, so both land alike.
   * @param {number} x
   * @param {number} y
   * @param {Set<string | undefined>} excluded the cards in hand (none for a drop from outside)
   * @param {(folderId: string) => boolean} [mayEnter] whether the cards may go into a folder
   *   (by default: one that takes drops)
   * @returns {{ collection: string, list: HTMLOListElement, index: number, next: HTMLElement | null,
   *   onFolder: string | null } | null}
   */
  slotAt(x, y, excluded, mayEnter = (id) => this.drawn.get(id)?.folder?.accepts !== false) {
    const column = this.columnAt(x, y);
    if (!column) return null;
    /** @type {{ id: string, column: ListElements }} */
    let hit = column;
    for (let depth = 1; depth < MAX_DEPTH; depth += 1) {
      const inner = this.openFolderAt(hit.column, x, y, excluded, mayEnter);
      if (!inner) break;
      hit = { id: inner.id, column: inner.folder };
    }
    const onFolder = this.folderCardAt(hit.column, x, y, excluded);
    const cards = this.visibleCards(hit.id, excluded);
    // The first card whose middle is below the point, found by halving (cards are in order).
    const at = stackedSlotIndex(cards.length, (index) => cards[index].getBoundingClientRect(), y);
    const index = this.slotIndex(hit.id, cards, at, excluded);
    return { collection: hit.id, list: hit.column.list, index, next: cards[at] ?? this.slotNode(hit.id, index, excluded), onFolder };
  }

  /**
   * Cards of a column as shown, without `excluded` ids.
   * @param {string} collectionId
   * @param {Set<string | undefined>} excluded (a card still being written has no id yet)
   * @returns {HTMLElement[]}
   */
  visibleCards(collectionId, excluded) {
    const column = this.listElements(collectionId);
    if (!column) return [];
    return /** @type {HTMLElement[]} */ ([...column.list.children]).filter((el) => el.classList.contains("card") && !excluded.has(el.dataset.itemId));
  }
}
