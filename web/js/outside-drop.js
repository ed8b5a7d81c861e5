// @ts-check
// Drops from outside the board: text, links and files dragged from another app or tab onto a
// column become cards where they land, as SwiftUI's dropDestination with reorderDestination
// says `.before(id)` or `.end`. The same placeholder as the pointer drag shows the place
// while the drag is over a column, found by the same lookup (view.slotAt); the drop is one
// `insert` before the card there, or at the column's end. What the data becomes:
// dropped-cards.js.
//
// Cards dragged out of another Corkboard page of this server (drag-out.js) move here instead:
// from another board, through transfers.js (an insert here, a delete there; Alt copies);
// from another tab of this board, or by a card's grip (⠿) within this page, as one move.
//
// This is HTML5 drag and drop, beside the page's Pointer Events drag (board-drag.js), which
// stays the way cards move within the page (touch included): the page's cards are not
// draggable, a drag that starts in this page elsewhere than on a grip (a link in the header,
// text selected in an editor) is left to the browser, and so is any drag while a card is in
// hand. No presence is sent (no drag.start): the others see the cards once they are moved.

import { anchorAt, findCollection, findItem } from "../sdk/replica.js";
import { cardDrafts, carriesCards } from "./dropped-cards.js";
import { listName } from "./folders.js";
import { newCardId } from "./editing.js";
import { CORKBOARD_TYPE, readPayload } from "./drag-out.js";
import { transferPlan } from "./transfers.js";

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {import("./dropped-cards.js").DroppedData} DroppedData */
/**
 * Where the dropped cards will land: the index in that column.
 * @typedef {{ collection: string, index: number }} DropTarget
 */

/** Nothing is in hand during a drop from outside: every card counts for the slot. */
const NONE = new Set();

