// @ts-check
// Everyone else's drags in a live list: the items another person holds carry
// `cb-held-by-other` and their name (`data-held-by`), and where that person's item would land
// opens a `cb-remote-placeholder` slot with their name, so nobody is surprised by a move.

/** @typedef {import("./live-list.js").LiveList} LiveList */
/** @typedef {import("./live-list.js").ListPeer} ListPeer */

export class OthersDrags {
  /** @param {LiveList} list */
  constructor(list) {
    this.list = list;
    /** @type {HTMLElement[]} */
    this.slots = [];
  }

  /** Takes the slots and the holders' marks out of the list (before the list is arranged). */
  takeOut() {
    for (const slot of this.slots) slot.remove();
    this.slots = [];
    for (const { element } of this.list.entries.values()) {
      if (!element.classList.contains("cb-held-by-other")) continue;
      element.classList.remove("cb-held-by-other");
      delete element.dataset.heldBy;
      element.removeAttribute("aria-disabled");
    }
  }

  /** Marks what the others hold and opens their slots, as the live board's peers say now. */
  draw() {
    this.takeOut();
    for (const peer of this.list.live.peers.values()) {
      if (!peer.drag) continue;
      for (const id of peer.drag.items) {
        const element = this.list.entries.get(id)?.element;
        if (!element) continue;
        element.classList.add("cb-held-by-other");
        element.dataset.heldBy = peer.name;
        element.setAttribute("aria-disabled", "true");
      }
      if (peer.drag.over?.collection === this.list.collection) this.openSlot(peer);
    }
  }

  /**
   * Opens the slot where `peer`'s drag would land: before the item the server names
   * (`before`), or at the index in the list with their items left out.
   * @param {ListPeer} peer
   */
  openSlot(peer) {
    const drag = /** @type {NonNullable<ListPeer["drag"]>} */ (peer.drag);
    const over = /** @type {NonNullable<typeof drag.over>} */ (drag.over);
    const before = over.before !== undefined ? over.before : this.list.anchorAt(over.index, new Set(drag.items));
    const anchor = before === null ? null : (this.list.entries.get(before)?.element ?? null);
    if (before !== null && !anchor) return; // an item this tab no longer shows; the next drag.over fixes it
    const slot = document.createElement(this.list.itemTag);
    slot.className = "cb-remote-placeholder";
    slot.dataset.client = peer.client;
    slot.dataset.name = peer.name;
    slot.setAttribute("aria-hidden", "true");
    slot.textContent = peer.name;
    // At the end: after the last item, not after our own placeholder or others' slots.
    const last = this.list.itemElements().at(-1);
    if (anchor) anchor.before(slot);
    else if (last) last.after(slot);
    else this.list.element.append(slot);
    this.slots.push(slot);
  }
}
