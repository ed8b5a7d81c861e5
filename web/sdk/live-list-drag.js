// @ts-check
// Reordering a live list by pointer and keyboard, on the drag engine (drag-engine.js): this
// file says what the engine needs of one list (its items, where a point lands, where a place
// is drawn) and turns its callbacks into presence (startDrag / dragOver / endDrag), a move by
// anchor, and words for screen readers.
//
// Pointer: the item lifts into an avatar (`cb-drag-avatar`) that follows the pointer, a
// `cb-placeholder` opens where it would land, the page scrolls near the window's edges (and
// the list's, if it scrolls). A mouse drag starts after a few pixels; a touch after a
// press-and-hold (so a swipe still scrolls the page), or at once on a handle. Escape, or a
// release away from the list, cancels. Keyboard: Space (or Enter) picks the focused item up,
// the arrows carry it (Up/Left earlier, Down/Right later, Home/End to either end), Space or
// Enter drops it, Escape or Tab puts it back.

import { DragEngine } from "./drag-engine.js";
import { REACH, isNear, slotIndex } from "./drag-geometry.js";

/** @typedef {import("./live-list.js").LiveList} LiveList */
/** @typedef {import("./drag-engine.js").Drag} Drag */
/** @typedef {import("./drag-aim.js").DragPlace} DragPlace */

export class ListDrag {
  /** @param {LiveList} list */
  constructor(list) {
    this.list = list;
    const placeholder = document.createElement(list.itemTag);
    placeholder.className = "cb-placeholder";
    placeholder.setAttribute("aria-hidden", "true");
    this.placeholder = placeholder;
    this.engine = new DragEngine(list.element, {
      placeholder,
      holdDelay: list.holdDelay,
      look: { pressing: "cb-pressing", carried: "cb-dragging", keyboard: "cb-keyboard-lifted", avatar: "cb-drag-avatar", willCancel: "cb-will-cancel" },
      host: {
        pressable: (target) => this.pressable(target),
        keyItem: (element) => (element.parentElement === list.element && element.dataset.id ? element.dataset.id : null),
        carried: (id) => [id],
        refusal: ([id]) => list.refusal ?? (list.holderOf(id) ? `${list.holderOf(id)} is holding ${list.describe([id])}.` : null),
        placeOf: (id) => {
          const index = list.items.findIndex((item) => item.id === id);
          return index < 0 ? null : { list: list.collection, index };
        },
        elementOf: (id) => list.entries.get(id)?.element ?? null,
        slotAt: (x, y, carried) => {
          if (!isNear(list.element.getBoundingClientRect(), x, y, REACH)) return null;
          const boxes = list.itemElements(carried).map((element) => element.getBoundingClientRect());
          return { list: list.collection, index: slotIndex(boxes, x, y) };
        },
        nodeAt: (place, carried) => {
          const rest = list.itemElements(carried);
          const next = rest[place.index] ?? (rest.length ? rest[rest.length - 1].nextSibling : null);
          return { parent: list.element, next };
        },
        // The list itself when it scrolls and the pointer is on it; the page.
        scrollersAt: (x, y) => {
          const rect = list.element.getBoundingClientRect();
          const onList = y >= rect.top && y <= rect.bottom && x >= rect.left && x <= rect.right;
          const scrolls = list.element.scrollHeight > list.element.clientHeight;
          return [...(onList && scrolls ? [list.element] : []), ...(document.scrollingElement ? [document.scrollingElement] : [])];
        },
        lists: { count: () => Math.max(0, list.items.length - 1), neighbour: () => null },
      },
      on: {
        refused: (text) => list.announce(text),
        pickUp: (drag) => this.pickedUp(drag),
        over: (drag) => {
          if (!drag.place) return;
          list.live.dragOver(list.collection, drag.place.index);
          if (drag.mode === "keyboard") list.announce(this.position(drag.place));
        },
        still: (drag) => list.announce(`${this.position(/** @type {DragPlace} */ (drag.place))}. It cannot go further.`),
        drop: (drag) => this.dropped(drag),
        cancel: (drag, reason) => this.cancelled(drag, reason),
        interrupt: (_drag, why) => {
          list.live.endDrag();
          list.announce(why === null ? "The item you were moving was deleted." : `Move ended: ${why}`);
        },
      },
    });
  }

  get active() {
    return this.engine.active;
  }

  /**
   * An item of this list a press on `target` picks up: with a handle, only by it; without,
   * anywhere but on its controls.
   * @param {Element} target
   */
  pressable(target) {
    const item = /** @type {HTMLElement | null} */ (target.closest(".cb-item"));
    if (!item || item.parentElement !== this.list.element || !item.dataset.id) return null;
    const handle = this.list.handle;
    if (handle ? !target.closest(handle) : target.closest("input, textarea, select, button, a, [contenteditable]")) return null;
    return { element: item, id: item.dataset.id, handle: handle !== null };
  }

  /**
   * "Position 2 of 5".
   * @param {DragPlace} place
   */
  position(place) {
    return `Position ${place.index + 1} of ${this.list.items.length}`;
  }

  /** @param {Drag} drag */
  pickedUp(drag) {
    const list = this.list;
    list.live.startDrag(drag.ids);
    list.live.dragOver(list.collection, drag.origin.index);
    const name = list.describe(drag.ids);
    if (drag.mode === "pointer") list.announce(`Picked up ${name}.`);
    else list.announce(`Picked up ${name}. ${this.position(drag.origin)}. Arrow keys move it, Space drops it, Escape cancels.`);
  }

  /** @param {Drag} drag */
  dropped(drag) {
    const list = this.list;
    const place = /** @type {DragPlace} */ (drag.place);
    const name = list.describe(drag.ids);
    const before = list.anchorAt(place.index, new Set(drag.ids));
    drag.element.focus({ preventScroll: drag.mode === "pointer" });
    if (place.index === drag.origin.index) {
      // Nothing to move: give the item back rather than send a move that changes nothing.
      list.live.endDrag();
      if (drag.mode === "keyboard") list.draw();
      list.announce(`Dropped ${name} where it was.`);
      return;
    }
    list.announce(drag.mode === "pointer" ? `Dropped ${name} at position ${place.index + 1}.` : `Dropped ${name}. ${this.position(place)}.`);
    // The move ends the drag on the server. A refusal is also a "rejected" event of the live board.
    list.live.move(drag.ids, { collection: list.collection, before }).catch((/** @type {Error} */ error) => {
      list.announce(`${name} could not be moved: ${error.message}`);
    });
  }

  /**
   * @param {Drag} drag
   * @param {import("./drag-engine.js").CancelReason} reason
   */
  cancelled(drag, reason) {
    const list = this.list;
    list.live.endDrag();
    if (drag.mode === "keyboard") {
      list.draw(); // back where the board has it
      if (reason !== "tab") list.entries.get(drag.ids[0])?.element.focus();
    }
    const name = list.describe(drag.ids);
    const off = reason === "off the lists" ? "Released away from the list: move cancelled." : "Move cancelled.";
    list.announce(`${off} ${name} is back in place.`);
  }

  /** Before the list is arranged: the placeholder leaves it. */
  takeOut() {
    this.placeholder.remove();
  }

  /** After the list is arranged: the drag's marks and placeholder go back, or it ends. */
  restore() {
    this.engine.restore();
  }

  /** The server ended or refused our drag: it stops here, without a drag.end. False when there was none. */
  abort() {
    return this.engine.abort();
  }

  destroy() {
    this.engine.destroy();
  }
}
