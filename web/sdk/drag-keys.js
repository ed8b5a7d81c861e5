// @ts-check
// What a key does to an item carried by keyboard: Space or Enter drops it, Escape puts it
// back, Tab puts it back and lets the focus move on; the arrows carry it a place (up and
// down) or, in several lists side by side, a list (left and right); Home and End take it to
// either end. Pure, with the lists' sizes given: tested in Node.

/** @typedef {import("./drag-aim.js").DragPlace} DragPlace */
/**
 * @typedef {{ kind: "drop" } | { kind: "cancel", focusMovesOn: boolean } | { kind: "place", place: DragPlace }
 *   | { kind: "still" } | { kind: "ignore" }} KeyStep
 */
/**
 * What a step needs to know of the lists: how many items a list holds without the carried
 * ones, and the list `delta` lists away from one (left -1, right +1; null: none there).
 * @typedef {{ count(list: string): number, neighbour(list: string, delta: number): string | null }} KeyLists
 */

/**
 * The step `key` makes from `place`. With `across`, Left and Right carry the item to the
 * list beside (at the same index, or that list's end); without, they go like Up and Down.
 * "still": it cannot go further that way. "ignore": not a key of the move (swallowed).
 * @param {string} key a `KeyboardEvent.key`
 * @param {DragPlace} place
 * @param {KeyLists} lists
 * @param {{ across?: boolean }} [options]
 * @returns {KeyStep}
 */
export function keyStep(key, place, lists, options = {}) {
  const across = options.across ?? false;
  const last = lists.count(place.list);
  /**
   * @param {number} index
   * @returns {KeyStep}
   */
  const to = (index) => {
    const bounded = Math.max(0, Math.min(last, index));
    return bounded === place.index ? { kind: "still" } : { kind: "place", place: { list: place.list, index: bounded } };
  };
  switch (key) {
    case " ":
    case "Enter":
      return { kind: "drop" };
    case "Escape":
      return { kind: "cancel", focusMovesOn: false };
    case "Tab":
      return { kind: "cancel", focusMovesOn: true };
    case "ArrowUp":
      return to(place.index - 1);
    case "ArrowDown":
      return to(place.index + 1);
    case "Home":
      return to(0);
    case "End":
      return to(last);
    case "ArrowLeft":
    case "ArrowRight": {
      const delta = key === "ArrowLeft" ? -1 : 1;
      if (!across) return to(place.index + delta);
      const list = lists.neighbour(place.list, delta);
      if (list === null) return { kind: "still" };
      return { kind: "place", place: { list, index: Math.min(place.index, lists.count(list)) } };
    }
    default:
      return { kind: "ignore" };
  }
}
