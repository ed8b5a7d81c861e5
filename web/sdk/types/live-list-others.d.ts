/** @typedef {import("./live-list.js").LiveList} LiveList */
/** @typedef {import("./live-list.js").ListPeer} ListPeer */
export class OthersDrags {
    /** @param {LiveList} list */
    constructor(list: LiveList);
    list: import("./live-list.js").LiveList;
    /** @type {HTMLElement[]} */
    slots: HTMLElement[];
    /** Takes the slots and the holders' marks out of the list (before the list is arranged). */
    takeOut(): void;
    /** Marks what the others hold and opens their slots, as the live board's peers say now. */
    draw(): void;
    /**
     * Opens the slot where `peer`'s drag would land: before the item the server names
     * (`before`), or at the index in the list with their items left out.
     * @param {ListPeer} peer
     */
    openSlot(peer: ListPeer): void;
}
export type LiveList = import("./live-list.js").LiveList;
export type ListPeer = import("./live-list.js").ListPeer;
