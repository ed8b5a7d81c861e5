export class DragEngine {
    /**
     * @param {HTMLElement} root where presses (and keys) on items are listened to
     * @param {DragOptions} options
     */
    constructor(root: HTMLElement, { host, on, look, placeholder, holdDelay, dwell, pickUpKeys, across, listenToKeys, timing }: DragOptions);
    root: HTMLElement;
    host: DragHost;
    on: DragCallbacks;
    look: {
        /**
         * on an item a finger rests on
         */
        pressing: string;
        /**
         * on the items being carried
         */
        carried: string;
        /**
         * on the item carried by keyboard, too
         */
        keyboard: string;
        /**
         * on the copy under the pointer
         */
        avatar: string;
        /**
         * on the avatar when a release would cancel
         */
        willCancel: string;
        /**
         * on the item a release goes into
         */
        into: string;
        /**
         * on the carried items once a pointer drag ended, until `land`
         * has brought the avatar home (it removes it); with no `land` the engine removes it at once
         */
        landing: string;
        /**
         * on `body` during a pointer drag
         */
        bodyDragging: string;
        /**
         * hide the carried items (`display: none`) during a pointer
         * drag (false: the host's CSS does, by `carried`)
         */
        hideCarried: boolean;
        /**
         * changes the copy
         * before it shows (the engine has removed ids, tabindex and `aria-describedby`)
         */
        dressAvatar?: ((avatar: HTMLElement, element: HTMLElement) => void) | undefined;
        /**
         * added to the avatar's translation ("rotate(2deg)")
         */
        avatarTransform: string;
        /**
         * runs a change of the
         * page's nodes (the placeholder or a carried item moving in or out of `parents`), so the
         * host can animate what it displaced
         */
        animate?: ((change: () => void, parents: Node[]) => void) | undefined;
        /**
         * takes
         * the avatar when a drag ends (to fly it home); by default it is removed
         */
        land?: ((avatar: HTMLElement, drag: Drag, how: "cancel" | "drop") => void) | undefined;
    };
    placeholder: HTMLElement;
    holdDelay: number;
    dwell: number | undefined;
    pickUpKeys: string[];
    across: boolean;
    timing: Timing;
    /** @type {{ gesture: PressGesture, element: HTMLElement, id: string, pointerId: number, timer: unknown } | null} */
    press: {
        gesture: PressGesture;
        element: HTMLElement;
        id: string;
        pointerId: number;
        timer: unknown;
    } | null;
    /** @type {Drag | null} */
    drag: Drag | null;
    /** @type {{ avatar: HTMLElement, offsetX: number, offsetY: number, x: number, y: number, aim: DropAim,
     *   frame: unknown, dwellTimer: unknown, due: number | null, frameAt: number | null, edgeSince: number | null } | null}
     *   the pointer's part of a drag (`frameAt`: the last scroll frame's time; `edgeSince`: since when it waits at an edge) */
    pointer: {
        avatar: HTMLElement;
        offsetX: number;
        offsetY: number;
        x: number;
        y: number;
        aim: DropAim;
        frame: unknown;
        dwellTimer: unknown;
        due: number | null;
        frameAt: number | null;
        edgeSince: number | null;
    } | null;
    onDown: (event: PointerEvent) => void;
    onMove: (event: PointerEvent) => void;
    onUp: (event: PointerEvent) => void;
    onPointerCancel: () => void;
    onWindowKey: (event: KeyboardEvent) => void;
    onRootKey: (event: KeyboardEvent) => void;
    onTouchMove: (event: TouchEvent) => void;
    onPressOnly: (event: Event) => void;
    listenToKeys: boolean;
    /** True while something is carried. */
    get active(): boolean;
    /** @param {PointerEvent} event */
    pressed(event: PointerEvent): void;
    /**
     * The finger rested long enough: the item lifts where the finger is.
     * @param {NonNullable<DragEngine["press"]>} press
     */
    held(press: NonNullable<DragEngine["press"]>): void;
    /** @param {PointerEvent} event */
    moved(event: PointerEvent): void;
    /** @param {PointerEvent} event */
    released(event: PointerEvent): void;
    letGoOfPress(): void;
    /**
     * Lifts the pressed item (and what it carries along) into an avatar held at (x, y). False
     * when it may not move now.
     * @param {number} x
     * @param {number} y
     */
    lift(x: number, y: number): boolean;
    /**
     * A wheel turned over the avatar scrolls the boxes under the pointer (the host's
     * `scrollersAt`, innermost first), as it would have without the avatar.
     * @param {WheelEvent} event
     */
    wheeled(event: WheelEvent): void;
    /** The avatar follows the pointer; the placeholder goes where a release would land. */
    follow(): void;
    /** The pointer stayed over an item that takes drops: a release now goes into it. */
    dwelt(): void;
    /**
     * Marks the item a release goes into (null: none).
     * @param {string | null} id
     */
    showInto(id: string | null): void;
    /** The placeholder where the drag's place is (out of the lists when it has none). */
    showPlaceholder(): void;
    /**
     * Near an edge of a box that scrolls, the box scrolls while the pointer waits there: the
     * nearer the edge, the faster, slowly at first (pacedStep), and no further than its content
     * (the host's `scrollEnd`).
     */
    scrollLoop(): void;
    /**
     * A key on `element` (an item, or something in one). True when it was the engine's: the
     * host (or the engine's own listener) prevents its default.
     * @param {KeyboardEvent} event
     * @param {HTMLElement} element
     */
    key(event: KeyboardEvent, element: HTMLElement): boolean;
    /**
     * @param {string} id
     * @param {HTMLElement} element
     */
    pickUpByKey(id: string, element: HTMLElement): void;
    /** Shows the item carried by keyboard at its place, keeping the focus on it. */
    placeCarried(): void;
    /**
     * A drag of `id` (and what it carries along) begins, unless the host refuses.
     * @param {string} id
     * @param {HTMLElement} element
     * @param {"pointer" | "keyboard"} mode
     * @returns {Drag | null}
     */
    begin(id: string, element: HTMLElement, mode: "pointer" | "keyboard"): Drag | null;
    /** A release, or a key that drops: the page is put back, then the host moves the items. */
    drop(): void;
    /**
     * Ends the drag without a move, and says why to the host (`cancel`).
     * @param {CancelReason} reason
     */
    cancel(reason: CancelReason): void;
    /**
     * The server ended or refused the drag: it stops here, with no callback. False when there was none.
     * @returns {boolean}
     */
    abort(): boolean;
    /** After the host drew its lists again: the carried items' marks and the placeholder go back, or the drag ends. */
    restore(): void;
    /**
     * Removes every trace of the drag from the page, then runs `then` (the host's move) in the
     * same change; the avatar goes to `look.land`.
     * @param {"drop" | "cancel"} how
     * @param {() => void} [then]
     */
    finish(how: "drop" | "cancel", then?: (() => void) | undefined): void;
    /**
     * Marks (or unmarks) the carried items, hidden during a pointer drag.
     * @param {boolean} on
     * @param {Drag} [drag]
     */
    markCarried(on: boolean, drag?: Drag | undefined): void;
    /**
     * @param {Element} element
     * @param {string | undefined} name
     * @param {boolean} on
     */
    mark(element: Element, name: string | undefined, on: boolean): void;
    /**
     * @param {() => void} change
     * @param {Node[]} parents the lists it changes
     */
    change(change: () => void, parents: Node[]): void;
    destroy(): void;
}
export type DragPlace = import("./drag-aim.js").DragPlace;
export type DragSlot = import("./drag-aim.js").DragSlot;
/**
 * A drag in progress, as the host's callbacks see it: what is carried (`ids`; `id` and
 * `element`, the one pressed or focused), how, from where (`origin`), where a release would land now
 * (`place`; null: off every list, a release cancels) and the item it would go into (`into`).
 */
