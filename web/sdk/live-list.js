// @ts-check
// liveList: makes one list element show one collection of a live board and lets people
// reorder it by pointer and keyboard, the way Sortable.create(el) does for a local list, but
// shared: every change goes to the server as a move, and everyone else's changes and drags
// show up in the list as they happen.
//
//   const list = liveList(document.querySelector("ol"), { live, collection: "songs",
//     render: (item, li) => { li.textContent = item.label; } });
//   list.destroy();
//
// The binding owns the element's children: one per item, keyed by id and kept (so focus, text
// selection and running animations survive every update), rendered again only when that
// item's label or data changed. The CSS classes it sets are listed in docs/sdk.md#livelist.

import { ListDrag } from "./live-list-drag.js";
import { OthersDrags } from "./live-list-others.js";

/** @typedef {{ id: string, label: string, data?: Record<string, unknown> | null }} ListItem */
/** @typedef {{ id: string, title: string, items: ListItem[] }} ListCollection */
/** @typedef {{ id: string, locked: boolean, collections: ListCollection[] }} ListBoard */
/** @typedef {{ collection: string, index: number, before?: string | null }} ListPlaceholder */
/** @typedef {{ client: string, name: string, drag: { items: string[], over: ListPlaceholder | null } | null }} ListPeer */
/**
 * What the binding needs of a live board (what `connect` returns): the board to show, the
 * people on it, its events, a move, and drag presence.
 * @typedef {EventTarget & {
 *   board: ListBoard | null,
 *   me: { client: string, name: string, role: string } | null,
 *   peers: Map<string, ListPeer>,
 *   move(sources: string[], destination: { collection: string, before: string | null }): Promise<unknown>,
 *   startDrag(items: string[]): void,
 *   dragOver(collection: string, index: number): void,
 *   endDrag(): void,
 * }} LiveBoardLike
 */
/**
 * @typedef {object} LiveListOptions
 * @property {LiveBoardLike} live the live board, from `connect`
 * @property {string} collection the id of the collection this element shows
 * @property {(item: ListItem, element: HTMLElement) => void} render fills an item's element
 *   (made by the binding, carrying `data-id`); called again when the item's label or data changes
 * @property {string | null} [handle] a CSS selector: only a press on this part of an item picks it up
 *   (at once, on touch too); without it the whole item does, and on touch only after a press-and-hold
 * @property {number} [holdDelay] how long a touch must rest on an item to pick it up, in ms (250)
 * @property {(item: ListItem) => string} [describe] how an item is named to screen readers (its label)
 */

let lists = 0;

/**
 * @param {HTMLElement} element a list element (`ol`, `ul`, or any container)
 * @param {LiveListOptions} options
 * @returns {{ destroy(): void }}
 */
export function liveList(element, options) {
  const list = new LiveList(element, options);
  return { destroy: () => list.destroy() };
}

/** One bound list element. Its drags (pointer and keyboard, on the drag engine) and the others' drags are its parts. */
export class LiveList {
  /**
   * @param {HTMLElement} element
   * @param {LiveListOptions} options
   */
  constructor(element, { live, collection, render, handle = null, holdDelay = 250, describe }) {
    this.element = element;
    this.live = live;
    this.collection = collection;
    this.render = render;
    this.handle = handle;
    this.holdDelay = holdDelay;
    this.describeItem = describe ?? ((/** @type {ListItem} */ item) => item.label);
    this.itemTag = element.tagName === "OL" || element.tagName === "UL" ? "li" : "div";
    /**
     * The items' elements by id, with what they were last rendered from.
     * @type {Map<string, { element: HTMLElement, rendered: string }>}
     */
    this.entries = new Map();
    lists += 1;
    this.help = hiddenText(`cb-live-list-help-${lists}`,
      "Press Space to pick up, the arrow keys to move, Space to drop, Escape to cancel.");
    this.announcer = hiddenText(`cb-live-list-announcer-${lists}`, "");
    this.announcer.setAttribute("aria-live", "assertive");
    document.body.append(this.help, this.announcer);
    element.classList.add("cb-list");
    if (this.itemTag === "div") element.setAttribute("role", "list");

    this.drag = new ListDrag(this);
    this.others = new OthersDrags(this);
    this.onBoard = () => this.draw();
    this.onPresence = () => this.others.draw();
    // The server let go of our drag (held longer than --max-drag-seconds): it ends here too.
    this.onDragEnded = () => this.abortLift("The server ended your move.");
    this.onRejected = (/** @type {Event} */ event) => {
      const detail = /** @type {{ message?: string, ref?: string, holder?: string }} */ (/** @type {CustomEvent} */ (event).detail ?? {});
      if (detail.ref !== "drag.start") return;
      const holder = detail.holder ? this.live.peers.get(detail.holder)?.name : undefined;
      this.abortLift(holder ? `${holder} is holding it.` : (detail.message ?? "Someone else is holding it."));
    };
    live.addEventListener("board", this.onBoard);
    live.addEventListener("presence", this.onPresence);
    live.addEventListener("drag-ended", this.onDragEnded);
    live.addEventListener("rejected", this.onRejected);
    this.draw();
  }

  /** The collection as the live board shows it now (with this tab's pending operations). */
  get items() {
    return this.live.board?.collections.find((c) => c.id === this.collection)?.items ?? [];
  }

  /** Why this person may not reorder now, in words; null when they may. */
  get refusal() {
    if (!this.live.board) return "The list is not loaded yet.";
    if (!this.live.board.collections.some((c) => c.id === this.collection)) return "This list is no longer on the board.";
    if (this.live.me?.role === "viewer") return "You can view this list but not change it.";
    if (this.live.board.locked) return "The board is locked.";
    return null;
  }

