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
// A pointer that has just come to an edge scrolls at this share of its speed, reaching full
// speed after RAMP_MS there: a finger resting near a phone's edge (5 px from it is where a
// thumb holding a card rests) no longer ran the board past its last column in half a second.
export const RAMP_FLOOR = 0.15;
export const RAMP_MS = 1000;
// A frame counts for no more than this (a tab in the background, a long task): no leap after it.
export const LONGEST_FRAME_MS = 50;

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

/**
 * The scroll of one frame, paced by time rather than by frames: `step` (edgeStep's pixels for a
 * frame of 1/60 s) for the `elapsed` ms since the last frame, at the ramp's share for a pointer
 * at the edge for `waited` ms. At least a pixel while `step` is not 0 (a box scrolled by a
 * fraction of a pixel may not move at all).
 * @param {number} step
 * @param {number} elapsed
 * @param {number} waited
 */
export function pacedStep(step, elapsed, waited) {
  if (step === 0) return 0;
  const share = Math.min(1, RAMP_FLOOR + (1 - RAMP_FLOOR) * (Math.max(0, waited) / RAMP_MS));
  const pixels = (step * Math.min(Math.max(0, elapsed), LONGEST_FRAME_MS) * share) / (1000 / 60);
  return Math.sign(step) * Math.max(1, Math.round(Math.abs(pixels)));
}

/**
 * `step` cut so that a scroll at `scrolled` goes no further than `end` (the content's end; no
 * bound when it is undefined); never back, if it is already past it.
 * @param {number} step
 * @param {number} scrolled
 * @param {number | undefined} end
 */
export function boundedStep(step, scrolled, end) {
  if (end === undefined || step <= 0) return step;
  return Math.max(0, Math.min(step, end - scrolled));
}

/**
 * @typedef {{ scrollLeft: number, scrollTop: number, scrollWidth: number, scrollHeight: number,
 *   clientWidth: number, clientHeight: number }} ScrollBox
 */

/**
 * What a wheel turned by (`dx`, `dy`) pixels scrolls among `scrollers` (innermost first), as
 * the browser chains it: the first that can still move that way, by the part of the turn it
 * can take; null when none can.
 * @template {ScrollBox} S
 * @param {S[]} scrollers
 * @param {number} dx
 * @param {number} dy
 * @returns {{ scroller: S, left: number, top: number } | null}
 */
export function wheelScroll(scrollers, dx, dy) {
  for (const scroller of scrollers) {
    const left = canScroll(scroller.scrollLeft, scroller.scrollWidth - scroller.clientWidth, dx) ? dx : 0;
    const top = canScroll(scroller.scrollTop, scroller.scrollHeight - scroller.clientHeight, dy) ? dy : 0;
    if (left !== 0 || top !== 0) return { scroller, left, top };
  }
  return null;
}

/**
 * Whether a box scrolled to `at` of `end` can move by `delta` (a scroll position may be a
 * fraction of a pixel short of either end).
 * @param {number} at
 * @param {number} end
 * @param {number} delta
 */
function canScroll(at, end, delta) {
  if (delta > 0) return at < end - 0.5;
  if (delta < 0) return at > 0.5;
  return false;
}
