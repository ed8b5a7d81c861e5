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
export function samePlace(a: DragPlace | null, b: DragPlace | null): boolean;
export const DWELL_MS: 500;
export class DropAim {
    /**
     * @param {DragPlace | null} place where the drag starts (the item's own place)
     * @param {number} [dwell] ms over an item before a release goes into it
     */
    constructor(place: DragPlace | null, dwell?: number | undefined);
    /** @type {DragPlace | null} */
    place: DragPlace | null;
    /** @type {string | null} the item a release now goes into */
    into: string | null;
    /** @type {string | null} the item under the pointer that takes drops */
    over: string | null;
    since: number;
    dwell: number;
    /**
     * The pointer is over `slot` (null: off every list) at time `now`.
     * @param {DragSlot | null} slot
     * @param {number} now
     * @returns {AimChange}
     */
    aim(slot: DragSlot | null, now: number): AimChange;
    /** When a drop into the item under the pointer arms (a time of the clock); null: none waits. */
    get due(): number | null;
    /**
     * Time passed: true when a release now goes into the item under the pointer (it arms now).
     * @param {number} now
     */
    tick(now: number): boolean;
}
export type DragPlace = {
    list: string;
    index: number;
};
/**
 * What a hit test found under the pointer: the place a release would land (in `list`, at
 * `index` with the carried items left out), and `into`, the item under the pointer that
 * takes the carried items, if any. With `into`, `index` is a place that leaves it where it is
 * (after it), taken only when the drag had no place in that list yet.
 */
export type DragSlot = {
    list: string;
    index: number;
    into?: string | null;
};
/**
 * What changed: the place (the placeholder moves), the item a release goes into, and when
 * (a time of the clock) `tick` should be called to arm a drop into the item under the pointer.
 */
export type AimChange = {
    placeChanged: boolean;
    intoChanged: boolean;
    due: number | null;
};