  /**
   * The name of whoever else holds `id`, or null.
   * @param {string} id
   */
  holderOf(id) {
    for (const peer of this.live.peers.values()) if (peer.drag?.items.includes(id)) return peer.name;
    return null;
  }

  /**
   * Says `text` to screen readers.
   * @param {string} text
   */
  announce(text) {
    this.announcer.textContent = text;
  }

  /** @param {string[]} ids */
  describe(ids) {
    const names = ids.map((id) => {
      const item = this.items.find((i) => i.id === id);
      return item ? this.describeItem(item) : id;
    });
    return names.join(", ");
  }

  /**
   * The items' elements in board order, without `excluded` ids.
   * @param {Set<string>} [excluded]
   */
  itemElements(excluded = new Set()) {
    /** @type {HTMLElement[]} */
    const elements = [];
    for (const item of this.items) {
      const entry = this.entries.get(item.id);
      if (entry && !excluded.has(item.id)) elements.push(entry.element);
    }
    return elements;
  }

  /**
   * The id a move must name as `before` to land at `index` of the list with `moving` left
   * out (null: the end), as the board is now.
   * @param {number} index
   * @param {Set<string>} moving
   */
  anchorAt(index, moving) {
    return this.items.filter((i) => !moving.has(i.id))[index]?.id ?? null;
  }

  /** The list as the board has it: elements made, re-rendered, reordered or removed, then the drags drawn again. */
  draw() {
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    const hadFocus = focused !== null && focused !== this.element && this.element.contains(focused);
    this.drag.takeOut();
    this.others.takeOut();
    const items = this.items;
    const live = new Set(items.map((i) => i.id));
    for (const [id, entry] of this.entries) {
      if (!live.has(id)) {
        entry.element.remove();
        this.entries.delete(id);
      }
    }
    const owned = new Set([...this.entries.values()].map((e) => e.element));
    for (const child of [...this.element.children]) if (!owned.has(/** @type {HTMLElement} */ (child))) child.remove();
    for (const item of items) this.renderItem(item);
    arrange(this.element, items.map((i) => /** @type {HTMLElement} */ (this.entries.get(i.id)?.element)));
    this.drag.restore();
    this.others.draw();
    // Moving a node takes the focus away from it: give it back, so a keyboard user whose item
    // someone else moved keeps their place.
    if (hadFocus && document.activeElement !== focused && this.element.contains(focused)) focused.focus({ preventScroll: true });
  }

  /** @param {ListItem} item */
  renderItem(item) {
    let entry = this.entries.get(item.id);
    if (!entry) {
      const element = document.createElement(this.itemTag);
      element.dataset.id = item.id;
      element.classList.add("cb-item");
      element.tabIndex = 0;
      element.setAttribute("aria-describedby", this.help.id);
      if (this.itemTag === "div") element.setAttribute("role", "listitem");
      entry = { element, rendered: "" };
      this.entries.set(item.id, entry);
    }
    const rendered = JSON.stringify([item.label, item.data ?? null]);
    if (entry.rendered === rendered) return;
    entry.rendered = rendered;
    this.render(item, entry.element);
    // A handle must not scroll the page under a finger: the drag owns that touch.
    if (this.handle) for (const handle of entry.element.querySelectorAll(this.handle)) /** @type {HTMLElement} */ (handle).style.touchAction = "none";
  }

  /**
   * Our own drag was ended by the server or refused: put everything back, without a drag.end.
   * @param {string} why
   */
  abortLift(why) {
    if (this.drag.abort()) {
      this.announce(`Move ended. ${why}`);
      this.draw();
    }
  }

  destroy() {
    this.drag.destroy();
    this.others.takeOut();
    this.live.removeEventListener("board", this.onBoard);
    this.live.removeEventListener("presence", this.onPresence);
    this.live.removeEventListener("drag-ended", this.onDragEnded);
    this.live.removeEventListener("rejected", this.onRejected);
    this.help.remove();
    this.announcer.remove();
    this.element.classList.remove("cb-list");
  }
}

/**
 * Puts `wanted` in this order as the element's children, moving as few as it can: the
 * longest run already in order stays put, so a single move touches a single node.
 * @param {HTMLElement} parent
 * @param {HTMLElement[]} wanted
 */
function arrange(parent, wanted) {
  const position = new Map([...parent.children].map((child, index) => [child, index]));
  const keep = longestIncreasingRun(wanted.map((element) => position.get(element) ?? -1));
  /** @type {HTMLElement | null} */
  let next = null;
  for (let index = wanted.length - 1; index >= 0; index--) {
    const element = wanted[index];
    if (!keep.has(index) || element.parentNode !== parent) parent.insertBefore(element, next);
    next = element;
  }
}

/**
 * The indices of a longest strictly increasing subsequence of `values` (-1s never count).
 * @param {number[]} values
 * @returns {Set<number>}
 */
function longestIncreasingRun(values) {
  /** @type {number[]} */
  const tails = []; // tails[k]: index in values of the smallest tail of a run of length k+1
  /** @type {number[]} */
  const previous = new Array(values.length).fill(-1);
  values.forEach((value, index) => {
    if (value < 0) return;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (values[tails[middle]] < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1];
    tails[low] = index;
  });
  const run = new Set();
  for (let index = tails.length ? tails[tails.length - 1] : -1; index >= 0; index = previous[index]) run.add(index);
  return run;
}

/**
 * An element only screen readers see.
 * @param {string} id
 * @param {string} text
 */
function hiddenText(id, text) {
  const element = document.createElement("div");
  element.id = id;
  element.textContent = text;
  element.style.cssText = "position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap";
  return element;
}
