// @ts-check
// A column's menu (⋯ in its header): "Move to…" (a dialog: first, before another column,
// last; one `collection.move` by anchor, so it lands where asked even when others reorder the
// columns meanwhile) and "Remove the column", which takes its cards along after asking in the
// page's delete dialog (delete-confirm.js) how many go; an empty column goes at once. Undo
// (Ctrl+Z, or the notice's button) brings a removed column back with its cards.

import { cardCount, cardsInside } from "./delete-confirm.js";
import { showMenu } from "./popup-menu.js";

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("./delete-confirm.js").DeleteConfirm} DeleteConfirm */
/** @typedef {import("../sdk/replica.js").Board} Board */

const FIRST = "first";
const LAST = "last";

export class ColumnMenu {
  /**
   * @param {PageParts} parts
   * @param {DeleteConfirm} confirm the page's delete dialog (shared with the folders')
   */
  constructor({ session, view, announcer, notices }, confirm) {
    this.session = session;
    this.view = view;
    this.announcer = announcer;
    this.notices = notices;
    this.confirm = confirm;
    /** @type {HTMLElement | null} */
    this.menu = null;
    // board.html has the dialog (#column-move-to) with its select and buttons.
    this.dialog = /** @type {HTMLDialogElement} */ (document.getElementById("column-move-to"));
    this.position = /** @type {HTMLSelectElement} */ (this.dialog.querySelector("select[name=position]"));
    /** The column the dialog moves. @type {string | null} */
    this.moving = null;
    /** Where the focus goes back when the dialog closes. @type {HTMLElement | null} */
    this.returnTo = null;
    this.dialog.addEventListener("close", () => this.closed());
    view.root.addEventListener("click", (event) => {
      const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".column-menu"));
      if (button) this.open(button);
    });
    document.addEventListener("pointerdown", (event) => {
      if (this.menu && !this.menu.contains(/** @type {Node | null} */ (event.target))) this.close();
    });
  }

  /** @param {string} id */
  titleOf(id) {
    return this.session.board?.collections.find((c) => c.id === id)?.title ?? "";
  }

  /**
   * Opens the menu of the column whose ⋯ is `button`.
   * @param {HTMLElement} button
   */
  open(button) {
    this.close();
    const id = /** @type {string} */ (/** @type {HTMLElement} */ (button.closest("section.column")).dataset.collectionId);
    if (!this.session.canEdit) return this.notices.show(this.session.readOnlyReason ?? "The board is not loaded yet.");
    /** @type {import("./popup-menu.js").MenuEntry[]} */
    const entries = [
      ["Move to…", () => this.openMoveTo(id, button)],
      ["Remove the column", () => this.remove(id, button)],
    ];
    this.menu = showMenu(entries, button, button, () => this.close(), `Column ${this.titleOf(id)}`);
    return undefined;
  }

  close() {
    this.menu?.remove();
    this.menu = null;
  }

  // MARK: Move to…

  /**
   * @param {string} id
   * @param {HTMLElement} returnTo
   */
  openMoveTo(id, returnTo) {
    const board = /** @type {Board} */ (this.session.board);
    this.moving = id;
    this.returnTo = returnTo;
    /** @type {HTMLElement} */ (this.dialog.querySelector(".dialog-title")).textContent = `Move the column “${this.titleOf(id)}” to…`;
    const others = board.collections.filter((c) => c.id !== id);
    this.position.replaceChildren(new Option("First", FIRST), ...others.map((c) => new Option(`Before “${c.title}”`, c.id)), new Option("Last", LAST));
    // Where it is now is the choice offered first: one step either way is the likelier wish.
    const next = board.collections[board.collections.findIndex((c) => c.id === id) + 1];
    this.position.value = next ? next.id : LAST;
    this.dialog.returnValue = "";
    this.dialog.showModal();
  }

  closed() {
    const id = this.moving;
    this.moving = null;
    if (this.dialog.returnValue === "move" && id !== null) this.move(id, this.position.value);
    this.returnTo?.focus();
    this.returnTo = null;
  }

  /**
   * @param {string} id
   * @param {string} choice FIRST, LAST, or the column it goes before
   */
  move(id, choice) {
    const board = /** @type {Board} */ (this.session.board);
    // The board may have changed while the dialog was open.
    if (!board.collections.some((c) => c.id === id)) return this.notices.show("That column no longer exists.");
    const others = board.collections.filter((c) => c.id !== id);
    const before = choice === FIRST ? (others[0]?.id ?? null) : choice === LAST ? null : choice;
    if (before !== null && !others.some((c) => c.id === before)) return this.notices.show("That column no longer exists.");
    const where = choice === FIRST ? "first" : choice === LAST ? "last" : `before ${this.titleOf(choice)}`;
    const title = this.titleOf(id);
    this.session.moveCollections([id], before);
    this.announcer.say(`Moved the column ${title} ${where}.`);
    return undefined;
  }

  // MARK: Remove

  /**
   * Removes the column; one with cards only after the person said yes in the dialog.
   * @param {string} id
   * @param {HTMLElement} returnTo
   */
  remove(id, returnTo) {
    const board = /** @type {Board} */ (this.session.board);
    const column = board.collections.find((c) => c.id === id);
    if (!column) return;
    const title = column.title;
    const count = column.items.reduce((sum, item) => sum + 1 + (item.folder ? cardsInside(board, item.id) : 0), 0);
    if (count === 0) {
      this.session.removeCollection(id);
      this.announcer.say(`Removed the column ${title}.`);
      return;
    }
    this.confirm.askAbout(
      {
        question: `Remove the column “${title}” and its ${cardCount(count)}?`,
        detail: `The ${cardCount(count)} in it go for everyone too. Undo (Ctrl+Z) brings the column back with them.`,
        confirm: `Remove the column and ${cardCount(count)}`,
      },
      returnTo,
      () => {
        this.session.removeCollection(id, { withItems: true });
        this.announcer.say(`Removed the column ${title} and its ${cardCount(count)}.`);
      },
    );
  }
}
