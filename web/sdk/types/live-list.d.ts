/**
 * @param {HTMLElement} element a list element (`ol`, `ul`, or any container)
 * @param {LiveListOptions} options
 * @returns {{ destroy(): void }}
 */
export function liveList(element: HTMLElement, options: LiveListOptions): {
    destroy(): void;
};
/** One bound list element. Its drags (pointer and keyboard, on the drag engine) and the others' drags are its parts. */
export class LiveList {
    /**
     * @param {HTMLElement} element
     * @param {LiveListOptions} options
     */
    constructor(element: HTMLElement, { live, collection, render, handle, holdDelay, describe }: LiveListOptions);
    element: HTMLElement;
    live: LiveBoardLike;
    collection: string;
    render: (item: ListItem, element: HTMLElement) => void;
    handle: string | null;
    holdDelay: number;
    describeItem: (item: ListItem) => string;
    itemTag: string;
    /**
     * The items' elements by id, with what they were last rendered from.
     * @type {Map<string, { element: HTMLElement, rendered: string }>}
     */
    entries: Map<string, {
        element: HTMLElement;
        rendered: string;
    }>;
    help: HTMLDivElement;
    announcer: HTMLDivElement;
    drag: ListDrag;
    others: OthersDrags;
    onBoard: () => void;
    onPresence: () => void;
    onDragEnded: () => void;
    onRejected: (event: Event) => void;
    /** The collection as the live board shows it now (with this tab's pending operations). */
    get items(): ListItem[];
    /** Why this person may not reorder now, in words; null when they may. */
    get refusal(): "The board is locked." | "The list is not loaded yet." | "This list is no longer on the board." | "You can view this list but not change it." | null;
    /**
     * The name of whoever else holds `id`, or null.
     * @param {string} id
     */
    holderOf(id: string): string | null;
    /**
     * Says `text` to screen readers.
     * @param {string} text
     */
    announce(text: string): void;
    /** @param {string[]} ids */
    describe(ids: string[]): string;
    /**
     * The items' elements in board order, without `excluded` ids.
     * @param {Set<string>} [excluded]
     */
    itemElements(excluded?: Set<string> | undefined): HTMLElement[];
    /**
     * The id a move must name as `before` to land at `index` of the list with `moving` left
     * out (null: the end), as the board is now.
     * @param {number} index
     * @param {Set<string>} moving
     */
    anchorAt(index: number, moving: Set<string>): string;
    /** The list as the board has it: elements made, re-rendered, reordered or removed, then the drags drawn again. */
    draw(): void;
    /** @param {ListItem} item */
    renderItem(item: ListItem): void;
    /**
     * Our own drag was ended by the server or refused: put everything back, without a drag.end.
     * @param {string} why
     */
    abortLift(why: string): void;
    destroy(): void;
}
export type ListItem = {
    id: string;
    label: string;
    data?: Record<string, unknown> | null;
};
export type ListCollection = {
    id: string;
    title: string;
    items: ListItem[];
};
export type ListBoard = {
    id: string;
    locked: boolean;
    collections: ListCollection[];
};
export type ListPlaceholder = {
    collection: string;
    index: number;
    before?: string | null;
};
export type ListPeer = {
    client: string;
    name: string;
    drag: {
        items: string[];
        over: ListPlaceholder | null;
    } | null;
};
/**
 * What the binding needs of a live board (what `connect` returns): the board to show, the
 * people on it, its events, a move, and drag presence.
 */
export type LiveBoardLike = EventTarget & {
    board: ListBoard | null;
    me: {
        client: string;
        name: string;
        role: string;
    } | null;
    peers: Map<string, ListPeer>;
    move(sources: string[], destination: {
        collection: string;
        before: string | null;
    }): Promise<unknown>;
    startDrag(items: string[]): void;
    dragOver(collection: string, index: number): void;
    endDrag(): void;
};
export type LiveListOptions = {
    /**
     * the live board, from `connect`
     */
    live: LiveBoardLike;
    /**
     * the id of the collection this element shows
     */
    collection: string;
    /**
     * fills an item's element
     * (made by the binding, carrying `data-id`); called again when the item's label or data changes
     */
    render: (item: ListItem, element: HTMLElement) => void;
    /**
     * a CSS selector: only a press on this part of an item picks it up
     * (at once, on touch too); without it the whole item does, and on touch only after a press-and-hold
     */
    handle?: string | null | undefined;
    /**
     * how long a touch must rest on an item to pick it up, in ms (250)
     */
    holdDelay?: number | undefined;
    /**
     * how an item is named to screen readers (its label)
     */
    describe?: ((item: ListItem) => string) | undefined;
};
import { ListDrag } from "./live-list-drag.js";
import { OthersDrags } from "./live-list-others.js";
