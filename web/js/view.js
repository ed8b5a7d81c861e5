// @ts-check
// The board in the DOM: columns and cards kept by id (so focus, selection and running
// animations survive every update), cards animating to their new places (FLIP), and the
// others' presence drawn on top: held cards with the holder's name, placeholder ghosts.

import { colorFor } from "./people.js";

/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {import("../sdk/replica.js").Collection} Collection */
/** @typedef {import("../sdk/replica.js").Item} Item */
/** @typedef {import("../sdk/wire.js").Peer} Peer */
/**
 * A column's elements, made once per collection id and kept.
 * @typedef {{ element: HTMLElement, title: HTMLElement, count: HTMLElement, remove: HTMLButtonElement,
 *   list: HTMLOListElement, add: HTMLButtonElement }} ColumnElements
 */

const MOVE_ANIMATION_MS = 180;

export class BoardView {
  /** @param {HTMLElement} root the board's element, which the view fills */
  constructor(root) {
    this.root = root;
    /** @type {Map<string, ColumnElements>} */
    this.columns = new Map();
    /** @type {Map<string, HTMLLIElement>} */
    this.cards = new Map();
    /** @type {Set<string>} */
    this.selected = new Set();
    /** @type {HTMLButtonElement | null} */
    this.addColumnButton = null;
    /** Called after each render, so a drag in progress can put its placeholder back. */
    this.afterRender = () => {};
  }

