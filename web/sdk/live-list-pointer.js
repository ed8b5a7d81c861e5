// @ts-check
// Reordering a live list with a pointer (mouse, pen and touch alike, through Pointer Events):
// the item lifts into an avatar that follows the pointer, a `cb-placeholder` opens where it
// would land, the page scrolls near the window's edges. A mouse drag starts after a few
// pixels; a touch starts only after a press-and-hold (so a swipe still scrolls the page) or
// at once on a handle. Escape, or a release away from the list, cancels. Presence goes out as
// startDrag / dragOver / endDrag; a drop is one move by anchor.

/** @typedef {import("./live-list.js").LiveList} LiveList */
/**
 * A press not yet a drag: where it began, and for a touch the hold timer.
 * @typedef {{ item: HTMLElement, id: string, pointerId: number, x: number, y: number,
 *   waitsForHold: boolean, held: boolean, timer: ReturnType<typeof setTimeout> | undefined }} Press
 */
/**
 * A drag in progress. `index`: where it would land, in the list with the item left out
 * (null: away from the list, a release cancels); `origin`: where it was.
 * @typedef {{ id: string, item: HTMLElement, avatar: HTMLElement, offsetX: number, offsetY: number,
 *   x: number, y: number, index: number | null, origin: number, scrollFrame: number }} Drag
 */

const START_DISTANCE = 4;
// A finger that travels this far before the hold is over is scrolling, not picking up.
const SCROLL_DISTANCE = 8;
// Away from the list by more than this, a release cancels.
const REACH = 24;
const EDGE = 40;
const SCROLL_STEP = 12;

export class PointerLift {
  /** @param {LiveList} list */
  constructor(list) {
    this.list = list;
    /** @type {Press | null} */
    this.press = null;
    /** @type {Drag | null} */
    this.drag = null;
    this.placeholder = document.createElement(list.itemTag);
    this.placeholder.className = "cb-placeholder";
    this.placeholder.setAttribute("aria-hidden", "true");
    this.onDown = (/** @type {PointerEvent} */ event) => this.pressed(event);
    this.onMove = (/** @type {PointerEvent} */ event) => this.moved(event);
    this.onUp = (/** @type {PointerEvent} */ event) => this.released(event);
    this.onCancel = () => this.cancel();
    this.onKey = (/** @type {KeyboardEvent} */ event) => {
      if (event.key !== "Escape" || !this.drag) return;
      event.preventDefault();
      this.cancel();
    };
    // Once an item is picked up by touch, the finger drags it instead of scrolling the page.
    this.onTouchMove = (/** @type {TouchEvent} */ event) => {
      if ((this.drag || this.press?.held) && event.cancelable) event.preventDefault();
    };
    // A long press would open the browser's menu on touch screens.
    this.onContextMenu = (/** @type {Event} */ event) => {
      if (this.press || this.drag) event.preventDefault();
    };
    // The browser's own drag and drop (of an image or a link in an item) would take the pointer away.
    this.onNativeDrag = (/** @type {Event} */ event) => {
      if (this.press || this.drag) event.preventDefault();
    };
    list.element.addEventListener("pointerdown", this.onDown);
    list.element.addEventListener("contextmenu", this.onContextMenu);
    list.element.addEventListener("dragstart", this.onNativeDrag);
    // Registered for good, not when a press begins: the browser decides whether a touch may
    // be held back from scrolling when it starts, by the listeners there are then.
    list.element.addEventListener("touchmove", this.onTouchMove, { passive: false });
  }

  get active() {
    return this.drag !== null;
  }

  /** @param {PointerEvent} event */
  pressed(event) {
    if (event.button !== 0 || this.drag || this.press) return;
    const target = /** @type {Element} */ (event.target);
    const item = /** @type {HTMLElement | null} */ (target.closest(".cb-item"));
    if (!item || item.parentElement !== this.list.element || !item.dataset.id) return;
    if (this.list.handle ? !target.closest(this.list.handle) : target.closest("input, textarea, select, button, a, [contenteditable]")) return;
    if (this.list.keyboard.active) this.list.keyboard.cancel();
    const waitsForHold = event.pointerType === "touch" && !this.list.handle;
    this.press = { item, id: item.dataset.id, pointerId: event.pointerId, x: event.clientX, y: event.clientY, waitsForHold, held: false, timer: undefined };
    if (waitsForHold) {
      const press = this.press;
      press.timer = setTimeout(() => this.heldLongEnough(press), this.list.holdDelay);
      item.classList.add("cb-pressing");
    }
    window.addEventListener("pointermove", this.onMove);
    window.addEventListener("pointerup", this.onUp);
    window.addEventListener("pointercancel", this.onCancel);
  }

