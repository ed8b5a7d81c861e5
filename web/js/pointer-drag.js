// @ts-check
// Drag and drop with Pointer Events (mouse, pen and touch alike; the HTML5 drag API does
// not work on touch screens). The card lifts and follows the pointer, a placeholder opens
// where it would land and the other cards glide out of its way; the board (and a column's
// list) scrolls near its edges. Escape, or a release outside the board, cancels; a drop or a
// cancel flies the card from where it was let go into its slot. Presence goes to the server
// as drag.start / drag.over (throttled by the session) / drag.end; a drop is a move by anchor.
//
// A mouse or pen picks a card up after a few pixels. A finger must hold still on the card
// for HOLD_MS first (the card lifts a little meanwhile): a swipe that starts on a card is a
// scroll, as on every phone, so cards keep `touch-action` and the browser scrolls until the
// hold has picked the card up; from then on the page stops the touch from scrolling.
//
// Folders: an open folder's list takes the placeholder like a column's (when the cards may
// go in: folders.js). Held still over a folder's card for DWELL_MS, the cards go into it
// (the folder is marked `drop-into`, a release moves them to its end); passing over it
// reorders as over any card.

import { anchorAt, findCollection, orderedItemIds } from "../sdk/replica.js";
import { listName, mayGoInto } from "./folders.js";
import { prefersReducedMotion } from "./view.js";

const START_DISTANCE = 4;
const HOLD_MS = 250;
// A finger moving further than this before the hold ends is scrolling, not picking up.
const HOLD_TOLERANCE = 8;
const EDGE = 48;
const MAX_SCROLL_STEP = 18;
const SETTLE_MS = 200;
// How long cards must stay over a folder before a release puts them inside: shorter, and
// passing over a folder on the way to a slot would drop into it.
const DWELL_MS = 500;

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("../sdk/replica.js").Board} Board */
/**
 * Where the dragged cards would land: the index in that column with them left out.
 * @typedef {{ collection: string, index: number }} DropTarget
 */
/**
 * A card pressed, not yet dragged: where the press began, where the pointer is, and for a
 * finger the hold that will pick the card up.
 * @typedef {{ card: HTMLElement, pointerId: number, x: number, y: number, lastX: number, lastY: number,
 *   hold: number | null }} Press
 */
/**
 * A drag in progress: the avatar under the pointer (where the pointer holds it), the
 * pointer's last place, and the scroll loop's next frame.
 * Over a folder's card: `dwell` is the folder and the timer that will make it `into`, the
 * folder a release drops into.
 * @typedef {{ items: string[], avatar: HTMLElement, offsetX: number, offsetY: number, x: number, y: number,
 *   target: DropTarget | null, scrollFrame: number, dwell: { folder: string, timer: number } | null,
 *   into: string | null }} Drag
 */

export class PointerDrag {
  /** @param {PageParts} parts */
  constructor({ session, view, announcer, notices, describe }) {
    this.session = session;
    this.view = view;
    this.announcer = announcer;
    this.notices = notices;
    this.describe = describe;
    /** @type {Press | null} */
    this.press = null;
    /** @type {Drag | null} */
    this.drag = null;
    this.placeholder = document.createElement("li");
    this.placeholder.className = "placeholder";
    this.placeholder.setAttribute("aria-hidden", "true");
    this.onMove = (/** @type {PointerEvent} */ event) => this.pointerMoved(event);
    this.onUp = (/** @type {PointerEvent} */ event) => this.pointerReleased(event);
    this.onCancel = () => (this.drag ? this.cancel("cancelled") : this.release());
    this.onKey = (/** @type {KeyboardEvent} */ event) => {
      if (event.key === "Escape" && this.drag) {
        event.preventDefault();
        this.cancel("cancelled");
      }
    };
    view.root.addEventListener("pointerdown", (event) => this.pointerPressed(event));
    // Once a finger has picked a card up, its moves carry the card instead of scrolling. (A
    // touchmove the browser already scrolls with cannot be cancelled: asking would only log.)
    window.addEventListener(
      "touchmove",
      (event) => {
        if (this.drag && event.cancelable) event.preventDefault();
      },
      { passive: false },
    );
    // A long press would open the browser's menu over the card being picked up.
    view.root.addEventListener("contextmenu", (event) => {
      if (this.press || this.drag) event.preventDefault();
    });
  }

  get active() {
    return this.drag !== null;
  }