export class OutsideDrop {
  /**
   * @param {PageParts} parts
   * @param {() => boolean} busy true while a card is in hand (pointer or keyboard move)
   * @param {import("./transfers.js").Transfers} transfers where cards from another board go
   */
  constructor({ session, view, announcer, notices }, busy, transfers) {
    this.session = session;
    this.transfers = transfers;
    this.view = view;
    this.announcer = announcer;
    this.notices = notices;
    this.busy = busy;
    this.placeholder = document.createElement("li");
    this.placeholder.className = "placeholder";
    this.placeholder.setAttribute("aria-hidden", "true");
    /** @type {DropTarget | null} */
    this.target = null;
    /**
     * True from a dragstart in this page to its dragend: that drag is not from outside. A
     * card's grip is the exception: its drag over the board moves the cards here, as from
     * another tab of this board (a grip that looked like a handle and then did nothing was a trap).
     */
    this.fromPage = false;
    /** The read-only notice was shown for this drag (once, not at every dragover). */
    this.refusedShown = false;
    /** @type {number | undefined} */
    this.leaving = undefined;
    document.addEventListener("dragstart", (event) => (this.fromPage = !isGrip(view.root, event.target)), true);
    document.addEventListener("dragend", () => (this.fromPage = false), true);
    const root = view.root;
    // dragenter and dragover both have to be cancelled for the browser to allow a drop.
    root.addEventListener("dragenter", (event) => this.over(event));
    root.addEventListener("dragover", (event) => this.over(event));
    root.addEventListener("dragleave", () => this.left());
    root.addEventListener("drop", (event) => this.dropped(event));
    window.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.placeholder.isConnected) this.end();
    });
  }

  /**
   * A drag this module answers: from outside the page, carrying what can become cards, while
   * no card is in hand.
   * @param {DragEvent} event
   * @returns {event is DragEvent & { dataTransfer: DataTransfer }}
   */
  ours(event) {
    return !this.fromPage && !this.busy() && event.dataTransfer !== null && carriesCards(event.dataTransfer.types);
  }

  /** @param {DragEvent} event */
  over(event) {
    if (!this.ours(event)) return;
    // Answered here even where nothing can land: a file let go on the board must not open in the tab.
    event.preventDefault();
    clearTimeout(this.leaving);
    if (!this.session.canEdit) {
      event.dataTransfer.dropEffect = "none";
      this.hidePlaceholder();
      if (!this.refusedShown) this.refuse();
      return;
    }
    const slot = this.view.slotAt(event.clientX, event.clientY, NONE);
    // Corkboard cards move unless Alt asks for a copy; anything else is copied in.
    const cards = event.dataTransfer.types.includes(CORKBOARD_TYPE);
    event.dataTransfer.dropEffect = !slot ? "none" : cards ? (event.altKey ? "copy" : "move") : dropEffectFor(event.dataTransfer.effectAllowed);
    if (!slot) return this.hidePlaceholder();
    const target = { collection: slot.collection, index: slot.index };
    if (this.target && this.target.collection === target.collection && this.target.index === target.index) return undefined;
    this.target = target;
    if (!this.placeholder.isConnected) this.placeholder.style.height = cardHeight(slot.list);
    this.view.animateChange(() => slot.list.insertBefore(this.placeholder, slot.next), this.lists(slot.list));
    return undefined;
  }

  /**
   * dragleave fires at every element the drag leaves, also inside the board, and a drag
   * leaving the window names no element it went to: the drag has left the board when no
   * dragenter or dragover of the board follows in the same step (they come in one task).
   */
  left() {
    clearTimeout(this.leaving);
    this.leaving = setTimeout(() => this.end(), 0);
  }

  /** @param {DragEvent} event */
  dropped(event) {
    if (!this.ours(event)) return;
    event.preventDefault();
    // Where the placeholder showed it (the last dragover), else under the drop's point.
    const target = this.target ?? this.view.slotAt(event.clientX, event.clientY, NONE);
    const board = this.session.board;
    if (!this.session.canEdit || !board) {
      this.refuse();
      this.end();
      return;
    }
    const payload = readPayload(event.dataTransfer.getData(CORKBOARD_TYPE));
    if (target && payload && payload.origin === location.origin) {
      this.end();
      return this.droppedCards(payload, target, event.altKey);
    }
    const { drafts, leftOut } = target ? cardDrafts(readTransfer(event.dataTransfer)) : { drafts: [], leftOut: 0 };
    if (!target || drafts.length === 0) {
      this.end();
      if (target) this.notices.show("Nothing in what was dropped could become a card.");
      return;
    }
    const base = newCardId();
    const items = drafts.map((draft, at) => ({ id: drafts.length === 1 ? base : `${base}-${at + 1}`, ...draft }));
    const before = anchorAt(board, target.collection, target.index, NONE);
    // One glide for both: the placeholder goes and the cards come in its place.
    this.view.animateChange(() => {
      this.end();
      this.session.insert(items, { collection: target.collection, before });
    }, this.lists(this.view.listElements(target.collection)?.list ?? null));
    const what = items.length === 1 ? items[0].label : `${items.length} cards`;
    this.announcer.say(`Added ${what} to ${listName(board, target.collection)}, position ${target.index + 1}.`);
    if (leftOut > 0) this.notices.show(`Only the first ${items.length} cards were added: ${leftOut} more would make too big a drop.`);
  }

  /**
   * Cards of this server dropped here: from this board (another tab), a move; from another,
   * a transfer.
   * @param {import("./drag-out.js").CardPayload} payload
   * @param {DropTarget} target
   * @param {boolean} copy
   */
  droppedCards(payload, target, copy) {
    const board = /** @type {Board} */ (this.session.board);
    const destination = { collection: target.collection, before: anchorAt(board, target.collection, target.index, NONE) };
    const what = payload.items.length === 1 ? payload.items[0].label : `${payload.items.length} cards`;
    if (payload.board === board.id) {
      const present = payload.items.map((item) => item.id).filter((id) => findItem(board, id));
      if (present.length === 0) return this.notices.show("Those cards are no longer on this board.");
      // The slot counts every card (the dragged ones too, still drawn): the anchor is the
      // first card from there on that is not moving.
      const moving = new Set(present);
      const rest = (findCollection(board, target.collection)?.items ?? []).slice(target.index);
      const before = rest.find((item) => !moving.has(item.id))?.id ?? null;
      this.session.move(present, { collection: target.collection, before });
      return this.announcer.say(`Moved ${what} to ${listName(board, target.collection)}.`);
    }
    this.transfers.start(transferPlan(payload, board, destination, copy));
    return this.announcer.say(`${copy ? "Copying" : "Moving"} ${what} here from board ${payload.board}.`);
  }

  /** The same notice as a refused pick-up (why this board cannot change now), once per drag over it. */
  refuse() {
    this.refusedShown = true;
    this.notices.show(this.session.readOnlyReason ?? "The board is not loaded yet.");
  }

  /** The drag is over (dropped, left the board, Escape): no placeholder, no target. */
  end() {
    clearTimeout(this.leaving);
    this.refusedShown = false;
    this.hidePlaceholder();
  }

  hidePlaceholder() {
    this.target = null;
    if (this.placeholder.isConnected) this.view.animateChange(() => this.placeholder.remove(), this.lists(null));
  }

  /** After a render (someone else's change): the placeholder back at its slot. */
  restore() {
    if (!this.target) return;
    const column = this.view.listElements(this.target.collection);
    if (!column) return this.hidePlaceholder();
    const next = this.view.slotNode(this.target.collection, this.target.index, NONE);
    if (this.placeholder.parentNode !== column.list || this.view.nextShown(this.placeholder) !== next) column.list.insertBefore(this.placeholder, next);
    return undefined;
  }

  /**
   * The lists whose cards a change of the placeholder shifts: where it is, and `list`.
   * @param {HTMLElement | null} list
   * @returns {Set<HTMLElement>}
   */
  lists(list) {
    /** @type {Set<HTMLElement>} */
    const lists = new Set();
    if (this.placeholder.parentNode instanceof HTMLElement) lists.add(this.placeholder.parentNode);
    if (list) lists.add(list);
    return lists;
  }
}

