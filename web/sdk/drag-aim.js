// @ts-check
// Where a pointer drag would land, as the pointer goes: a place in a list, or into an item
// that takes drops (a folder). Over such an item the place stays where it was, so the
// placeholder does not open before the item and push it away from under the pointer; held
// there for `dwell` ms, a release drops into it. Pure (the time comes in): tested in Node.

// How long a drag must stay over an item that takes drops before a release goes into it:
// shorter, and passing over a folder on the way to a place would drop into it.
export const DWELL_MS = 500;

/** @typedef {{ list: string, index: number }} DragPlace */
/**
 * What a hit test found under the pointer: the place a release would land (in `list`, at
 * `index` with the carried items left out), and `into`, the item under the pointer that
 * takes the carried items, if any. With `into`, `index` is a place that leaves it where it is
 * (after it), taken only when the drag had no place in that list yet.
 * @typedef {{ list: string, index: number, into?: string | null }} DragSlot
 */
/**
 * What changed: the place (the placeholder moves), the item a release goes into, and when
 * (a time of the clock) `tick` should be called to arm a drop into the item under the pointer.
 * @typedef {{ placeChanged: boolean, intoChanged: boolean, due: number | null }} AimChange
 */

/**
 * @param {DragPlace | null} a
 * @param {DragPlace | null} b
 */
export function samePlace(a, b) {
  return a === b || (a !== null && b !== null && a.list === b.list && a.index === b.index);
}

export class DropAim {
  /**
   * @param {DragPlace | null} place where the drag starts (the item's own place)
   * @param {number} [dwell] ms over an item before a release goes into it
   */
  constructor(place, dwell = DWELL_MS) {
    /** @type {DragPlace | null} */
    this.place = place;
    /** @type {string | null} the item a release now goes into */
    this.into = null;
    /** @type {string | null} the item under the pointer that takes drops */
    this.over = null;
    this.since = 0;
    this.dwell = dwell;
  }

  /**
   * The pointer is over `slot` (null: off every list) at time `now`.
   * @param {DragSlot | null} slot
   * @param {number} now
   * @returns {AimChange}
   */
  aim(slot, now) {
    const over = slot?.into ?? null;
    let intoChanged = false;
    if (over !== this.over) {
      this.over = over;
      this.since = now;
      if (this.into !== null) {
        this.into = null;
        intoChanged = true;
      }
    }
    /** @type {DragPlace | null} */
    let place = slot ? { list: slot.list, index: slot.index } : null;
    // Over an item that takes drops, the placeholder stays (in that list): it must not push the item away.
    if (over !== null && this.place !== null && this.place.list === slot?.list) place = this.place;
    const placeChanged = !samePlace(place, this.place);
    this.place = place;
    return { placeChanged, intoChanged, due: this.due };
  }

  /** When a drop into the item under the pointer arms (a time of the clock); null: none waits. */
  get due() {
    return this.over !== null && this.into === null ? this.since + this.dwell : null;
  }

  /**
   * Time passed: true when a release now goes into the item under the pointer (it arms now).
   * @param {number} now
   */
  tick(now) {
    if (this.over === null || this.into !== null || now < this.since + this.dwell) return false;
    this.into = this.over;
    return true;
  }
}
