export class PointerLift {
    /** @param {LiveList} list */
    constructor(list: LiveList);
    list: import("./live-list.js").LiveList;
    /** @type {Press | null} */
    press: Press | null;
    /** @type {Drag | null} */
    drag: Drag | null;
    placeholder: HTMLElement;
    onDown: (event: PointerEvent) => void;
    onMove: (event: PointerEvent) => void;
    onUp: (event: PointerEvent) => void;
    onCancel: () => void;
    onKey: (event: KeyboardEvent) => void;
    onTouchMove: (event: TouchEvent) => void;
    onContextMenu: (event: Event) => void;
    onNativeDrag: (event: Event) => void;
    get active(): boolean;
    /** @param {PointerEvent} event */
    pressed(event: PointerEvent): void;
    /**
     * The finger rested long enough: the item lifts where it is, visibly, before any move.
     * @param {Press} press
     */
    heldLongEnough(press: Press): void;
    /** @param {PointerEvent} event */
    moved(event: PointerEvent): void;
    /** @param {PointerEvent} event */
    released(event: PointerEvent): void;
    release(): void;
    /**
     * Lifts the pressed item, the pointer at (x, y). False when it may not move now.
     * @param {number} x
     * @param {number} y
     */
    begin(x: number, y: number): boolean;
    /** The avatar follows the pointer; the placeholder goes where the item would land. */
    follow(): void;
    /**
     * Where an item let go at (x, y) would land, in the list with the dragged item left out.
     * Items side by side (a grid, a row) are split at their middle across; items stacked are
     * split at their middle down.
     * @param {number} x
     * @param {number} y
     */
    indexAt(x: number, y: number): number;
    placePlaceholder(): void;
    drop(): void;
    cancel(): void;
    /** The server ended or refused our drag: it stops here, without a drag.end. False when there was none. */
    abort(): boolean;
    /** Removes every trace of the drag from the page. */
    finish(): void;
    /** Before the list is arranged: the placeholder leaves it. */
    takeOut(): void;
    /** After the list is arranged: the placeholder goes back; a dragged item someone deleted ends the drag. */
    restore(): void;
    /** Near the window's top or bottom edge (or the list's, if it scrolls) the view scrolls while the pointer waits there. */
    scrollLoop(): void;
    destroy(): void;
}
export type LiveList = import("./live-list.js").LiveList;
/**
 * A press not yet a drag: where it began, and for a touch the hold timer.
 */
export type Press = {
    item: HTMLElement;
    id: string;
    pointerId: number;
    x: number;
    y: number;
    waitsForHold: boolean;
    held: boolean;
    timer: ReturnType<typeof setTimeout> | undefined;
};
/**
 * A drag in progress. `index`: where it would land, in the list with the item left out
 * (null: away from the list, a release cancels); `origin`: where it was.
 */
export type Drag = {
    id: string;
    item: HTMLElement;
    avatar: HTMLElement;
    offsetX: number;
    offsetY: number;
    x: number;
    y: number;
    index: number | null;
    origin: number;
    scrollFrame: number;
};