/**
 * What the drop reads: the data is readable only in `drop`. The HTML's anchors give links their titles.
 * @param {DataTransfer} transfer
 * @returns {DroppedData}
 */
function readTransfer(transfer) {
  const html = transfer.getData("text/html");
  return {
    files: [...transfer.files].map((file) => file.name),
    uriList: transfer.getData("text/uri-list"),
    mozUrl: transfer.getData("text/x-moz-url"),
    // A parsed document runs no script and loads nothing.
    anchors: html
      ? [...new DOMParser().parseFromString(html, "text/html").querySelectorAll("a[href]")].map((a) => ({ href: a.getAttribute("href") ?? "", text: a.textContent ?? "" }))
      : [],
    text: transfer.getData("text/plain"),
  };
}

/**
 * The drop effect the source allows, copy first: a dropEffect the source does not allow makes
 * the browser refuse the drop.
 * @param {DataTransfer["effectAllowed"]} allowed
 * @returns {DataTransfer["dropEffect"]}
 */
function dropEffectFor(allowed) {
  if (allowed === "none") return "none";
  if (allowed === "move") return "move";
  if (allowed === "link" || allowed === "linkMove") return "link";
  return "copy"; // all, uninitialized, copy, copyLink, copyMove
}

/**
 * A placeholder as tall as a card of the list (the CSS's least height when it has none).
 * @param {HTMLElement} list
 */
function cardHeight(list) {
  const card = /** @type {HTMLElement | null} */ (list.querySelector("li.card[data-item-id]"));
  return card ? `${card.offsetHeight}px` : "";
}

/**
 * Whether `target` is a card's grip on this board (drag-out.js).
 * @param {HTMLElement} root the board
 * @param {EventTarget | null} target
 */
function isGrip(root, target) {
  return target instanceof Element && target.closest(".card-grip") !== null && root.contains(target);
}
