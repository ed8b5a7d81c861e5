// @ts-check
// Moving cards without a pointer: Space picks the focused card up, the arrow keys carry it
// (up and down in its column, left and right across columns), Space drops it and Escape
// puts it back. Every step is announced through the live region; presence goes to the
// server like a pointer drag's, so others see the placeholder move too. A card in an open
// folder moves up and down in it; left and right carry it out, to the next column.

import { anchorAt, enclosingFolders, findCollection, findItem } from "../sdk/replica.js";
import { listName } from "./folders.js";

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {import("../sdk/replica.js").Collection} Collection */
/**
 * The card in hand and where it would land: the index in that column with it left out.
 * @typedef {{ items: string[], collection: string, index: number }} Lift
 */

// Once a card is picked up (which needs `canEdit`), the session has a board for good: the
// casts of `session.board` below say so.

export class KeyboardMove {
  /** @param {PageParts} parts */
  constructor({ session, view, announcer, notices, describe }) {
    this.session = session;
    this.view = view;
    this.announcer = announcer;
    this.notices = notices;
    this.describe = describe;
    /** @type {Lift | null} */
    this.lift = null;
  }

  get active() {
    return this.lift !== null;
  }

  /**
   * Handles a key on a focused card; returns true when it was ours.
   * @param {KeyboardEvent} event
   * @param {HTMLElement} card
   */
  handle(event, card) {
    const id = /** @type {string} */ (card.dataset.itemId);
    if (this.lift) {
      switch (event.key) {
        case " ":
        case "Enter":
          this.drop();
          return true;
        case "Escape":
          this.cancel();
          return true;
        case "ArrowUp":
          return this.step(0, -1);
        case "ArrowDown":
          return this.step(0, 1);
        case "ArrowLeft":
          return this.step(-1, 0);
        case "ArrowRight":
          return this.step(1, 0);
        case "Tab":
          this.cancel();
          return false;
        default:
          return true; // nothing else while a card is in hand
      }
    }
    if (event.key === " ") {
      this.pickUp(id);
      return true;
    }
    return false;
  }

  /** @param {string} id */
  pickUp(id) {
    if (!this.session.canEdit) {
      this.notices.show(this.session.readOnlyReason ?? "The board is not loaded yet.");
      return;
    }
    const holder = this.session.holderOf(id);
    if (holder) {
      this.notices.show(`${holder.name} is holding this card.`);
      this.announcer.say(`${holder.name} is holding this card.`);
      return;
    }
    // The focused card is one the view drew from this board (in a column or an open folder).
    const { collection, index } = /** @type {import("../sdk/replica.js").ItemPlace} */ (findItem(/** @type {Board} */ (this.session.board), id));
    this.lift = { items: [id], collection: collection.id, index };
    this.session.startDrag([id]);
    this.session.dragOver(collection.id, index);
    this.card()?.classList.add("lifted", "keyboard-lifted");
    this.announcer.say(
      `Picked up ${this.describe([id])}. ${this.position()}. Arrow keys move it, Space drops it, Escape cancels.`,
    );
  }

  card() {
    return this.lift ? this.view.cards.get(this.lift.items[0]) : null;
  }

  /**
   * Moves the card in hand one place (dy) or one column (dx).
   * @param {number} dx
   * @param {number} dy
   */
  step(dx, dy) {
    const lift = /** @type {Lift} */ (this.lift);
    const board = /** @type {Board} */ (this.session.board);
    const columns = board.collections;
    const excluded = new Set(lift.items);
    let index = lift.index;
    let collection = lift.collection;
    if (dx !== 0) {
      // From inside a folder, the column its outermost folder stands in.
      const outermost = enclosingFolders(board, lift.collection).at(-1);
      const home = outermost ? findItem(board, outermost)?.collection.id : lift.collection;
      const columnIndex = Math.max(0, Math.min(columns.length - 1, columns.findIndex((c) => c.id === home) + dx));
      collection = columns[columnIndex].id;
      const count = columns[columnIndex].items.filter((i) => !excluded.has(i.id)).length;
      index = Math.min(index, count);
    } else {
      const count = (findCollection(board, collection)?.items ?? []).filter((i) => !excluded.has(i.id)).length;
      index = Math.max(0, Math.min(count, index + dy));
    }
    if (collection === lift.collection && index === lift.index) {
      this.announcer.say(`${this.position()}. It cannot go further.`);
      return true;
    }
    const from = this.card()?.parentNode;
    lift.collection = collection;
    lift.index = index;
    const to = this.view.listElements(collection)?.list;
    this.view.animateChange(() => this.place(), /** @type {HTMLElement[]} */ ([from, to].filter((list) => list instanceof HTMLElement)));
    this.session.dragOver(collection, index);
    this.announcer.say(this.position());
    return true;
  }

  /** Shows the card in hand at its current place (also after a render). */
  place() {
    const card = this.card();
    const column = this.lift && this.view.listElements(this.lift.collection);
    if (!card || !column) return;
    const lift = /** @type {Lift} */ (this.lift);
    const next = this.view.slotNode(lift.collection, lift.index, new Set(lift.items));
    if (card.parentNode !== column.list || card.nextElementSibling !== next) {
      column.list.insertBefore(card, next);
      this.view.displaced();
    }
    card.classList.add("lifted", "keyboard-lifted");
    card.focus({ preventScroll: false });
  }

  restore() {
    if (!this.lift) return;
    if (!this.card()) {
      this.lift = null;
      this.notices.show("The card you were moving was deleted.");
      return;
    }
    if (!this.view.listElements(this.lift.collection)) return this.cancel();
    this.place();
    return undefined;
  }

  /** Where the card in hand is, in words: "Position 2 of 5 in Doing". */
  position() {
    const lift = /** @type {Lift} */ (this.lift);
    // A lift's list is on the board: a render that removes it cancels the lift (restore).
    const board = /** @type {Board} */ (this.session.board);
    const collection = /** @type {Collection} */ (findCollection(board, lift.collection));
    const count = collection.items.filter((i) => !lift.items.includes(i.id)).length + 1;
    return `Position ${lift.index + 1} of ${count} in ${listName(board, lift.collection)}`;
  }

  drop() {
    const { items, collection, index } = /** @type {Lift} */ (this.lift);
    const before = anchorAt(/** @type {Board} */ (this.session.board), collection, index, new Set(items));
    const where = this.position();
    this.end();
    this.session.move(items, { collection, before });
    this.view.cards.get(items[0])?.focus();
    this.announcer.say(`Dropped ${this.describe(items)}. ${where}.`);
  }

  cancel() {
    const { items } = /** @type {Lift} */ (this.lift);
    this.end();
    this.session.endDrag();
    // Back where the board has it.
    this.session.refresh("local");
    this.view.cards.get(items[0])?.focus();
    this.announcer.say(`Move cancelled. ${this.describe(items)} is back in place.`);
  }

  /**
   * The server refused our drag.start.
   * @param {string | undefined} holderName
   */
  refused(holderName) {
    if (!this.lift) return;
    const { items } = this.lift;
    this.end();
    this.session.refresh("local");
    this.view.cards.get(items[0])?.focus();
    this.notices.show(`${holderName ?? "Someone"} is holding this card.`);
  }

  /** The server let go of our drag (held too long): the card goes back. False when none was in hand. */
  letGo() {
    if (!this.lift) return false;
    const { items } = this.lift;
    this.end();
    this.session.refresh("local");
    this.view.cards.get(items[0])?.focus();
    return true;
  }

  end() {
    this.card()?.classList.remove("lifted", "keyboard-lifted");
    this.lift = null;
  }
}