  /** @param {PointerEvent} event */
  pointerPressed(event) {
    if (event.button !== 0 || this.drag || this.press) return;
    const target = /** @type {Element} */ (event.target);
    const card = /** @type {HTMLElement | null} */ (target.closest("li.card"));
    // A press on a card's link is the link's (a click opens it; dragging it carries the URL),
    // and one on its grip the browser's (a drag out of the page, drag-out.js).
    if (!card || target.closest("button, textarea, input, a[href], [contenteditable=true], [draggable=true]")) return;
    if (event.shiftKey || event.ctrlKey || event.metaKey) return; // selection clicks
    const { clientX: x, clientY: y } = event;
    this.press = { card, pointerId: event.pointerId, x, y, lastX: x, lastY: y, hold: null };
    if (event.pointerType === "touch") {
      this.press.hold = setTimeout(() => this.held(), HOLD_MS);
      card.classList.add("pressing");
    }
    window.addEventListener("pointermove", this.onMove);
    window.addEventListener("pointerup", this.onUp);
    window.addEventListener("pointercancel", this.onCancel);
  }

  /** @param {PointerEvent} event */
  pointerMoved(event) {
    if (this.press && event.pointerId !== this.press.pointerId) return;
    if (!this.drag) {
      const press = this.press;
      if (!press) return;
      press.lastX = event.clientX;
      press.lastY = event.clientY;
      const distance = Math.hypot(event.clientX - press.x, event.clientY - press.y);
      if (press.hold !== null) {
        // A finger that moves before the hold ends is scrolling: leave it to the browser.
        if (distance > HOLD_TOLERANCE) this.release();
        return;
      }
      if (distance < START_DISTANCE) return;
      if (!this.begin(event.clientX, event.clientY)) return this.release();
    }
    event.preventDefault();
    const drag = /** @type {Drag} */ (this.drag);
    drag.x = event.clientX;
    drag.y = event.clientY;
    this.follow();
  }

  /** The finger held still long enough: the card is picked up where the finger is. */
  held() {
    const press = /** @type {Press} */ (this.press);
    press.hold = null;
    const picked = this.begin(press.lastX, press.lastY);
    press.card.classList.remove("pressing");
    if (!picked) this.release();
  }

  /** @param {PointerEvent} event */
  pointerReleased(event) {
    if (this.press && event.pointerId !== this.press.pointerId) return;
    if (this.drag) this.drop();
    this.release();
  }

  release() {
    if (this.press) {
      clearTimeout(/** @type {number | undefined} */ (this.press.hold ?? undefined));
      this.press.card.classList.remove("pressing");
    }
    this.press = null;
    window.removeEventListener("pointermove", this.onMove);
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("pointercancel", this.onCancel);
  }

  /**
   * Lifts the pressed card (and the other selected ones), held at the pointer's place (x, y).
   * False when it may not move.
   * @param {number} x
   * @param {number} y
   */
  begin(x, y) {
    const { card } = /** @type {Press} */ (this.press);
    const id = /** @type {string} */ (card.dataset.itemId);
    // Deleted by someone else while it was pressed (a hold lasts a quarter of a second).
    if (!card.isConnected) return false;
    if (!this.session.canEdit) {
      this.notices.show(this.session.readOnlyReason ?? "The board is not loaded yet.");
      return false;
    }
    const items = this.view.selected.has(id) ? this.selectionInBoardOrder() : [id];
    const holder = items.map((item) => this.session.holderOf(item)).find(Boolean);
    if (holder) {
      this.notices.show(`${holder.name} is holding this card.`);
      return false;
    }
    const rect = card.getBoundingClientRect();
    const avatar = /** @type {HTMLElement} */ (card.cloneNode(true));
    avatar.classList.add("drag-avatar");
    avatar.classList.remove("selected", "lifted", "pressing");
    avatar.removeAttribute("tabindex");
    avatar.removeAttribute("data-item-id");
    // An open folder flies without its cards: they are not what the person took hold of, and
    // copies with their ids would be found as the cards themselves.
    avatar.querySelector(".folder-cards")?.remove();
    // The avatar keeps the card's size (its layout size: a pressed card is drawn a little
    // larger), so its text wraps as it did in the column.
    avatar.style.width = `${card.offsetWidth}px`;
    avatar.style.height = `${card.offsetHeight}px`;
    if (items.length > 1) avatar.dataset.count = String(items.length);
    document.body.append(avatar);
    this.placeholder.style.height = `${card.offsetHeight}px`;
    this.drag = { items, avatar, offsetX: x - rect.left, offsetY: y - rect.top, x, y, target: null, scrollFrame: 0, dwell: null, into: null };
    this.session.startDrag(items);
    const list = /** @type {HTMLElement} */ (card.parentNode);
    this.view.animateChange(() => {
      list.insertBefore(this.placeholder, card);
      this.markLifted();
    }, this.listsOf(items, list));
    document.body.classList.add("dragging");
    window.addEventListener("keydown", this.onKey);
    this.announcer.say(`Picked up ${this.describe(items)}.`);
    this.follow();
    this.scrollLoop();
    return true;
  }