export type Drag = {
    id: string;
    ids: string[];
    element: HTMLElement;
    mode: "pointer" | "keyboard";
    origin: DragPlace;
    place: DragPlace | null;
    into: string | null;
};
/**
 * Why a drag ended without a drop: Escape, Tab, a release off every list, the pointer taken
 * away by the browser, a press while the keyboard carried it, the list it was over no longer
 * drawn, or the host (`destroy`).
 */
export type CancelReason = "escape" | "tab" | "off the lists" | "pointer lost" | "pointer" | "list gone" | "host";
/**
 * What the engine asks of the page that uses it.
 */
export type DragHost = {
    /**
     *   the item a press on `target` would pick up (`handle`: on its handle, so a finger lifts it
     *   at once), or null: not one of ours (the browser, or the host's selection clicks, keep the press)
     */
    pressable: (target: Element, event: PointerEvent) => {
        element: HTMLElement;
        id: string;
        handle: boolean;
    } | null;
    /**
     * the id of the item `element` is
     * when a key is pressed on it (null: keys there are not ours)
     */
    keyItem: (element: HTMLElement) => string | null;
    /**
     * the ids a pick-up
     * of `id` carries (a selection it is in), in the order the move takes them; by keyboard,
     * only `id`
     */
    carried: (id: string, mode: "pointer" | "keyboard") => string[];
    /**
     * why these may not move now, in words;
     * null when they may (asked again after every `restore`)
     */
    refusal: (ids: string[]) => string | null;
    /**
     * where an item is, in its list with the
     * carried items left out
     */
    placeOf: (id: string) => DragPlace | null;
    /**
     * an item's element, when it is drawn
     */
    elementOf: (id: string) => HTMLElement | null;
    /**
     * where a
     * release at (x, y) would land; null: off every list
     */
    slotAt: (x: number, y: number, carried: Set<string>) => DragSlot | null;
    /**
     *   where a place is drawn: the node the placeholder (or an item carried by keyboard) goes
     *   before, in `parent`; null when the list is no longer drawn (the drag is cancelled)
     */
    nodeAt: (place: DragPlace, carried: Set<string>) => {
        parent: Node;
        next: Node | null;
    } | null;
    /**
     * the boxes that scroll near (x, y),
     * innermost first (`document.scrollingElement` for the page)
     */
    scrollersAt: (x: number, y: number) => Element[];
    /**
     * how far a
     * drag may scroll `scroller` (where its content ends, when that is before its scrollable end:
     * a board's last column, not the room after it); null or absent: to its end
     */
    scrollEnd?: ((scroller: Element) => {
        left?: number;
        top?: number;
    } | null) | undefined;
    /**
     * what a keyboard step needs of the lists
     */
    lists: import("./drag-keys.js").KeyLists;
};
/**
 * What the engine tells the host. `pickUp` runs once a drag began (the host sends its
 * `drag.start`), `over` when its place or the item it goes into changed (`drag.over`),
 * `drop` on a release or a key that drops (the host moves the items; the engine has already
 * put the page back), `cancel` when it ended without a move (`drag.end`), `interrupt` when a
 * render found it impossible (a carried item deleted, or `refusal` now says why).
 * `step` after a keyboard key that did not move the item ("still": it cannot go further).
 */
