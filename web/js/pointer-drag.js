// @ts-check
// Drag and drop with Pointer Events (mouse, pen and touch alike; the HTML5 drag API does
// not work on touch screens). The card lifts and follows the pointer, a placeholder opens
// where it would land and the other cards glide out of its way; the board scrolls near its
// edges. Escape, or a release outside the board, cancels. Presence goes to the server as
// drag.start / drag.over (throttled by the session) / drag.end; a drop is a move by anchor.

import { anchorAt } from "../sdk/replica.js";

const START_DISTANCE = 4;
const EDGE = 48;
const SCROLL_STEP = 14;

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("../sdk/replica.js").Board} Board */
/**
 * Where the dragged cards would land: the index in that column with them left out.
 * @typedef {{ collection: string, index: number }} DropTarget
 */
/**
 * A card pressed, not yet moved far enough to be dragged.
 * @typedef {{ card: HTMLElement, pointerId: number, x: number, y: number }} Press
 */
/**
 * A drag in progress: the avatar under the pointer (where the pointer holds it), the
 * pointer's last place, and the scroll loop's next frame.
 * @typedef {{ items: string[], avatar: HTMLElement, offsetX: number, offsetY: number, x: number, y: number,
 *   target: DropTarget | null, scrollFrame: number }} Drag
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
    this.onCancel = () => this.cancel("cancelled");
    this.onKey = (/** @type {KeyboardEvent} */ event) => {
      if (event.key === "Escape" && this.drag) {
        event.preventDefault();
        this.cancel("cancelled");
      }
    };
    view.root.addEventListener("pointerdown", (event) => this.pointerPressed(event));
  }

  get active() {
    return this.drag !== null;
  }

  /** @param {PointerEvent} event */
  pointerPressed(event) {
    if (event.button !== 0 || this.drag || this.press) return;
    const target = /** @type {Element} */ (event.target);
    const card = /** @type {HTMLElement | null} */ (target.closest("li.card"));
    if (!card || target.closest("button, textarea, input, [contenteditable=true]")) return;
    if (event.shiftKey || event.ctrlKey || event.metaKey) return; // selection clicks
    this.press = { card, pointerId: event.pointerId, x: event.clientX, y: event.clientY };
    window.addEventListener("pointermove", this.onMove);
    window.addEventListener("pointerup", this.onUp);
    window.addEventListener("pointercancel", this.onCancel);
  }

  /** @param {PointerEvent} event */
  pointerMoved(event) {
    if (this.press && event.pointerId !== this.press.pointerId) return;
    if (!this.drag) {
      if (!this.press) return;
      if (Math.hypot(event.clientX - this.press.x, event.clientY - this.press.y) < START_DISTANCE) return;
      if (!this.begin(event)) return this.release();
    }
    event.preventDefault();
    const drag = /** @type {Drag} */ (this.drag);
    drag.x = event.clientX;
    drag.y = event.clientY;
    this.follow();
  }

  /** @param {PointerEvent} event */
  pointerReleased(event) {
    if (this.press && event.pointerId !== this.press.pointerId) return;
    if (this.drag) this.drop();
    this.release();
  }

  release() {
    this.press = null;
    window.removeEventListener("pointermove", this.onMove);
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("pointercancel", this.onCancel);
  }

  /**
   * Lifts the pressed card (and the other selected ones). False when it may not move.
   * @param {PointerEvent} event
   */
  begin(event) {
    const { card } = /** @type {Press} */ (this.press);
    const id = /** @type {string} */ (card.dataset.itemId);
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
    avatar.classList.remove("selected", "lifted");
    avatar.removeAttribute("tabindex");
    avatar.removeAttribute("data-item-id");
    avatar.style.width = `${rect.width}px`;
    if (items.length > 1) avatar.dataset.count = String(items.length);
    document.body.append(avatar);
    this.placeholder.style.height = `${rect.height}px`;
    this.drag = {
      items,
      avatar,
      offsetX: event.clientX - rect.left,
      offsetY: event.clientY - rect.top,
      x: event.clientX,
      y: event.clientY,
      target: null,
      scrollFrame: 0,
    };
    this.session.startDrag(items);
    this.view.animateChange(() => {
      /** @type {ParentNode} */ (card.parentNode).insertBefore(this.placeholder, card);
      this.markLifted();
    });
    document.body.classList.add("dragging");
    window.addEventListener("keydown", this.onKey);
    this.announcer.say(`Picked up ${this.describe(items)}.`);
    this.scrollLoop();
    return true;
  }

  selectionInBoardOrder() {
    const order = /** @type {Board} */ (this.session.board).collections.flatMap((c) => c.items.map((i) => i.id));
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
    const hit = inside ? this.view.columnAt(x, y) : null;
    avatar.classList.toggle("will-cancel", !hit);
    if (!hit) {
      if (drag.target) this.view.animateChange(() => this.placeholder.remove());
      drag.target = null;
      return;
    }
    const excluded = new Set(drag.items);
    const cards = this.view.visibleCards(hit.id, excluded);
    let index = cards.findIndex((el) => {
      const r = el.getBoundingClientRect();
      return r.top + r.height / 2 > y;
    });
    if (index < 0) index = cards.length;
    const target = { collection: hit.id, index };
    if (drag.target && drag.target.collection === target.collection && drag.target.index === target.index) return;
    drag.target = target;
    this.view.animateChange(() => hit.column.list.insertBefore(this.placeholder, cards[index] ?? null));
    this.session.dragOver(target.collection, target.index);
  }

  /** After a render (someone else's change): lifted marks and placeholder back in place. */
  restore() {
    if (!this.drag) return;
    if (this.drag.items.some((id) => !this.view.cards.has(id))) {
      // A dragged card was deleted meanwhile; the server clears the drag (`deleted`).
      this.finish();
      this.notices.show("The card you were moving was deleted.");
      return;
    }
    this.markLifted();
    const target = this.drag.target;
    if (!target) return;
    const column = this.view.columns.get(target.collection);
    if (!column) return this.cancel("cancelled: the column was removed");
    const cards = this.view.visibleCards(target.collection, new Set(this.drag.items));
    column.list.insertBefore(this.placeholder, cards[target.index] ?? null);
  }

  drop() {
    const { items, target } = /** @type {Drag} */ (this.drag);
    if (!target) return this.cancel("cancelled");
    // A drag begins only when the session has a board (`canEdit`); it never loses it.
    const before = anchorAt(/** @type {Board} */ (this.session.board), target.collection, target.index, new Set(items));
    this.finish();
    this.session.move(items, { collection: target.collection, before });
    this.view.selected.clear();
    this.view.cards.get(items[0])?.focus({ preventScroll: true });
    const column = /** @type {Board} */ (this.session.board).collections.find((c) => c.id === target.collection);
    this.announcer.say(`Dropped ${this.describe(items)} in ${column?.title ?? target.collection}, position ${target.index + 1}.`);
    return undefined;
  }

  /** @param {string} reason how the move ended, in words ("cancelled") */
  cancel(reason) {
    if (!this.drag) return;
    const { items } = this.drag;
    this.finish();
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
    this.finish();
    this.release();
    this.notices.show(`${holderName ?? "Someone"} is holding this card.`);
  }

  /** The server let go of our drag (held too long): it ends here too, without a drop. False when there was none. */
  letGo() {
    if (!this.drag) return false;
    this.finish();
    this.release();
    return true;
  }

  /** Removes every trace of the drag from the page and shows the board as it is. */
  finish() {
    const { items, avatar, scrollFrame } = /** @type {Drag} */ (this.drag);
    cancelAnimationFrame(scrollFrame);
    window.removeEventListener("keydown", this.onKey);
    document.body.classList.remove("dragging");
    avatar.remove();
    this.drag = null;
    this.view.animateChange(() => {
      this.placeholder.remove();
      for (const id of items) this.view.cards.get(id)?.classList.remove("lifted");
    });
  }

  /** Near an edge of the board (or of a column's list) the view scrolls while the pointer waits. */
  scrollLoop() {
    if (!this.drag) return;
    const { x, y } = this.drag;
    const board = this.view.root;
    const rect = board.getBoundingClientRect();
    let moved = false;
    if (x < rect.left + EDGE && board.scrollLeft > 0) {
      board.scrollLeft -= SCROLL_STEP;
      moved = true;
    } else if (x > rect.right - EDGE && board.scrollLeft < board.scrollWidth - board.clientWidth) {
      board.scrollLeft += SCROLL_STEP;
      moved = true;
    }
    const hit = this.view.columnAt(x, y);
    if (hit) {
      const list = hit.column.list;
      const listRect = list.getBoundingClientRect();
      if (y < listRect.top + EDGE && list.scrollTop > 0) {
        list.scrollTop -= SCROLL_STEP;
        moved = true;
      } else if (y > listRect.bottom - EDGE && list.scrollTop < list.scrollHeight - list.clientHeight) {
        list.scrollTop += SCROLL_STEP;
        moved = true;
      }
    }
    if (moved) this.follow();
    this.drag.scrollFrame = requestAnimationFrame(() => this.scrollLoop());
  }
}