  /**
   * The lists a change of the drag can shift cards in: the placeholder's, those of `items`,
   * and `list`; the others' cards stay where they are, so they are neither measured nor animated.
   * @param {string[]} items
   * @param {HTMLElement | null} list
   * @returns {Set<HTMLElement>}
   */
  listsOf(items, list) {
    /** @type {Set<HTMLElement>} */
    const lists = new Set();
    const add = (/** @type {Node | null | undefined} */ node) => {
      if (node instanceof HTMLElement) lists.add(node);
    };
    add(this.placeholder.parentNode);
    for (const id of items) add(this.view.cards.get(id)?.parentNode);
    add(list);
    return lists;
  }

  selectionInBoardOrder() {
    const order = orderedItemIds(/** @type {Board} */ (this.session.board));
    return order.filter((id) => this.view.selected.has(id));
  }

  markLifted() {
    for (const id of /** @type {Drag} */ (this.drag).items) this.view.cards.get(id)?.classList.add("lifted");
  }

  /** The avatar follows the pointer; the placeholder goes where the card would land. */
  follow() {
    const drag = /** @type {Drag} */ (this.drag);
    const { avatar, x, y, offsetX, offsetY } = drag;
    avatar.style.transform = `translate(${x - offsetX}px, ${y - offsetY}px) rotate(2deg)`;
    const boardRect = this.view.root.getBoundingClientRect();
    const inside = x >= boardRect.left && x <= boardRect.right && y >= boardRect.top && y <= boardRect.bottom;
    const board = /** @type {Board} */ (this.session.board);
    const slot = inside ? this.view.slotAt(x, y, new Set(drag.items), (id) => mayGoInto(board, id, drag.items)) : null;
    avatar.classList.toggle("will-cancel", !slot);
    const folder = slot?.onFolder && mayGoInto(board, slot.onFolder, drag.items) ? slot.onFolder : null;
    if (folder !== (drag.dwell?.folder ?? null)) this.dwellOn(folder);
    if (drag.into) return; // the cards go into the folder: the placeholder waits where it was
    if (!slot) {
      if (drag.target) this.view.animateChange(() => this.placeholder.remove(), this.listsOf([], null));
      drag.target = null;
      return;
    }
    const target = { collection: slot.collection, index: slot.index };
    if (drag.target && drag.target.collection === target.collection && drag.target.index === target.index) return;
    drag.target = target;
    this.view.animateChange(() => slot.list.insertBefore(this.placeholder, slot.next), this.listsOf([], slot.list));
    this.session.dragOver(target.collection, target.index);
  }

  /**
   * The pointer came over a folder's card (null: off it): the drop into the one it left is
   * off, and a wait for this one begins.
   * @param {string | null} folder
   */
  dwellOn(folder) {
    const drag = /** @type {Drag} */ (this.drag);
    clearTimeout(drag.dwell?.timer);
    drag.dwell = null;
    if (drag.into) {
      this.view.cards.get(drag.into)?.classList.remove("drop-into");
      document.body.classList.remove("dropping-into");
      drag.into = null;
      // The others saw the cards over the folder: the placeholder is where they are now.
      if (drag.target) this.session.dragOver(drag.target.collection, drag.target.index);
    }
    if (!folder) return;
    drag.dwell = { folder, timer: setTimeout(() => this.dwelt(folder), DWELL_MS) };
  }

  /**
   * The cards stayed over the folder: a release now drops them into it, at its end. The
   * others see them there (a ghost at the end of the folder, when they have it open).
   * @param {string} folder
   */
  dwelt(folder) {
    const drag = this.drag;
    if (!drag || drag.dwell?.folder !== folder) return;
    drag.into = folder;
    this.view.cards.get(folder)?.classList.add("drop-into");
    document.body.classList.add("dropping-into");
    const board = /** @type {Board} */ (this.session.board);
    const inside = (findCollection(board, folder)?.items ?? []).filter((i) => !drag.items.includes(i.id)).length;
    this.session.dragOver(folder, inside);
    this.announcer.say(`Release to put ${this.describe(drag.items)} into ${listName(board, folder)}.`);
  }

