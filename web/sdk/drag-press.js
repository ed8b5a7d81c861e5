// @ts-check
// A press on an item, until it becomes a drag or comes to nothing. A mouse or pen lifts the
// item once it has moved a few pixels; a finger must first rest on it (a swipe that starts on
// an item is a scroll, as on every phone), unless it pressed a handle. The drag engine feeds
// it the pointer's moves and the hold's end and does what it answers. Pure: tested in Node.

// A mouse or pen moved this far: the press is a drag.
export const START_DISTANCE = 4;
// How long a finger rests on an item before it lifts, in ms (by default).
export const HOLD_MS = 250;
// A finger moving further than this before the hold ends is scrolling, not picking up.
export const HOLD_TOLERANCE = 8;

/**
 * What the engine does after a step of a press: nothing yet ("wait"), lift the item
 * ("lift"), or let the press go, the browser scrolling ("scroll").
 * @typedef {"wait" | "lift" | "scroll"} PressAction
 */

export class PressGesture {
  /**
   * @param {{ x: number, y: number, waitsForHold: boolean }} start where the press began, and
   *   whether it must rest first (a finger, not on a handle)
   */
  constructor({ x, y, waitsForHold }) {
    this.x = x;
    this.y = y;
    this.lastX = x;
    this.lastY = y;
    this.waitsForHold = waitsForHold;
    /** @type {"pressed" | "lifted" | "gone"} */
    this.state = "pressed";
  }

  /**
   * The pointer moved to (x, y).
   * @param {number} x
   * @param {number} y
   * @returns {PressAction}
   */
  moved(x, y) {
    if (this.state !== "pressed") return "wait";
    this.lastX = x;
    this.lastY = y;
    const distance = Math.hypot(x - this.x, y - this.y);
    if (this.waitsForHold) {
      if (distance <= HOLD_TOLERANCE) return "wait";
      this.state = "gone";
      return "scroll";
    }
    if (distance < START_DISTANCE) return "wait";
    this.state = "lifted";
    return "lift";
  }

  /**
   * The hold's time is up.
   * @returns {PressAction}
   */
  held() {
    if (this.state !== "pressed" || !this.waitsForHold) return "wait";
    this.state = "lifted";
    return "lift";
  }
}
