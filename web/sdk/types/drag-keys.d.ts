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
export function keyStep(key: string, place: DragPlace, lists: KeyLists, options?: {
    across?: boolean | undefined;
} | undefined): KeyStep;
export type DragPlace = import("./drag-aim.js").DragPlace;
export type KeyStep = {
    kind: "drop";
} | {
    kind: "cancel";
    focusMovesOn: boolean;
} | {
    kind: "place";
    place: DragPlace;
} | {
    kind: "still";
} | {
    kind: "ignore";
};
/**
 * What a step needs to know of the lists: how many items a list holds without the carried
 * ones, and the list `delta` lists away from one (left -1, right +1; null: none there).
 */
export type KeyLists = {
    count(list: string): number;
    neighbour(list: string, delta: number): string | null;
};