  /** After a render (someone else's change): lifted marks and placeholder back in place. */
  restore() {
    if (!this.drag) return;
    if (this.drag.items.some((id) => !this.view.cards.has(id))) {
      // A dragged card was deleted meanwhile; the server clears the drag (`deleted`).
      this.finish().remove();
      this.notices.show("The card you were moving was deleted.");
      return;
    }
    this.markLifted();
    const into = this.drag.into;
    // The folder the cards would go into was deleted, or no longer takes them: back to the slot.
    if (into && (!this.view.cards.has(into) || !mayGoInto(/** @type {Board} */ (this.session.board), into, this.drag.items))) this.dwellOn(null);
    const target = this.drag.target;
    if (!target) return;
    const column = this.view.listElements(target.collection);
    if (!column) return this.cancel("cancelled: the column was removed");
    column.list.insertBefore(this.placeholder, this.view.slotNode(target.collection, target.index, new Set(this.drag.items)));
  }

  drop() {
    const { items, target, into } = /** @type {Drag} */ (this.drag);
    if (into) return this.dropInto(items, into);
    if (!target) return this.cancel("cancelled");
    // A drag begins only when the session has a board (`canEdit`); it never loses it.
    const board = /** @type {Board} */ (this.session.board);
    const before = anchorAt(board, target.collection, target.index, new Set(items));
    // A finger that held a card and let go without moving it (or a card put back where it
    // was) changes nothing: no move to send.
    if (items.length === 1 && staysPut(board, items[0], target.collection, before)) return this.cancel("ended where it began");
    // The placeholder goes and the cards take their new places, hidden until the avatar has
    // flown there; the others glide from where they are seen (a FLIP measures running animations).
    // One glide for both (measured before, animated after): each would lay the page out twice.
    /** @type {HTMLElement | undefined} */
    let avatar;
    this.view.animateChange(() => {
      avatar = this.finish();
      this.session.move(items, { collection: target.collection, before });
    }, this.listsOf(items, null));
    this.settle(/** @type {HTMLElement} */ (avatar), items);
    this.view.selected.clear();
    this.announcer.say(`Dropped ${this.describe(items)} in ${listName(/** @type {Board} */ (this.session.board), target.collection)}, position ${target.index + 1}.`);
    return undefined;
  }

  /**
   * The release over a folder held long enough: the cards go to its end, as one move. The
   * avatar flies to the folder's card (the cards themselves may be in a closed folder, not drawn).
   * @param {string[]} items
   * @param {string} folder
   */
  dropInto(items, folder) {
    /** @type {HTMLElement | undefined} */
    let avatar;
    this.view.animateChange(() => {
      avatar = this.finish();
      this.session.move(items, { collection: folder, before: null });
    }, this.listsOf(items, null));
    this.settle(/** @type {HTMLElement} */ (avatar), items, this.view.cards.get(items[0])?.isConnected ? items[0] : folder);
    this.view.selected.clear();
    this.announcer.say(`Dropped ${this.describe(items)} into ${listName(/** @type {Board} */ (this.session.board), folder)}.`);
  }

  /** @param {string} reason how the move ended, in words ("cancelled") */
  cancel(reason) {
    if (!this.drag) return;
    const { items } = this.drag;
    this.settle(this.finish(), items);
    this.session.endDrag();
    this.release();
    this.announcer.say(`Move ${reason}. ${this.describe(items)} is back in place.`);
  }

  /**
   * The server refused our drag.start (someone got there first).
   * @param {string | undefined} holderName
   */
  refused(holderName) {
    if (!this.drag) return;
    const { items } = this.drag;
    this.settle(this.finish(), items);
    this.release();
    this.notices.show(`${holderName ?? "Someone"} is holding this card.`);
  }

  /** The server let go of our drag (held too long): it ends here too, without a drop. False when there was none. */
  letGo() {
    if (!this.drag) return false;
    const { items } = this.drag;
    this.settle(this.finish(), items);
    this.release();
    return true;
  }

  /**
   * Removes every trace of the drag from the page but its avatar, which it returns (to fly
   * home, or be removed), and shows the board as it is. The dragged cards are `landing`:
   * in their places but hidden, until the avatar is there.
   * @returns {HTMLElement}
   */
  finish() {
    const { items, avatar, scrollFrame, dwell, into } = /** @type {Drag} */ (this.drag);
    cancelAnimationFrame(scrollFrame);
    clearTimeout(dwell?.timer);
    if (into) this.view.cards.get(into)?.classList.remove("drop-into");
    window.removeEventListener("keydown", this.onKey);
    this.drag = null;
    this.view.animateChange(() => {
      // In the change: the page's style changes once, after the cards were measured.
      document.body.classList.remove("dragging", "dropping-into");
      this.placeholder.remove();
      for (const id of items) this.view.cards.get(id)?.classList.replace("lifted", "landing");
    }, this.listsOf(items, null));
    return avatar;
  }