export type DragCallbacks = {
    pickUp?: ((drag: Drag) => void) | undefined;
    over?: ((drag: Drag) => void) | undefined;
    /**
     * runs inside `look.animate`'s change, with the page's
     * traces of the drag removed: the host's move shows in the same change
     */
    drop?: ((drag: Drag) => void) | undefined;
    cancel?: ((drag: Drag, reason: CancelReason) => void) | undefined;
    /**
     * why: the refusal, or null when an item is gone
     */
    interrupt?: ((drag: Drag, why: string | null) => void) | undefined;
    still?: ((drag: Drag) => void) | undefined;
    /**
     * a pick-up refused: `refusal`'s words
     */
    refused?: ((text: string, mode: "pointer" | "keyboard") => void) | undefined;
};
/**
 * The class names the engine sets, and how it draws.
 */
export type DragLook = {
    /**
     * on an item a finger rests on
     */
    pressing?: string | undefined;
    /**
     * on the items being carried
     */
    carried?: string | undefined;
    /**
     * on the item carried by keyboard, too
     */
    keyboard?: string | undefined;
    /**
     * on the copy under the pointer
     */
    avatar?: string | undefined;
    /**
     * on the avatar when a release would cancel
     */
    willCancel?: string | undefined;
    /**
     * on the item a release goes into
     */
    into?: string | undefined;
    /**
     * on the carried items once a pointer drag ended, until `land`
     * has brought the avatar home (it removes it); with no `land` the engine removes it at once
     */
    landing?: string | undefined;
    /**
     * on `body` during a pointer drag
     */
    bodyDragging?: string | undefined;
    /**
     * hide the carried items (`display: none`) during a pointer
     * drag (false: the host's CSS does, by `carried`)
     */
    hideCarried?: boolean | undefined;
    /**
     * changes the copy
     * before it shows (the engine has removed ids, tabindex and `aria-describedby`)
     */
    dressAvatar?: ((avatar: HTMLElement, element: HTMLElement) => void) | undefined;
    /**
     * added to the avatar's translation ("rotate(2deg)")
     */
    avatarTransform?: string | undefined;
    /**
     * runs a change of the
     * page's nodes (the placeholder or a carried item moving in or out of `parents`), so the
     * host can animate what it displaced
     */
    animate?: ((change: () => void, parents: Node[]) => void) | undefined;
    /**
     * takes
     * the avatar when a drag ends (to fly it home); by default it is removed
     */
    land?: ((avatar: HTMLElement, drag: Drag, how: "drop" | "cancel") => void) | undefined;
};
export type DragOptions = {
    host: DragHost;
    on?: DragCallbacks | undefined;
    look?: DragLook | undefined;
    /**
     * the element that shows where a release would land
     */
    placeholder: HTMLElement;
    /**
     * how long a finger rests before an item lifts, in ms (250)
     */
    holdDelay?: number | undefined;
    /**
     * how long over an item that takes drops before a release goes into it, in ms (500)
     */
    dwell?: number | undefined;
    /**
     * the keys that pick the focused item up ([" ", "Enter"])
     */
    pickUpKeys?: string[] | undefined;
    /**
     * Left and Right carry a keyboard-held item to the list beside
     */
    across?: boolean | undefined;
    /**
     * the engine listens to keys on `root` itself (true); false:
     * the host passes them to `key`
     */
    listenToKeys?: boolean | undefined;
    /**
     * the clock and frames (the window's by default)
     */
    timing?: Timing | undefined;
};
export type Timing = {
    now(): number;
    setTimeout(run: () => void, ms: number): unknown;
    clearTimeout(timer: unknown): void;
    requestAnimationFrame(run: () => void): unknown;
    cancelAnimationFrame(frame: unknown): void;
};
import { PressGesture } from "./drag-press.js";
import { DropAim } from "./drag-aim.js";
