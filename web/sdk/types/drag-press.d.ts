export const START_DISTANCE: 4;
export const HOLD_MS: 250;
export const HOLD_TOLERANCE: 8;
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
    constructor({ x, y, waitsForHold }: {
        x: number;
        y: number;
        waitsForHold: boolean;
    });
    x: number;
    y: number;
    lastX: number;
    lastY: number;
    waitsForHold: boolean;
    /** @type {"pressed" | "lifted" | "gone"} */
    state: "pressed" | "lifted" | "gone";
    /**
     * The pointer moved to (x, y).
     * @param {number} x
     * @param {number} y
     * @returns {PressAction}
     */
    moved(x: number, y: number): PressAction;
    /**
     * The hold's time is up.
     * @returns {PressAction}
     */
    held(): PressAction;
}
/**
 * What the engine does after a step of a press: nothing yet ("wait"), lift the item
 * ("lift"), or let the press go, the browser scrolling ("scroll").
 */
export type PressAction = "wait" | "lift" | "scroll";