  /**
   * The finger rested long enough: the item lifts where it is, visibly, before any move.
   * @param {Press} press
   */
  heldLongEnough(press) {
    if (this.press !== press) return;
    press.held = true;
    press.item.classList.remove("cb-pressing");
    if (!this.begin(press.x, press.y)) this.release();
  }

  /** @param {PointerEvent} event */
  moved(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.pointerId) return;
    if (!this.drag) {
      const distance = Math.hypot(event.clientX - press.x, event.clientY - press.y);
      if (press.waitsForHold) {
        if (distance > SCROLL_DISTANCE) this.release(); // a swipe: the page scrolls
        return;
      }
      if (distance < START_DISTANCE) return;
      if (!this.begin(press.x, press.y)) return this.release();
    }
    event.preventDefault();
    const drag = /** @type {Drag} */ (this.drag);
    drag.x = event.clientX;
    drag.y = event.clientY;
    this.follow();
    return undefined;
  }

  /** @param {PointerEvent} event */
  released(event) {
    if (!this.press || event.pointerId !== this.press.pointerId) return;
    if (this.drag) this.drop();
    this.release();
  }

  release() {
    if (this.press) {
      clearTimeout(this.press.timer);
      this.press.item.classList.remove("cb-pressing");
    }
    this.press = null;
    window.removeEventListener("pointermove", this.onMove);
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("pointercancel", this.onCancel);
  }

  /**
   * Lifts the pressed item, the pointer at (x, y). False when it may not move now.
   * @param {number} x
   * @param {number} y
   */
  begin(x, y) {
    const { item, id } = /** @type {Press} */ (this.press);
    const refusal = this.list.refusal;
    const holder = this.list.holderOf(id);
    if (refusal || holder) {
      this.list.announce(refusal ?? `${holder} is holding ${this.list.describe([id])}.`);
      return false;
    }
    const origin = this.list.items.findIndex((i) => i.id === id);
    const rect = item.getBoundingClientRect();
    const avatar = /** @type {HTMLElement} */ (item.cloneNode(true));
    avatar.classList.add("cb-drag-avatar");
    avatar.classList.remove("cb-pressing");
    for (const attribute of ["data-id", "id", "tabindex", "aria-describedby"]) avatar.removeAttribute(attribute);
    avatar.setAttribute("aria-hidden", "true");
    Object.assign(avatar.style, {
      position: "fixed", left: "0", top: "0", margin: "0", width: `${rect.width}px`, boxSizing: "border-box",
      pointerEvents: "none", zIndex: "2147483647",
    });
    // The avatar is not inside the list: in a `ul`/`ol` of its own, list styles still apply.
    document.body.append(avatar);
    this.placeholder.style.height = `${rect.height}px`;
    this.drag = { id, item, avatar, offsetX: x - rect.left, offsetY: y - rect.top, x, y, index: origin, origin, scrollFrame: 0 };
    item.before(this.placeholder);
    item.classList.add("cb-dragging");
    item.style.display = "none";
    window.addEventListener("keydown", this.onKey);
    this.list.live.startDrag([id]);
    this.list.live.dragOver(this.list.collection, origin);
    this.list.announce(`Picked up ${this.list.describe([id])}.`);
    this.follow();
    this.scrollLoop();
    return true;
  }

  /** The avatar follows the pointer; the placeholder goes where the item would land. */
  follow() {
    const drag = /** @type {Drag} */ (this.drag);
    const { avatar, x, y } = drag;
    avatar.style.transform = `translate(${x - drag.offsetX}px, ${y - drag.offsetY}px)`;
    const rect = this.list.element.getBoundingClientRect();
    const near = x >= rect.left - REACH && x <= rect.right + REACH && y >= rect.top - REACH && y <= rect.bottom + REACH;
    avatar.classList.toggle("cb-will-cancel", !near);
    const index = near ? this.indexAt(x, y) : null;
    if (index === drag.index) return;
    drag.index = index;
    if (index === null) {
      this.placeholder.remove();
      return;
    }
    this.placePlaceholder();
    this.list.live.dragOver(this.list.collection, index);
  }

  /**
   * Where an item let go at (x, y) would land, in the list with the dragged item left out.
   * Items side by side (a grid, a row) are split at their middle across; items stacked are
   * split at their middle down.
   * @param {number} x
   * @param {number} y
   */
  indexAt(x, y) {
    const elements = this.list.itemElements(new Set([/** @type {Drag} */ (this.drag).id]));
    const rects = elements.map((element) => element.getBoundingClientRect());
    const index = rects.findIndex((r, i) => {
      const sideBySide = (rects[i + 1] && rects[i + 1].top < r.bottom - 1) || (rects[i - 1] && r.top < rects[i - 1].bottom - 1);
      if (!sideBySide) return y < r.top + r.height / 2;
      return y < r.top || (y <= r.bottom && x < r.left + r.width / 2);
    });
    return index < 0 ? rects.length : index;
  }

  placePlaceholder() {
    const drag = /** @type {Drag} */ (this.drag);
    if (drag.index === null) return;
    const rest = this.list.itemElements(new Set([drag.id]));
    const anchor = rest[drag.index];
    if (anchor) anchor.before(this.placeholder);
    else if (rest.length) rest[rest.length - 1].after(this.placeholder);
    else this.list.element.append(this.placeholder);
  }

  drop() {
    const drag = /** @type {Drag} */ (this.drag);
    const { id, index, origin } = drag;
    if (index === null) return this.cancel();
    const before = this.list.anchorAt(index, new Set([id]));
    this.finish();
    drag.item.focus({ preventScroll: true });
    const name = this.list.describe([id]);
    if (index === origin) {
      // Nothing to move: give the item back rather than send a move that changes nothing.
      this.list.live.endDrag();
      this.list.announce(`Dropped ${name} where it was.`);
      return undefined;
    }
    this.list.announce(`Dropped ${name} at position ${index + 1}.`);
    // The move ends the drag on the server. A refusal is also a "rejected" event of the live board.
    this.list.live.move([id], { collection: this.list.collection, before }).catch((/** @type {Error} */ error) => {
      this.list.announce(`${name} could not be moved: ${error.message}`);
    });
    return undefined;
  }

  cancel() {
    if (!this.drag) return this.release();
    const { id } = this.drag;
    this.finish();
    this.release();
    this.list.live.endDrag();
    this.list.announce(`Move cancelled. ${this.list.describe([id])} is back in place.`);
    return undefined;
  }

  /** The server ended or refused our drag: it stops here, without a drag.end. False when there was none. */
  abort() {
    if (!this.drag) return false;
    this.finish();
    this.release();
    return true;
  }

  /** Removes every trace of the drag from the page. */
  finish() {
    const { item, avatar, scrollFrame } = /** @type {Drag} */ (this.drag);
    cancelAnimationFrame(scrollFrame);
    window.removeEventListener("keydown", this.onKey);
    avatar.remove();
    this.placeholder.remove();
    item.style.display = "";
    item.classList.remove("cb-dragging");
    this.drag = null;
  }

  /** Before the list is arranged: the placeholder leaves it. */
  takeOut() {
    this.placeholder.remove();
  }

  /** After the list is arranged: the placeholder goes back; a dragged item someone deleted ends the drag. */
  restore() {
    const drag = this.drag;
    if (!drag) return;
    const entry = this.list.entries.get(drag.id);
    if (!entry || this.list.refusal) {
      // Deleted under the pointer, or the board was locked: the drag cannot end in a move.
      this.finish();
      this.release();
      this.list.live.endDrag();
      this.list.announce(entry ? `Move ended: ${this.list.refusal}` : "The item you were moving was deleted.");
      return;
    }
    drag.item = entry.element;
    drag.item.style.display = "none";
    drag.item.classList.add("cb-dragging");
    this.placePlaceholder();
  }

  /** Near the window's top or bottom edge (or the list's, if it scrolls) the view scrolls while the pointer waits there. */
  scrollLoop() {
    const drag = this.drag;
    if (!drag) return;
    const list = this.list.element;
    const rect = list.getBoundingClientRect();
    const [windowTop, listTop] = [window.scrollY, list.scrollTop];
    if (drag.y < EDGE) window.scrollBy(0, -SCROLL_STEP);
    else if (drag.y > window.innerHeight - EDGE) window.scrollBy(0, SCROLL_STEP);
    if (list.scrollHeight > list.clientHeight && drag.y >= rect.top && drag.y <= rect.bottom) {
      if (drag.y < rect.top + EDGE) list.scrollTop -= SCROLL_STEP;
      else if (drag.y > rect.bottom - EDGE) list.scrollTop += SCROLL_STEP;
    }
    // Only a scroll moves the items under a pointer that waits (a long list is not measured every frame).
    if (window.scrollY !== windowTop || list.scrollTop !== listTop) this.follow();
    drag.scrollFrame = requestAnimationFrame(() => this.scrollLoop());
  }

  destroy() {
    if (this.drag) this.cancel();
    this.release();
    this.list.element.removeEventListener("pointerdown", this.onDown);
    this.list.element.removeEventListener("contextmenu", this.onContextMenu);
    this.list.element.removeEventListener("dragstart", this.onNativeDrag);
    this.list.element.removeEventListener("touchmove", this.onTouchMove);
  }
}
