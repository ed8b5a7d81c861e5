/** @typedef {import("./live-list.js").LiveList} LiveList */
/** @typedef {import("./drag-engine.js").Drag} Drag */
/** @typedef {import("./drag-aim.js").DragPlace} DragPlace */
export class ListDrag {
    /** @param {LiveList} list */
    constructor(list: LiveList);
    list: import("./live-list.js").LiveList;
    placeholder: HTMLElement;
    engine: DragEngine;
    get active(): boolean;
    /**
     * An item of this list a press on `target` picks up: with a handle, only by it; without,
     * anywhere but on its controls.
     * @param {Element} target
     */
    pressable(target: Element): {
        element: HTMLElement;
        id: string;
        handle: boolean;
    } | null;
    /**
     * "Position 2 of 5".
     * @param {DragPlace} place
     */
    position(place: DragPlace): string;
    /** @param {Drag} drag */
    pickedUp(drag: Drag): void;
    /** @param {Drag} drag */
    dropped(drag: Drag): void;
    /**
     * @param {Drag} drag
     * @param {import("./drag-engine.js").CancelReason} reason
     */
    cancelled(drag: Drag, reason: import("./drag-engine.js").CancelReason): void;
    /** Before the list is arranged: the placeholder leaves it. */
    takeOut(): void;
    /** After the list is arranged: the drag's marks and placeholder go back, or it ends. */
    restore(): void;
    /** The server ended or refused our drag: it stops here, without a drag.end. False when there was none. */
    abort(): boolean;
    destroy(): void;
}
export type LiveList = import("./live-list.js").LiveList;
export type Drag = import("./drag-engine.js").Drag;
export type DragPlace = import("./drag-aim.js").DragPlace;
import { DragEngine } from "./drag-engine.js";
