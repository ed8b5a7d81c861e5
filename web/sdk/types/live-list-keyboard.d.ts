/** @typedef {import("./live-list.js").LiveList} LiveList */
/**
 * The item in hand: where it would land (in the list with it left out) and where it was.
 * @typedef {{ id: string, index: number, origin: number }} Lift
 */
export class KeyboardLift {
    /** @param {LiveList} list */
    constructor(list: LiveList);
    list: import("./live-list.js").LiveList;
    /** @type {Lift | null} */
    lift: Lift | null;
    onKey: (event: KeyboardEvent) => void;
    get active(): boolean;
    /** @param {KeyboardEvent} event */
    key(event: KeyboardEvent): void;
    get index(): number;
    /** @param {string} id */
    pickUp(id: string): void;
    element(): HTMLElement | null;
    /** @param {number} index */
    moveTo(index: number): void;
    /** Shows the item in hand at its place (also after the list was drawn again), keeping the focus on it. */
    place(): void;
    /** After the list was drawn again: the item in hand goes back to its place, or the lift ends if it is gone. */
    restore(): void;
    /** Where the item in hand is, in words: "Position 2 of 5". */
    position(): string;
    drop(): void;
    cancel(): void;
    /** The server ended or refused our drag: it stops here, without a drag.end. False when there was none. */
    abort(): boolean;
    end(): void;
    destroy(): void;
}
export type LiveList = import("./live-list.js").LiveList;
/**
 * The item in hand: where it would land (in the list with it left out) and where it was.
 */
export type Lift = {
    id: string;
    index: number;
    origin: number;
};
