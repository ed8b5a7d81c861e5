// @ts-check
// Where a drag would land and how fast the view scrolls under it, from rectangles alone: the
// drag engine (drag-engine.js) measures, these decide. Pure, so they are tested in Node.

/** @typedef {{ left: number, top: number, right: number, bottom: number, width: number, height: number }} Box */

// Within this distance of a scrolling box's edge (or just outside it), a waiting pointer scrolls it.
export const EDGE = 48;
// The fastest a box scrolls, in pixels a frame, with the pointer at (or past) its very edge.
export const MAX_SCROLL_STEP = 18;
// Away from a list by more than this, a pointer is off it: a release there cancels.
export const REACH = 24;

/**
 * The index an item let go at (x, y) lands at among `boxes` (the list's items in order, those
 * carried left out). Items side by side (a grid, a row) are split at their middle across;
 * items stacked are split at their middle down.
 * @param {Box[]} boxes
 * @param {number} x
 * @param {number} y
 */
export function slotIndex(boxes, x, y) {
  const index = boxes.findIndex((box, i) => {
    const next = boxes[i + 1];
    const previous = boxes[i - 1];
    const sideBySide = (next && next.top < box.bottom - 1) || (previous && box.top < previous.bottom - 1);
    if (!sideBySide) return y < box.top + box.height / 2;
    return y < box.top || (y <= box.bottom && x < box.left + box.width / 2);
  });
  return index < 0 ? boxes.length : index;
}

/**
 * The index among stacked `boxes` (in order, top to bottom) before the first whose middle is
 * below `y`, found by halving: for long lists, measured only where the halving looks.
 * @param {number} count
 * @param {(index: number) => Box} boxAt
 * @param {number} y
 */
export function stackedSlotIndex(count, boxAt, y) {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    const box = boxAt(middle);
    if (box.top + box.height / 2 > y) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * Whether (x, y) is on `box` or within `reach` of it.
 * @param {Box} box
 * @param {number} x
 * @param {number} y
 * @param {number} [reach]
 */
export function isNear(box, x, y, reach = REACH) {
  return x >= box.left - reach && x <= box.right + reach && y >= box.top - reach && y <= box.bottom + reach;
}

/**
 * How far to scroll along one axis this frame: towards the edge the point is near (within
 * `edge` of `low` or `high`, or up to `edge` outside), faster the nearer it is, and 0 where
 * there is nothing to scroll to.
 * @param {number} at the pointer
 * @param {number} low the box's start on the screen
 * @param {number} high its end
 * @param {number} scrolled how far it is scrolled
 * @param {number} most how far it can scroll
 * @param {{ edge?: number, maxStep?: number }} [limits]
 */
export function edgeStep(at, low, high, scrolled, most, limits = {}) {
  const { edge = EDGE, maxStep = MAX_SCROLL_STEP } = limits;
  if (at < low - edge || at > high + edge) return 0;
  const speed = (/** @type {number} */ depth) => Math.ceil((maxStep * Math.min(edge, depth)) / edge);
  if (at < low + edge && scrolled > 0) return -speed(low + edge - at);
  if (at > high - edge && scrolled < most - 1) return speed(at - (high - edge));
  return 0;
}