  /**
   * The shown state of `board`, animating cards that moved.
   * @param {Board} board
   * @param {{ editable: boolean }} options
   */
  render(board, { editable }) {
    const before = this.cardRects();
    // Moving a node to another list takes the focus away from it: give it back, so a
    // keyboard user whose card someone else moved keeps their place (and hears of it).
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    const hadFocus = focused !== null && this.root.contains(focused);
    if (this.root.querySelector(".loading")) this.root.replaceChildren();
    this.root.dataset.boardId = board.id;

    const liveColumns = new Set();
    const liveCards = new Set();
    /** @type {HTMLElement | null} */
    let previous = null;
    for (const collection of board.collections) {
      liveColumns.add(collection.id);
      const column = this.column(collection);
      if (column.element.previousElementSibling !== previous || column.element.parentNode !== this.root) {
        this.root.insertBefore(column.element, previous ? previous.nextElementSibling : this.root.firstElementChild);
      }
      previous = column.element;
      this.updateColumn(column, collection, editable);
      /** @type {HTMLLIElement | null} */
      let previousCard = null;
      for (const item of collection.items) {
        liveCards.add(item.id);
        const card = this.card(item);
        const expectedPrevious = previousCard;
        // Only move what is out of place: moving a node resets its focus and hover state.
        if (card.parentNode !== column.list || this.previousCard(card) !== expectedPrevious) {
          column.list.insertBefore(card, expectedPrevious ? expectedPrevious.nextSibling : column.list.firstChild);
        }
        previousCard = card;
      }
    }
    for (const [id, column] of this.columns) {
      if (!liveColumns.has(id)) {
        column.element.remove();
        this.columns.delete(id);
      }
    }
    for (const [id, card] of this.cards) {
      if (!liveCards.has(id)) {
        card.remove();
        this.cards.delete(id);
        this.selected.delete(id);
      }
    }
    this.placeAddColumnButton(editable);
    this.afterRender();
    if (hadFocus && focused.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
    this.animateFrom(before);
  }

  /**
   * The card before `card` in its list (placeholders and ghosts are not cards).
   * @param {Element} card
   * @returns {Element | null}
   */
  previousCard(card) {
    let node = card.previousElementSibling;
    while (node && !node.classList.contains("card")) node = node.previousElementSibling;
    return node;
  }

  /**
   * @param {Collection} collection
   * @returns {ColumnElements}
   */
  column(collection) {
    let column = this.columns.get(collection.id);
    if (column) return column;
    const element = document.createElement("section");
    element.className = "column";
    element.dataset.collectionId = collection.id;
    const header = document.createElement("header");
    header.className = "column-header";
    const title = document.createElement("h2");
    title.className = "column-title";
    title.tabIndex = 0;
    title.title = "Rename";
    const count = document.createElement("span");
    count.className = "column-count";
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "icon-button column-remove";
    remove.textContent = "×";
    header.append(title, count, remove);
    const list = document.createElement("ol");
    list.className = "cards";
    const add = document.createElement("button");
    add.type = "button";
    add.className = "add-card";
    add.textContent = "+ Add a card";
    element.append(header, list, add);
    column = { element, title, count, remove, list, add };
    this.columns.set(collection.id, column);
    return column;
  }

  /**
   * @param {ColumnElements} column
   * @param {Collection} collection
   * @param {boolean} editable
   */
  updateColumn(column, collection, editable) {
    if (!column.title.isContentEditable && column.title.textContent !== collection.title) column.title.textContent = collection.title;
    column.count.textContent = String(collection.items.length);
    column.list.setAttribute("aria-label", collection.title);
    column.remove.hidden = !editable || collection.items.length > 0;
    column.remove.setAttribute("aria-label", `Remove the empty column ${collection.title}`);
    column.add.hidden = !editable;
  }

  /**
   * @param {Item} item
   * @returns {HTMLLIElement}
   */
  card(item) {
    let card = this.cards.get(item.id);
    if (!card) {
      card = document.createElement("li");
      card.className = "card";
      card.tabIndex = 0;
      card.dataset.itemId = item.id;
      card.setAttribute("aria-roledescription", "card");
      const label = document.createElement("span");
      label.className = "card-label";
      const menu = document.createElement("button");
      menu.type = "button";
      menu.className = "icon-button card-menu";
      menu.textContent = "⋯";
      menu.tabIndex = -1;
      card.append(label, menu);
      this.cards.set(item.id, card);
    }
    const label = /** @type {HTMLElement} */ (card.querySelector(".card-label"));
    if (!label.isContentEditable && label.textContent !== item.label) label.textContent = item.label;
    /** @type {HTMLElement} */ (card.querySelector(".card-menu")).setAttribute("aria-label", `Actions for ${item.label}`);
    const color = item.data?.color;
    if (typeof color === "string" && /^#[0-9a-f]{3,8}$|^[a-z]+$/i.test(color)) card.style.setProperty("--card-accent", color);
    else card.style.removeProperty("--card-accent");
    card.classList.toggle("selected", this.selected.has(item.id));
    card.setAttribute("aria-selected", this.selected.has(item.id) ? "true" : "false");
    return card;
  }

  /** @param {boolean} editable */
  placeAddColumnButton(editable) {
    if (!this.addColumnButton) {
      this.addColumnButton = document.createElement("button");
      this.addColumnButton.type = "button";
      this.addColumnButton.className = "add-column";
      this.addColumnButton.textContent = "+ Add a column";
    }
    this.addColumnButton.hidden = !editable;
    this.root.append(this.addColumnButton);
  }

  // MARK: Presence of others

  /**
   * Marks cards others hold and shows their placeholders as ghost slots.
   * @param {Peer[]} peers
   * @param {Board | null} board
   */
  showPresence(peers, board) {
    for (const card of /** @type {NodeListOf<HTMLElement>} */ (this.root.querySelectorAll("li.card.held"))) {
      card.classList.remove("held");
      delete card.dataset.heldBy;
      card.style.removeProperty("--holder-color");
      card.querySelector(".held-badge")?.remove();
    }
    for (const ghost of this.root.querySelectorAll("li.ghost-slot")) ghost.remove();
    for (const peer of peers) {
      if (!peer.drag) continue;
      const color = colorFor(peer.name);
      for (const id of peer.drag.items) {
        const card = this.cards.get(id);
        if (!card) continue;
        card.classList.add("held");
        card.dataset.heldBy = peer.client;
        card.style.setProperty("--holder-color", color);
        const badge = document.createElement("span");
        badge.className = "held-badge";
        badge.textContent = peer.name;
        card.append(badge);
      }
      const over = peer.drag.over;
      const column = over && this.columns.get(over.collection);
      if (!column || !board) continue;
      const ghost = document.createElement("li");
      ghost.className = "ghost-slot";
      ghost.dataset.client = peer.client;
      ghost.style.setProperty("--holder-color", color);
      ghost.textContent = peer.name;
      ghost.setAttribute("aria-hidden", "true");
      // Of type `string | undefined` because a card still being written (a draft) has no id.
      /** @type {Set<string | undefined>} */
      const dragged = new Set(peer.drag.items);
      const rest = /** @type {HTMLElement[]} */ ([...column.list.children]).filter((el) => el.classList.contains("card") && !dragged.has(el.dataset.itemId));
      column.list.insertBefore(ghost, rest[over.index] ?? null);
    }
  }

  // MARK: Animation

  /** @returns {Map<string, DOMRect>} */
  cardRects() {
    const rects = new Map();
    for (const [id, card] of this.cards) if (card.isConnected) rects.set(id, card.getBoundingClientRect());
    return rects;
  }

  /**
   * FLIP: every card that moved starts where it was and glides to where it is.
   * @param {Map<string, DOMRect>} before
   */
  animateFrom(before) {
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    for (const [id, card] of this.cards) {
      const old = before.get(id);
      if (!old || card.classList.contains("lifted")) continue;
      const now = card.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      card.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
        duration: MOVE_ANIMATION_MS,
        easing: "cubic-bezier(0.2, 0, 0, 1)",
      });
    }
  }

  /**
   * Runs `change` (which moves DOM nodes around) and animates the cards it displaced.
   * @param {() => void} change
   */
  animateChange(change) {
    const before = this.cardRects();
    change();
    this.animateFrom(before);
  }

  // MARK: Lookup

  /**
   * The column under a point of the viewport (a little above and below it counts).
   * @param {number} x
   * @param {number} y
   * @returns {{ id: string, column: ColumnElements } | null}
   */
  columnAt(x, y) {
    for (const [id, column] of this.columns) {
      const rect = column.element.getBoundingClientRect();
      if (x >= rect.left && x <= rect.right && y >= rect.top - 8 && y <= rect.bottom + 8) return { id, column };
    }
    return null;
  }

  /**
   * Cards of a column as shown, without `excluded` ids.
   * @param {string} collectionId
   * @param {Set<string | undefined>} excluded (a card still being written has no id yet)
   * @returns {HTMLElement[]}
   */
  visibleCards(collectionId, excluded) {
    const column = this.columns.get(collectionId);
    if (!column) return [];
    return /** @type {HTMLElement[]} */ ([...column.list.children]).filter((el) => el.classList.contains("card") && !excluded.has(el.dataset.itemId));
  }
}
