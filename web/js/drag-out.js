// @ts-check
// Dragging cards out of the board, as SwiftUI's dragContainer with transfer representations:
// each card has a grip (⠿) that starts a native (HTML5) drag of the card, or of the selected
// cards when it is one of them, carrying
// - `text/plain`: the labels, one per line (for a text field, a note, a chat);
// - `text/uri-list`: a link per card that opens this board on it (`/b/ID#card-ITEM`);
// - `application/x-corkboard+json` (CORKBOARD_TYPE): this server's origin, the board, a drag id
//   and the cards (id, label, data), which another Corkboard page of this server turns into a
//   move to its board (transfers.js).
// The grip is the only native drag source on a card: the card itself is moved within the page
// by the drag engine (board-drag.js), touch included, and a press on the grip is left to the
// browser. A folder stays on its board: moved elsewhere it would arrive empty (an insert
// makes an empty folder) while its delete here took what it holds.

import { cardLink } from "./card-link.js";
import { findItem } from "../sdk/replica.js";

/** The Corkboard payload's type. */
export const CORKBOARD_TYPE = "application/x-corkboard+json";

/** @typedef {import("../sdk/replica.js").Item} Item */
/** @typedef {import("./board-page.js").PageParts} PageParts */
/**
 * What a Corkboard drag carries between pages.
 * @typedef {{ origin: string, board: string, drag: string, items: Item[] }} CardPayload
 */

/**
 * The data of a drag of `items` out of board `board` on the server at `origin`.
 * @param {string} origin
 * @param {string} board
 * @param {string} drag a fresh id for this drag: the opIds of the move it becomes are made of it
 * @param {Item[]} items
 * @returns {{ [type: string]: string }}
 */
export function dragData(origin, board, drag, items) {
  /** @type {CardPayload} */
  const payload = { origin, board, drag, items: items.map(({ id, label, data }) => (data ? { id, label, data } : { id, label })) };
  return {
    "text/plain": items.map((item) => item.label).join("\n"),
    "text/uri-list": items.map((item) => cardLink(origin, board, item.id)).join("\r\n"),
    [CORKBOARD_TYPE]: JSON.stringify(payload),
  };
}

/**
 * The Corkboard payload of a drop, or null when there is none or it is not one.
 * @param {string} text what the drop's DataTransfer holds for CORKBOARD_TYPE
 * @returns {CardPayload | null}
 */
export function readPayload(text) {
  if (!text) return null;
  try {
    const payload = JSON.parse(text);
    const valid =
      typeof payload?.origin === "string" && typeof payload.board === "string" && typeof payload.drag === "string" &&
      /^[\w-]{1,64}$/.test(payload.drag) && Array.isArray(payload.items) && payload.items.length > 0 &&
      payload.items.every((/** @type {any} */ item) => typeof item?.id === "string" && typeof item.label === "string");
    return valid ? payload : null;
  } catch {
    return null;
  }
}

/** A new drag id: random, short, safe inside an opId. */
export function newDragId() {
  return `drag-${crypto.getRandomValues(new Uint32Array(2)).reduce((text, n) => text + n.toString(36), "")}`;
}

export class DragOut {
  /**
   * @param {PageParts} parts
   * @param {string} boardId
   */
  constructor({ session, view, notices }, boardId) {
    this.session = session;
    this.view = view;
    this.notices = notices;
    this.boardId = boardId;
    view.root.addEventListener("dragstart", (event) => this.started(event));
  }

  /** @param {DragEvent} event */
  started(event) {
    const grip = /** @type {Element} */ (event.target).closest?.(".card-grip");
    const card = /** @type {HTMLElement | null} */ (grip?.closest("li.card") ?? null);
    const board = this.session.board;
    if (!grip || !card || !board || !event.dataTransfer) return;
    const id = /** @type {string} */ (card.dataset.itemId);
    const ids = this.view.selected.has(id) ? [...this.view.selected] : [id];
    /** @type {Item[]} */
    const cards = [];
    for (const each of ids) {
      const item = findItem(board, each)?.item;
      if (item && !item.folder) cards.push(item);
    }
    if (cards.length === 0) {
      event.preventDefault();
      this.notices.show("A folder stays on its board: drag the cards inside it instead.");
      return;
    }
    for (const [type, value] of Object.entries(dragData(location.origin, this.boardId, newDragId(), cards))) {
      event.dataTransfer.setData(type, value);
    }
    // Moved to another board, or (with Alt/Option on most systems) copied.
    event.dataTransfer.effectAllowed = "copyMove";
    event.dataTransfer.setDragImage(card, Math.min(24, card.offsetWidth / 2), Math.min(16, card.offsetHeight / 2));
  }
}
