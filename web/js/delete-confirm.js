// @ts-check
// Deleting a folder deletes the cards in it (and in its folders) with it: the page asks first,
// in its own dialog (board.html's #delete-confirm, announced by screen readers as a dialog,
// unlike `window.confirm`), and names how many cards go. An empty folder, or a card, goes at
// once: Ctrl+Z brings either back, and a question for every card would only be clicked away.

/** @typedef {import("../sdk/replica.js").Board} Board */

/**
 * How many cards (folders among them) are inside the folder `folderId`, at any depth.
 * @param {Board} board
 * @param {string} folderId
 * @returns {number}
 */
export function cardsInside(board, folderId) {
  let count = 0;
  for (const item of board.folders?.[folderId] ?? []) count += 1 + (item.folder ? cardsInside(board, item.id) : 0);
  return count;
}

/**
 * "1 card" or "4 cards".
 * @param {number} count
 */
export function cardCount(count) {
  return count === 1 ? "1 card" : `${count} cards`;
}

export class DeleteConfirm {
  constructor() {
    this.dialog = /** @type {HTMLDialogElement} */ (document.getElementById("delete-confirm"));
    /** What a "delete" answer does, for the question open now. @type {(() => void) | null} */
    this.onDelete = null;
    /** Where the focus goes back when the question is closed. @type {HTMLElement | null} */
    this.returnTo = null;
    this.dialog.addEventListener("close", () => {
      const action = this.dialog.returnValue === "delete" ? this.onDelete : null;
      this.onDelete = null;
      if (action) action();
      else this.returnTo?.focus();
      this.returnTo = null;
    });
  }

  /**
   * Asks whether to delete the folder `title` and its `count` cards; `action` runs on yes.
   * @param {string} title
   * @param {number} count
   * @param {HTMLElement} returnTo
   * @param {() => void} action
   */
  ask(title, count, returnTo, action) {
    this.askAbout(
      {
        question: `Delete the folder “${title}” and its ${cardCount(count)}?`,
        detail: `The ${cardCount(count)} in it go for everyone too. Undo (Ctrl+Z) brings the folder back with them.`,
        confirm: `Delete the folder and ${cardCount(count)}`,
      },
      returnTo,
      action,
    );
  }

  /**
   * Asks `question` (with `detail` under it; `confirm` on the button that says yes); `action`
   * runs on yes. A column removed with its cards asks here too (column-menu.js).
   * @param {{ question: string, detail: string, confirm: string }} words
   * @param {HTMLElement} returnTo
   * @param {() => void} action
   */
  askAbout({ question, detail, confirm }, returnTo, action) {
    /** @type {HTMLElement} */ (this.dialog.querySelector(".dialog-title")).textContent = question;
    /** @type {HTMLElement} */ (this.dialog.querySelector("p")).textContent = detail;
    /** @type {HTMLElement} */ (this.dialog.querySelector("button[value=delete]")).textContent = confirm;
    this.onDelete = action;
    this.returnTo = returnTo;
    this.dialog.returnValue = "";
    this.dialog.showModal();
  }
}
