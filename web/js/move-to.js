// @ts-check
// "Move to…": a dialog that moves the card, or the whole selection when the card is in it,
// to a column and a place there (top, bottom, or before a chosen card), as one move
// operation by anchor (docs/protocol.md#4-operations), so it lands where asked even when
// others reorder that column meanwhile. Folders are destinations too (after the columns,
// named with where they are), except those that refuse drops and, for a folder being moved,
// itself and the folders inside it (folders.js).

import { findCollection, findItem, orderedItemIds } from "../sdk/replica.js";
import { folderDestinations, listName } from "./folders.js";

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("../sdk/replica.js").Board} Board */

const TOP = "top";
const BOTTOM = "bottom";

// board.html has the dialog (#move-to) with its form, its two selects and its buttons. The
// dialog opens from a card's menu, so only once the session has a board (which it keeps).

export class MoveTo {
  /** @param {PageParts} parts */
  constructor({ session, view, announcer, notices, describe }) {
    this.session = session;
    this.view = view;
    this.announcer = announcer;
    this.notices = notices;
    this.describe = describe;
    this.dialog = /** @type {HTMLDialogElement} */ (document.getElementById("move-to"));
    this.title = /** @type {HTMLElement} */ (this.dialog.querySelector(".dialog-title"));
    this.column = /** @type {HTMLSelectElement} */ (this.dialog.querySelector("select[name=collection]"));
    this.position = /** @type {HTMLSelectElement} */ (this.dialog.querySelector("select[name=position]"));
    /**
     * The cards to move, in board order.
     * @type {string[]}
     */
    this.items = [];
    /** @type {HTMLElement | null} */
    this.returnFocus = null;
    this.column.addEventListener("change", () => this.fillPositions());
    this.dialog.addEventListener("close", () => this.closed());
  }

  get board() {
    return /** @type {Board} */ (this.session.board);
  }

  /** @param {HTMLElement} card the card whose menu asked */
  open(card) {
    if (!this.session.canEdit) return this.notices.show(this.session.readOnlyReason ?? "The board is not loaded yet.");
    const id = /** @type {string} */ (card.dataset.itemId);
    const order = orderedItemIds(this.board);
    this.items = this.view.selected.has(id) ? order.filter((item) => this.view.selected.has(item)) : [id];
    const holder = this.items.map((item) => this.session.holderOf(item)).find(Boolean);
    if (holder) return this.notices.show(`${holder.name} is holding ${this.items.length > 1 ? "one of these cards" : "this card"}.`);
    this.returnFocus = card;
    this.title.textContent = `Move ${this.describe(this.items)} to…`;
    const here = findItem(this.board, id)?.collection.id;
    const folders = folderDestinations(this.board, this.items);
    /** @type {(HTMLOptionElement | HTMLOptGroupElement)[]} */
    const choices = this.board.collections.map((c) => new Option(c.title, c.id));
    if (folders.length > 0) {
      const group = document.createElement("optgroup");
      group.label = "Folders";
      group.append(...folders.map((f) => new Option(f.name, f.id)));
      choices.push(group);
    }
    this.column.replaceChildren(...choices);
    // Another column is the likelier wish; the card's own one still offers top and bottom.
    this.column.value = this.board.collections.find((c) => c.id !== here)?.id ?? here ?? "";
    this.fillPositions();
    this.dialog.returnValue = "";
    this.dialog.showModal();
    return undefined;
  }

  /** Top, bottom, and before each card of the chosen column that is not one being moved. */
  fillPositions() {
    const collection = findCollection(this.board, this.column.value);
    const moving = new Set(this.items);
    const others = collection ? collection.items.filter((i) => !moving.has(i.id)) : [];
    this.position.replaceChildren(
      new Option("Top", TOP),
      new Option("Bottom", BOTTOM, true, true),
      ...others.map((item) => new Option(`Before “${item.label}”`, item.id)),
    );
  }

  closed() {
    if (this.dialog.returnValue === "move") this.move();
    this.returnFocus?.focus();
    this.returnFocus = null;
  }

  move() {
    const items = this.items;
    const collection = findCollection(this.board, this.column.value);
    // The board may have changed while the dialog was open.
    if (!collection) return this.notices.show("That column or folder no longer exists.");
    const moving = new Set(items);
    const first = collection.items.find((i) => !moving.has(i.id));
    const choice = this.position.value;
    const before = choice === TOP ? (first?.id ?? null) : choice === BOTTOM ? null : choice;
    if (before !== null && !collection.items.some((i) => i.id === before)) return this.notices.show(`That card is no longer in this ${collection.folder ? "folder" : "column"}.`);
    const where = choice === TOP ? "the top of" : choice === BOTTOM ? "the bottom of" : `before ${this.describe([choice])} in`;
    const what = this.describe(items);
    this.session.move(items, { collection: collection.id, before });
    this.view.selected.clear();
    this.view.showSelection();
    this.announcer.say(`Moved ${what} to ${where} ${listName(this.board, collection.id)}.`);
    return undefined;
  }
}
