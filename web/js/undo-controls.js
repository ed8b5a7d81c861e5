// @ts-check
// The page's undo and redo (the SDK's live.undo()/redo(), web/sdk/undo.js): Ctrl/Cmd+Z,
// Shift+Ctrl/Cmd+Z and Ctrl+Y anywhere but in a text field (which keeps its own text undo),
// and an Undo button on the notice that follows a move or a delete of this person's. What
// undo did, or why it could not, is said in a notice and to screen readers.

import { cardCount, cardsInside } from "./delete-confirm.js";
import { CorkboardRejection, findItem } from "../sdk/corkboard.js";
import { listName } from "./folders.js";

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("../sdk/replica.js").Operation} Operation */

export class UndoControls {
  /**
   * @param {PageParts} parts
   * @param {() => boolean} busy true while a card is in hand (a drag or a keyboard move), when
   *   the keys belong to it
   */
  constructor({ session, notices, announcer, describe }, busy) {
    this.session = session;
    this.notices = notices;
    this.announcer = announcer;
    this.describe = describe;
    document.addEventListener("keydown", (event) => {
      const which = shortcut(event);
      if (!which || busy()) return;
      const target = /** @type {HTMLElement} */ (event.target);
      if (target.isContentEditable || target.closest?.("input, textarea, select")) return;
      event.preventDefault();
      if (which === "undo") this.undo();
      else this.redo();
    });
    session.addEventListener("history", (event) => {
      const { cause, op } = /** @type {CustomEvent<{ cause: string, op?: Operation }>} */ (event).detail;
      if (cause === "step" && op) this.offerUndo(op);
    });
  }

  /**
   * A move or a delete of this person's (cards, or columns) gets a notice with an Undo button: those are the
   * changes made in one gesture that are easy to make by mistake.
   * @param {Operation} op
   */
  offerUndo(op) {
    const board = this.session.board;
    if (!board) return;
    let text;
    if (op.type === "move") {
      const column = listName(board, op.destination.collection);
      text = `Moved ${quoted(this.describe(op.sources))} to ${column}.`;
    } else if (op.type === "delete") {
      // The card is already off the shown board: its label is on the confirmed one.
      const found = op.items.length === 1 && this.session.confirmed ? findItem(this.session.confirmed, op.items[0]) : null;
      const inside = found?.item.folder && this.session.confirmed ? cardsInside(this.session.confirmed, found.item.id) : 0;
      text = `Deleted ${found ? `“${found.item.label}”` : `${op.items.length} cards`}${inside ? ` and its ${cardCount(inside)}` : ""}.`;
    } else if (op.type === "collection.move") {
      // Its titles are on the board: a moved column is still there.
      const titles = op.collections.map((id) => board.collections.find((c) => c.id === id)?.title).filter(Boolean);
      text = titles.length === 1 ? `Moved the column “${titles[0]}”.` : `Moved ${op.collections.length} columns.`;
    } else if (op.type === "collection.remove" && op.withItems) {
      // The column is already off the shown board: its title is on the confirmed one.
      const title = this.session.confirmed?.collections.find((c) => c.id === op.collection)?.title;
      text = `Removed the column${title ? ` “${title}”` : ""} with its cards.`;
    } else return;
    this.notices.show(text, { label: "Undo", run: () => this.undo() });
  }

  undo() {
    this.carryOut("undo");
  }

  redo() {
    this.carryOut("redo");
  }

  /** @param {"undo" | "redo"} which */
  async carryOut(which) {
    if (!this.session.canEdit) return this.notices.show(this.session.readOnlyReason ?? "The board is not loaded yet.");
    if (which === "undo" ? !this.session.canUndo : !this.session.canRedo) {
      const text = which === "undo" ? "Nothing to undo." : "Nothing to redo.";
      this.announcer.say(text);
      return this.notices.show(text);
    }
    const done = which === "undo" ? "Undone." : "Redone.";
    const again = which === "undo" ? { label: "Redo", run: () => this.redo() } : { label: "Undo", run: () => this.undo() };
    this.notices.show(done, again);
    this.announcer.say(done);
    try {
      await (which === "undo" ? this.session.undo() : this.session.redo());
    } catch (error) {
      if (!(error instanceof CorkboardRejection)) throw error;
      // The step's card or column is gone (nothing was sent), or the server refused it.
      const text = `Could not ${which}: ${error.message}`;
      this.notices.show(text);
      this.announcer.say(text);
    }
    return undefined;
  }
}

/**
 * Which history key this is, if any: Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z and Ctrl+Y redo.
 * @param {KeyboardEvent} event
 * @returns {"undo" | "redo" | null}
 */
function shortcut(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (key === "z") return event.shiftKey ? "redo" : "undo";
  if (key === "y" && !event.shiftKey) return "redo";
  return null;
}

/** @param {string} text */
function quoted(text) {
  return /^\d+ cards$/.test(text) ? text : `“${text}”`;
}
