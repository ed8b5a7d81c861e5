// @ts-check
// Selecting cards with the mouse, as in a file manager: a click sets the anchor (and clears
// the selection), Shift+click selects the cards from the anchor to the clicked one in that
// column, Ctrl/Cmd+click adds or removes one card. A pointer drag or "Move to…" of a selected
// card carries the whole selection.

/** @typedef {import("./view.js").BoardView} BoardView */
/** @typedef {import("./feedback.js").Announcer} Announcer */

export class CardSelection {
  /**
   * @param {BoardView} view
   * @param {Announcer} announcer
   */
  constructor(view, announcer) {
    this.view = view;
    this.announcer = announcer;
    /**
     * The card a Shift+click range starts from.
     * @type {string | null}
     */
    this.anchor = null;
  }

  /**
   * A click on a card (not on one of its buttons).
   * @param {MouseEvent} event
   * @param {HTMLElement} card
   */
  clicked(event, card) {
    // A card on the page has its id (only a draft, which is not clicked here, has none).
    const id = /** @type {string} */ (card.dataset.itemId);
    const selected = this.view.selected;
    const range = event.shiftKey ? this.rangeTo(card) : null;
    if (range) {
      selected.clear();
      for (const item of range) selected.add(item);
    } else if (event.shiftKey || event.ctrlKey || event.metaKey) {
      if (selected.has(id)) selected.delete(id);
      else selected.add(id);
      this.anchor = id;
    } else {
      selected.clear();
      this.anchor = id;
    }
    this.view.showSelection();
    if (event.shiftKey || event.ctrlKey || event.metaKey) {
      this.announcer.say(`${selected.size} card${selected.size === 1 ? "" : "s"} selected.`);
    }
  }

  /**
   * The ids from the anchor to `card`, both included, in their column's order; null when the
   * anchor is gone or in another column (then Shift+click adds the card alone).
   * @param {HTMLElement} card
   * @returns {string[] | null}
   */
  rangeTo(card) {
    const column = /** @type {HTMLElement} */ (card.closest("section.column")).dataset.collectionId;
    if (this.anchor === null || !column) return null;
    // From the board's order: a long column draws only the cards near the screen.
    const ids = this.view.idsOf(column);
    const from = ids.indexOf(this.anchor);
    const to = ids.indexOf(/** @type {string} */ (card.dataset.itemId));
    if (from < 0 || to < 0) return null;
    return ids.slice(Math.min(from, to), Math.max(from, to) + 1);
  }
}
