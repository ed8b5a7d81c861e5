// @ts-check
// The others' drags of columns, seen live (docs/protocol.md#6-presence-drag-state): a column
// someone holds is outlined in their colour with their name on it (the held-by badge of
// cards), and where it would land stands a ghost among the columns, at their placeholder.
// Cleared when their drag ends (drop, cancel, or anything else). Only what changed is
// touched, so a drag's placeholder moves cost one insert on a board of 30 columns.

import { inkOn } from "./ink.js";
import { colourOf } from "./people.js";

/** @typedef {import("./view.js").BoardView} BoardView */
/** @typedef {import("../sdk/live.js").LiveBoard} LiveBoard */
/** @typedef {import("../sdk/wire.js").Peer} Peer */

export class RemoteColumns {
  /**
   * @param {BoardView} view
   * @param {LiveBoard} session
   */
  constructor(view, session) {
    this.view = view;
    this.session = session;
    /** The columns marked held, by id: the holder's client. @type {Map<string, string>} */
    this.held = new Map();
    /** The ghosts among the columns, by the client whose placeholder each is. @type {Map<string, HTMLElement>} */
    this.ghosts = new Map();
  }

  /** After a "presence" event or a render: the marks and ghosts as the others' drags are now. */
  show() {
    const drags = this.session.columnDrags;
    /** @type {Map<string, Peer>} */
    const holders = new Map();
    for (const { peer, collections } of drags) for (const id of collections) if (this.view.columns.has(id)) holders.set(id, peer);
    for (const [id, client] of this.held) {
      const column = this.view.columns.get(id)?.element;
      if (column && holders.get(id)?.client === client && column.querySelector(":scope > .column-held-badge")) continue;
      this.held.delete(id);
      if (column) unmark(column);
    }
    for (const [id, peer] of holders) {
      if (this.held.has(id)) continue;
      mark(/** @type {HTMLElement} */ (this.view.columns.get(id)?.element), peer);
      this.held.set(id, peer.client);
    }

    /** @type {Set<string>} */
    const shown = new Set();
    for (const { peer, collections, index, before } of drags) {
      if (index === null || !collections.some((id) => this.view.columns.has(id))) continue;
      shown.add(peer.client);
      const ghost = this.ghost(peer, collections.length);
      const next = this.nodeBefore(before);
      if (ghost.parentNode !== this.view.root || ghost.nextElementSibling !== next) this.view.root.insertBefore(ghost, next);
    }
    for (const [client, ghost] of this.ghosts) {
      if (shown.has(client)) continue;
      ghost.remove();
      this.ghosts.delete(client);
    }
  }

  /**
   * The ghost of `peer`'s placeholder, made once per drag and named for them.
   * @param {Peer} peer
   * @param {number} count the columns they carry
   */
  ghost(peer, count) {
    let ghost = this.ghosts.get(peer.client);
    if (!ghost) {
      ghost = document.createElement("div");
      ghost.className = "column-ghost";
      ghost.dataset.client = peer.client;
      ghost.setAttribute("aria-hidden", "true");
      ghost.style.setProperty("--holder-color", colourOf(peer));
      this.ghosts.set(peer.client, ghost);
    }
    const text = count > 1 ? `${peer.name} · ${count} columns` : peer.name;
    if (ghost.textContent !== text) ghost.textContent = text;
    return ghost;
  }

  /**
   * The element a ghost goes before: the column `before` names, or (the end) the button that
   * adds a column when it stands among them; null: the end of the board.
   * @param {string | null} before
   * @returns {Element | null}
   */
  nodeBefore(before) {
    const node = before === null ? this.view.addColumnButton : (this.view.columns.get(before)?.element ?? null);
    return node?.parentNode === this.view.root ? node : null;
  }
}

/**
 * @param {HTMLElement} column
 * @param {Peer} peer
 */
function mark(column, peer) {
  unmark(column);
  const color = colourOf(peer);
  column.classList.add("column-held");
  column.dataset.heldBy = peer.client;
  column.style.setProperty("--holder-color", color);
  column.style.setProperty("--holder-ink", inkOn(color));
  const badge = document.createElement("span");
  badge.className = "held-badge column-held-badge";
  badge.textContent = peer.name;
  column.append(badge);
}

/** @param {HTMLElement} column */
function unmark(column) {
  column.classList.remove("column-held");
  delete column.dataset.heldBy;
  column.style.removeProperty("--holder-color");
  column.style.removeProperty("--holder-ink");
  column.querySelector(":scope > .column-held-badge")?.remove();
}
