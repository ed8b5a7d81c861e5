// @ts-check
// Reordering a live list without a pointer: Space (or Enter) picks the focused item up, the
// arrow keys carry it (Up/Left earlier, Down/Right later, Home/End to either end), Space or
// Enter drops it, Escape or Tab puts it back. Every step is announced to screen readers;
// presence goes out like a pointer drag's, so the others see the item travel.

/** @typedef {import("./live-list.js").LiveList} LiveList */
/**
 * The item in hand: where it would land (in the list with it left out) and where it was.
 * @typedef {{ id: string, index: number, origin: number }} Lift
 */

export class KeyboardLift {
  /** @param {LiveList} list */
  constructor(list) {
    this.list = list;
    /** @type {Lift | null} */
    this.lift = null;
    this.onKey = (/** @type {KeyboardEvent} */ event) => this.key(event);
    list.element.addEventListener("keydown", this.onKey);
  }

  get active() {
    return this.lift !== null;
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    const item = /** @type {HTMLElement} */ (event.target);
    // Keys typed into something inside an item (an input, a button) are not ours.
    if (item.parentElement !== this.list.element || !item.dataset.id || event.altKey || event.ctrlKey || event.metaKey) return;
    if (!this.lift) {
      if (event.key !== " " && event.key !== "Enter") return;
      event.preventDefault();
      this.pickUp(item.dataset.id);
      return;
    }
    const count = this.list.items.length - 1;
    /** @type {Record<string, () => void>} */
    const actions = {
      " ": () => this.drop(),
      Enter: () => this.drop(),
      Escape: () => this.cancel(),
      ArrowUp: () => this.moveTo(this.index - 1),
      ArrowLeft: () => this.moveTo(this.index - 1),
      ArrowDown: () => this.moveTo(this.index + 1),
      ArrowRight: () => this.moveTo(this.index + 1),
      Home: () => this.moveTo(0),
      End: () => this.moveTo(count),
    };
    if (event.key === "Tab") return this.cancel(); // and the focus moves on
    event.preventDefault(); // nothing else while an item is in hand (no page scroll either)
    actions[event.key]?.();
  }

  get index() {
    return /** @type {Lift} */ (this.lift).index;
  }

  /** @param {string} id */
  pickUp(id) {
    if (this.list.pointer.active) return;
    const refusal = this.list.refusal;
    const holder = this.list.holderOf(id);
    if (refusal || holder) {
      this.list.announce(refusal ?? `${holder} is holding ${this.list.describe([id])}.`);
      return;
    }
    const origin = this.list.items.findIndex((i) => i.id === id);
    this.lift = { id, index: origin, origin };
    this.list.live.startDrag([id]);
    this.list.live.dragOver(this.list.collection, origin);
    this.element()?.classList.add("cb-dragging", "cb-keyboard-lifted");
    this.list.announce(`Picked up ${this.list.describe([id])}. ${this.position()}. Arrow keys move it, Space drops it, Escape cancels.`);
  }

  element() {
    return this.lift ? (this.list.entries.get(this.lift.id)?.element ?? null) : null;
  }

  /** @param {number} index */
  moveTo(index) {
    const lift = /** @type {Lift} */ (this.lift);
    const bounded = Math.max(0, Math.min(this.list.items.length - 1, index));
    if (bounded === lift.index) {
      this.list.announce(`${this.position()}. It cannot go further.`);
      return;
    }
    lift.index = bounded;
    this.place();
    this.list.live.dragOver(this.list.collection, bounded);
    this.list.announce(this.position());
  }

  /** Shows the item in hand at its place (also after the list was drawn again), keeping the focus on it. */
  place() {
    const element = this.element();
    if (!element || !this.lift) return;
    const rest = this.list.itemElements(new Set([this.lift.id]));
    const anchor = rest[this.lift.index];
    if (anchor) anchor.before(element);
    else if (rest.length) rest[rest.length - 1].after(element);
    element.classList.add("cb-dragging", "cb-keyboard-lifted");
    element.focus({ preventScroll: false });
  }

  /** After the list was drawn again: the item in hand goes back to its place, or the lift ends if it is gone. */
  restore() {
    if (!this.lift) return;
    const refusal = this.list.refusal;
    if (!this.element() || refusal) {
      const gone = !this.element();
      this.end();
      this.list.live.endDrag();
      this.list.announce(gone ? "The item you were moving was deleted." : `Move ended: ${refusal}`);
      return;
    }
    // Others' changes can shorten the list under the lift.
    this.lift.index = Math.min(this.lift.index, this.list.items.length - 1);
    this.place();
  }

  /** Where the item in hand is, in words: "Position 2 of 5". */
  position() {
    return `Position ${this.index + 1} of ${this.list.items.length}`;
  }

  drop() {
    const { id, index, origin } = /** @type {Lift} */ (this.lift);
    const where = this.position();
    const before = this.list.anchorAt(index, new Set([id]));
    const element = this.element();
    this.end();
    const name = this.list.describe([id]);
    if (index === origin) {
      this.list.live.endDrag();
      this.list.announce(`Dropped ${name} where it was.`);
      return;
    }
    // The move ends the drag on the server. A refusal is also a "rejected" event of the live board.
    this.list.live.move([id], { collection: this.list.collection, before }).catch((/** @type {Error} */ error) => {
      this.list.announce(`${name} could not be moved: ${error.message}`);
    });
    element?.focus();
    this.list.announce(`Dropped ${name}. ${where}.`);
  }

  cancel() {
    if (!this.lift) return;
    const { id } = this.lift;
    this.end();
    this.list.live.endDrag();
    this.list.draw(); // back where the board has it
    this.list.entries.get(id)?.element.focus();
    this.list.announce(`Move cancelled. ${this.list.describe([id])} is back in place.`);
  }

  /** The server ended or refused our drag: it stops here, without a drag.end. False when there was none. */
  abort() {
    if (!this.lift) return false;
    this.end();
    return true;
  }

  end() {
    this.element()?.classList.remove("cb-dragging", "cb-keyboard-lifted");
    this.lift = null;
  }

  destroy() {
    this.cancel();
    this.list.element.removeEventListener("keydown", this.onKey);
  }
}
