/**
 * The index an item let go at (x, y) lands at among `boxes` (the list's items in order, those
 * carried left out). Items side by side (a grid, a row) are split at their middle across;
 * items stacked are split at their middle down.
 * @param {Box[]} boxes
 * @param {number} x
 * @param {number} y
 */
export function slotIndex(boxes: Box[], x: number, y: number): number;
/**
 * The index among stacked `boxes` (in order, top to bottom) before the first whose middle is
 * below `y`, found by halving: for long lists, measured only where the halving looks.
 * @param {number} count
 * @param {(index: number) => Box} boxAt
 * @param {number} y
 */
export function stackedSlotIndex(count: number, boxAt: (index: number) => Box, y: number): number;
/**
 * Whether (x, y) is on `box` or within `reach` of it.
 * @param {Box} box
 * @param {number} x
 * @param {number} y
 * @param {number} [reach]
 */
export function isNear(box: Box, x: number, y: number, reach?: number | undefined): boolean;
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
export function edgeStep(at: number, low: number, high: number, scrolled: number, most: number, limits?: {
    edge?: number | undefined;
    maxStep?: number | undefined;
} | undefined): number;
/**
 * The scroll of one frame, paced by time rather than by frames: `step` (edgeStep's pixels for a
 * frame of 1/60 s) for the `elapsed` ms since the last frame, at the ramp's share for a pointer
 * at the edge for `waited` ms. At least a pixel while `step` is not 0 (a box scrolled by a
 * fraction of a pixel may not move at all).
 * @param {number} step
 * @param {number} elapsed
 * @param {number} waited
 */
export function pacedStep(step: number, elapsed: number, waited: number): number;
/**
 * `step` cut so that a scroll at `scrolled` goes no further than `end` (the content's end; no
 * bound when it is undefined); never back, if it is already past it.
 * @param {number} step
 * @param {number} scrolled
 * @param {number | undefined} end
 */
export function boundedStep(step: number, scrolled: number, end: number | undefined): number;
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
export function wheelScroll<S extends ScrollBox>(scrollers: S[], dx: number, dy: number): {
    scroller: S;
    left: number;
    top: number;
} | null;
/** @typedef {{ left: number, top: number, right: number, bottom: number, width: number, height: number }} Box */
export const EDGE: 48;
export const MAX_SCROLL_STEP: 18;
export const REACH: 24;
export const RAMP_FLOOR: 0.15;
export const RAMP_MS: 1000;
export const LONGEST_FRAME_MS: 50;
export type ScrollBox = {
    scrollLeft: number;
    scrollTop: number;
    scrollWidth: number;
    scrollHeight: number;
    clientWidth: number;
    clientHeight: number;
};
export type Box = {
    left: number;
    top: number;
    right: number;
    bottom: number;
    width: number;
    height: number;
};