  /**
   * The avatar flies from where it was let go to the first card's place on the board, above
   * the columns (it is fixed on the body, so no column's scroll box clips it); then the cards
   * show. At once when the person asked for less motion or the card is gone.
   * @param {HTMLElement} avatar
   * @param {string[]} items
   * @param {string} [home] the card it flies to and the focus goes to: the first of `items`,
   *   or the folder they went into when they are not drawn (it is closed)
   */
  settle(avatar, items, home = items[0]) {
    const land = () => {
      avatar.remove();
      for (const id of items) this.view.cards.get(id)?.classList.remove("landing");
      // Focus goes to the card once it shows (a hidden card takes no focus), unless the
      // person has moved it elsewhere meanwhile: keyboard use goes on from the card.
      if (document.activeElement === null || document.activeElement === document.body) {
        this.view.cards.get(home)?.focus({ preventScroll: true });
      }
    };
    const card = this.view.cards.get(home);
    if (!card || prefersReducedMotion()) return land();
    const to = card.getBoundingClientRect();
    avatar.classList.remove("will-cancel");
    avatar.classList.add("settling");
    const flight = avatar.animate(
      [{ transform: avatar.style.transform }, { transform: `translate(${to.left}px, ${to.top}px) rotate(0deg)` }],
      { duration: SETTLE_MS, easing: "cubic-bezier(0.2, 0, 0, 1)", fill: "forwards" },
    );
    flight.addEventListener("finish", land);
    flight.addEventListener("cancel", land);
    return undefined;
  }

  /**
   * Near an edge of the board, of a column's list, or of the window when the page itself
   * scrolls, the view scrolls while the pointer waits: the nearer the edge, the faster.
   */
  scrollLoop() {
    if (!this.drag) return;
    const { x, y } = this.drag;
    const hit = this.view.columnAt(x, y);
    /** @type {(Element | null)[]} */
    const scrollers = [hit?.column.list ?? null, this.view.root, document.scrollingElement];
    let moved = false;
    for (const scroller of scrollers) {
      if (!scroller) continue;
      const isPage = scroller === document.scrollingElement;
      const rect = isPage ? new DOMRect(0, 0, innerWidth, innerHeight) : scroller.getBoundingClientRect();
      const dx = edgeStep(x, rect.left, rect.right, scroller.scrollLeft, scroller.scrollWidth - scroller.clientWidth);
      const dy = edgeStep(y, rect.top, rect.bottom, scroller.scrollTop, scroller.scrollHeight - scroller.clientHeight);
      if (dx === 0 && dy === 0) continue;
      scroller.scrollLeft += dx;
      scroller.scrollTop += dy;
      moved = true;
    }
    if (moved) this.follow();
    this.drag.scrollFrame = requestAnimationFrame(() => this.scrollLoop());
  }
}

/**
 * Whether `item` is already in `collection` right before `before` (null: at its end).
 * @param {Board} board
 * @param {string} item
 * @param {string} collection
 * @param {string | null} before
 */
function staysPut(board, item, collection, before) {
  const items = findCollection(board, collection)?.items ?? [];
  const at = items.findIndex((i) => i.id === item);
  return at >= 0 && (items[at + 1]?.id ?? null) === before;
}

/**
 * How far to scroll along one axis this frame: towards the edge the point is near (within
 * EDGE of `low` or `high`), faster the nearer it is, and 0 where there is nothing to scroll to.
 * @param {number} at the pointer
 * @param {number} low the box's start on the screen
 * @param {number} high its end
 * @param {number} scrolled how far it is scrolled
 * @param {number} most how far it can scroll
 */
function edgeStep(at, low, high, scrolled, most) {
  // Just outside counts too (a column's header above its list), as the very edge.
  if (at < low - EDGE || at > high + EDGE) return 0;
  const speed = (/** @type {number} */ depth) => Math.ceil((MAX_SCROLL_STEP * Math.min(EDGE, depth)) / EDGE);
  if (at < low + EDGE && scrolled > 0) return -speed(low + EDGE - at);
  if (at > high - EDGE && scrolled < most - 1) return speed(at - (high - EDGE));
  return 0;
}
