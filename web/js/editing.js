// @ts-check
// Changing the board's content: adding, editing and deleting cards, adding, renaming and
// removing (empty) columns, and the "Move to…" menu, all as operations
// (docs/protocol.md#4-operations) through the session (so they show at once and roll back
// with a notice when refused).
//
// An open editor belongs to the person typing in it: others' changes never close it, commit
// it or move its caret. Only Enter or leaving the field commits (once); if its card or column
// is deleted meanwhile, the text is kept in a panel to copy or add back (lost-edit.js); if
// someone else changed its label meanwhile, theirs stays and the panel keeps ours to apply
// again. While a card's label is being edited the others are told (an editing mark:
// docs/protocol.md#editing-marks), and see "Ada is editing" on it (editing-marks.js).

import { LostEdit } from "./lost-edit.js";
import { DeleteConfirm, cardCount, cardsInside } from "./delete-confirm.js";

import { MoveTo } from "./move-to.js";
import { showMenu } from "./popup-menu.js";
import { findItem } from "../sdk/replica.js";

const MAX_TEXT = 16384;

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {"enter" | "blur" | "escape"} EditEnd */
/**
 * The caret (or selection) in an editor, as character offsets into its text: nodes change
 * when the view moves the editor, offsets do not.
 * @typedef {{ start: number, end: number }} Caret
 */
/** @typedef {import("./popup-menu.js").MenuEntry} MenuEntry */

// Cards and columns are on the page only once the session has a board (which it keeps): the
// casts of `session.board` below say so. The elements are those the view made (a column is
// a `section.column` with its title, list and buttons; a card an `li.card` with its label).

export class Editing {
  /** @param {PageParts} parts */
  constructor(parts) {
    const { session, view, announcer, notices } = parts;
    this.lostEdit = new LostEdit(session);
    this.session = session;
    this.view = view;
    this.announcer = announcer;
    this.notices = notices;
    /** @type {HTMLElement | null} */
    this.menu = null;
    this.moveTo = new MoveTo(parts);
    this.deleteConfirm = new DeleteConfirm();
    /**
     * Who last changed each card's label, as the committed events say (`by`): named when an
     * edit loses to theirs.
     * @type {Map<string, string>}
     */
    this.labelAuthors = new Map();
    session.addEventListener("committed", (event) => {
      const { op, by } = /** @type {CustomEvent<import("../sdk/wire.js").Committed>} */ (event).detail;
      if (op.type === "update" && op.item !== undefined && op.label !== undefined && by !== undefined) this.labelAuthors.set(op.item, by);
    });
    /**
     * Opens or closes a folder (board-page.js wires it to the person's remembered choice).
     * @type {(folderId: string) => void}
     */
    this.onToggleFolder = () => {};
    view.root.addEventListener("click", (event) => this.clicked(event));
    view.root.addEventListener("dblclick", (event) => {
      const target = /** @type {Element} */ (event.target);
      const card = /** @type {HTMLElement | null} */ (target.closest("li.card"));
      if (card && !target.closest("button")) this.editCard(card);
    });
    document.addEventListener("pointerdown", (event) => {
      if (this.menu && !this.menu.contains(/** @type {Node | null} */ (event.target))) this.closeMenu();
    });
  }

  editable() {
    if (this.session.canEdit) return true;
    this.notices.show(this.session.readOnlyReason ?? "The board is not loaded yet.");
    return false;
  }

  /** @param {MouseEvent} event */
  clicked(event) {
    const button = /** @type {Element} */ (event.target).closest("button");
    if (!button) return;
    // Null for the button that adds a column, which is outside every column.
    const column = /** @type {HTMLElement} */ (button.closest("section.column"));
    if (button.classList.contains("add-card")) this.addCard(column);
    else if (button.classList.contains("add-folder")) this.addCard(column, { folder: true });
    else if (button.classList.contains("column-remove")) this.removeColumn(column);
    else if (button.classList.contains("card-menu")) this.openMenu(/** @type {HTMLElement} */ (button.closest("li.card")), button);
    else if (button.classList.contains("add-column")) this.addColumn(button);
  }

  // MARK: Cards

  /**
   * An inline editor in place of the card's label: Enter saves, Escape leaves it as it was.
   * @param {HTMLElement} card
   */
  editCard(card) {
    if (!this.editable()) return;
    const label = /** @type {HTMLElement} */ (card.querySelector(".card-label"));
    // An element's textContent is never null (a document's is): the casts of it say so.
    const original = /** @type {string} */ (label.textContent);
    const id = /** @type {string} */ (card.dataset.itemId);
    const column = /** @type {HTMLElement} */ (card.closest("section.column")).dataset.collectionId;
    this.session.setEditing(id);
    this.inlineEditor(label, original, {
      done: (text, how) => {
        this.session.setEditing(null);
        const now = this.currentLabel(id);
        if (text && text !== original && now !== null && now !== original && now !== text) {
          // Someone else's edit landed while this one was open: theirs stays, and this
          // person is told and keeps their text to apply again (or not). The focus stays in
          // the panel, on the kept text.
          label.textContent = now;
          return this.lostToAnother(id, original, now, text);
        }
        if (text && text !== original) this.session.update(id, { label: text });
        // Unsaved: the label as the board has it now (someone may have changed it meanwhile).
        else label.textContent = now ?? original;
        return refocus(card, how);
      },
      lost: (text) => {
        this.session.setEditing(null);
        this.lostEdit.show({ what: `The card “${original}”`, text, column: this.liveCollection(card, column) });
      },
    });
  }

  /**
   * Tells that an edit lost to another's: the label is `theirs` now; `mine` is kept, to put
   * back with one click.
   * @param {string} id
   * @param {string} original the label when the edit began
   * @param {string} theirs
   * @param {string} mine
   */
  lostToAnother(id, original, theirs, mine) {
    const who = this.labelAuthors.get(id) ?? "Someone else";
    this.lostEdit.show({
      what: `The card “${original}”`,
      text: mine,
      column: null,
      message: `${who} changed the card “${original}” to “${theirs}” while you were editing it. Theirs is kept; your text is here:`,
      reapply: () => this.session.update(id, { label: mine }),
    });
    this.announcer.say(`${who} changed this card while you were editing it. Your text is kept.`);
  }

  /**
   * @param {string} id
   * @returns {string | null}
   */
  currentLabel(id) {
    // Wherever it is now: in a column or in a folder.
    return (this.session.board && findItem(this.session.board, id)?.item.label) ?? null;
  }

  /**
   * The column a lost card was last seen in, if the board still has it.
   * @param {HTMLElement} card
   * @param {string | undefined} fallback the one it was in when the edit began
   */
  liveCollection(card, fallback) {
    const id = /** @type {HTMLElement | null} */ (card.closest("section.column"))?.dataset.collectionId ?? fallback;
    return this.session.board?.collections.some((c) => c.id === id) ? (id ?? null) : null;
  }

  /**
   * A draft card at the column's end, written in place; with `folder`, a new folder's name
   * (a folder starts empty and takes drops).
   * @param {HTMLElement} column
   * @param {{ folder?: boolean }} kind
   */
  addCard(column, { folder = false } = {}) {
    if (!this.editable()) return;
    const form = document.createElement("li");
    form.className = folder ? "card card-draft folder" : "card card-draft";
    const label = document.createElement("span");
    label.className = "card-label";
    form.append(label);
    /** @type {HTMLElement} */ (column.querySelector("ol.cards")).append(form);
    const collection = /** @type {string} */ (column.dataset.collectionId);
    this.inlineEditor(label, "", {
      done: (text, how) => {
        form.remove();
        if (!text) return refocus(/** @type {HTMLElement} */ (column.querySelector(folder ? ".add-folder" : ".add-card")), how);
        if (folder) {
          this.session.insert([{ id: newCardId("folder"), label: text, folder: { accepts: true } }], { collection, before: null });
          this.announcer.say(`Added the folder ${text}.`);
          return refocus(/** @type {HTMLElement} */ (column.querySelector(".add-folder")), how);
        }
        this.session.insert([{ id: newCardId(), label: text }], { collection, before: null });
        this.announcer.say(`Added ${text}.`);
        // After Enter, ready for the next one, as in every good board.
        if (how === "enter") requestAnimationFrame(() => this.addCard(column));
        return undefined;
      },
      lost: (text) => this.lostEdit.show({ what: folder ? "The column of your new folder" : "The column of your new card", text, column: null }),
      placeholder: folder ? "Folder name…" : "Card text…",
    });
  }

  /**
   * Whether a folder takes items from elsewhere: an update of its own (the server refuses
   * drops into one that does not; reordering inside it stays allowed).
   * @param {string} id
   * @param {boolean} accepts
   */
  setAccepts(id, accepts) {
    if (!this.editable()) return;
    this.session.submit({ type: "update", item: id, accepts });
    const label = this.currentLabel(id) ?? "The folder";
    this.announcer.say(accepts ? `${label} accepts drops.` : `${label} no longer accepts drops.`);
  }

  /** @param {HTMLElement} card */
  deleteCard(card) {
    if (!this.editable()) return;
    const text = /** @type {HTMLElement} */ (card.querySelector(".card-label")).textContent;
    const next = /** @type {HTMLElement | null | undefined} */ (card.nextElementSibling?.closest("li.card") ?? card.previousElementSibling?.closest("li.card"));
    const id = /** @type {string} */ (card.dataset.itemId);
    const inside = this.session.board ? cardsInside(this.session.board, id) : 0;
    const remove = () => {
      this.session.submit({ type: "delete", items: [id] });
      next?.focus();
      // The notice, with its Undo button, comes from UndoControls.
      this.announcer.say(`Deleted ${text}${inside ? ` and ${cardCount(inside)} in it` : ""}. Control Z undoes it.`);
    };
    if (inside > 0) this.deleteConfirm.ask(/** @type {string} */ (text), inside, card, remove);
    else remove();
  }

  // MARK: Columns

  /**
   * The column's title as an editor. `typed` is the text of a key typed on the title while it
   * was focused but not being edited: it replaces the title, as typing into a spreadsheet's
   * cell does, so no character of what someone types is dropped (Space alone, on a title not
   * being edited, opens the editor with the title selected; typed after a letter it is text).
   * @param {HTMLElement} column
   * @param {string | null} [typed]
   */
  renameColumn(column, typed = null) {
    if (!this.editable()) return;
    const title = /** @type {HTMLElement} */ (column.querySelector(".column-title"));
    const original = /** @type {string} */ (title.textContent);
    const id = /** @type {string} */ (column.dataset.collectionId);
    this.inlineEditor(title, original, {
      done: (text, how) => {
        if (text && text !== original) this.session.renameCollection(id, text);
        else title.textContent = this.session.board?.collections.find((c) => c.id === id)?.title ?? original;
        refocus(title, how);
      },
      lost: (text) => this.lostEdit.show({ what: `The column “${original}”`, text, column: null }),
      typed,
    });
  }

  /** @param {HTMLElement} column */
  removeColumn(column) {
    if (!this.editable()) return;
    const title = /** @type {HTMLElement} */ (column.querySelector(".column-title")).textContent;
    this.session.submit({ type: "collection.remove", collection: /** @type {string} */ (column.dataset.collectionId) });
    this.announcer.say(`Removed the column ${title}.`);
  }

  /** @param {HTMLElement} button */
  addColumn(button) {
    if (!this.editable()) return;
    const draft = document.createElement("section");
    draft.className = "column column-draft";
    const title = document.createElement("h2");
    title.className = "column-title";
    draft.append(title);
    button.before(draft);
    this.inlineEditor(title, "", {
      done: (text, how) => {
        draft.remove();
        if (text) {
          const slug = text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "column";
          const id = `${slug}-${Math.random().toString(36).slice(2, 6)}`;
          this.session.addCollection(id, text, null);
          this.announcer.say(`Added the column ${text}.`);
        }
        // The draft had the focus and left the page with it. Back to this button, as after
        // Escape: someone laying out a board adds columns one after another (Enter here starts
        // the next), and the new column is just before the button (Shift+Tab reaches its
        // "+ Add a card"). Its title would be a worse place: Enter there only renames the
        // column they have just named.
        refocus(button, how);
      },
      lost: (text) => this.lostEdit.show({ what: "The new column", text, column: null }),
      placeholder: "Column title…",
    });
  }

  // MARK: The card menu

  /**
   * The card's menu, under `anchor` (its ⋯ button).
   * @param {HTMLElement} card
   * @param {Element} anchor
   */
  openMenu(card, anchor) {
    this.closeMenu();
    // Someone who may not change the board (a viewer, or anyone on a locked board) is offered
    // only what leaves it as it is: each change would be refused the moment it was picked.
    const changes = this.session.canEdit;
    /** @type {MenuEntry[]} */
    const entries = changes
      ? [
          ["Move to…", () => this.moveTo.open(card)],
          ["Edit", () => this.editCard(card)],
          ["Delete", () => this.deleteCard(card)],
        ]
      : [];
    const id = /** @type {string} */ (card.dataset.itemId);
    const folder = this.session.board && findItem(this.session.board, id)?.item.folder;
    if (folder) {
      const open = card.classList.contains("open");
      entries.splice(changes ? 1 : 0, 0, [open ? "Close folder" : "Open folder", () => this.onToggleFolder(id)]);
      if (changes) entries.splice(2, 0, [folder.accepts ? "Stop accepting drops" : "Accept drops", () => this.setAccepts(id, !folder.accepts)]);
    }
    if (entries.length === 0) return;
    this.menu = showMenu(entries, anchor, card, () => this.closeMenu());
  }

  closeMenu() {
    this.menu?.remove();
    this.menu = null;
  }

  // MARK: Inline editing

  /**
   * Turns `element` into a plain-text editor. Enter (without Shift) or leaving the field
   * saves; Escape cancels (saves nothing). `done` gets the trimmed text ("" for cancel) and
   * how it ended: "enter", "blur" or "escape"; `lost` gets the text when the element left the
   * page under the editor (someone deleted its card or column). `typed`, when given, is what the
   * editor starts with instead of `text` (the caret after it); Escape still restores `text`.
   *
   * The view moves the element when others reorder the board, and moving a focused node
   * blurs it (in Chrome, synchronously, in the middle of the view's update; committing there
   * once published half-typed text and re-entered the update, which threw). So a blur only
   * ends the edit if, after the update, the focus really went elsewhere: a blur during
   * the view's update (`view.rendering`) puts the focus and the caret back.
   * @param {HTMLElement} element
   * @param {string} text
   * @param {{ done: (text: string, how: EditEnd) => void, lost: (text: string) => void, placeholder?: string,
   *   typed?: string | null }} handlers
   */
  inlineEditor(element, text, { done, lost, placeholder = "", typed: start = null }) {
    element.contentEditable = "plaintext-only";
    element.textContent = start ?? text;
    element.dataset.placeholder = placeholder;
    element.classList.add("editing");
    element.focus();
    /** @type {Caret} */
    let caret = start === null ? { start: 0, end: text.length } : { start: start.length, end: start.length };
    setCaret(element, caret);
    let finished = false;
    let displaced = false;
    const typed = () => /** @type {string} */ (element.textContent).trim().slice(0, MAX_TEXT);
    const remember = () => {
      const selection = getSelection();
      if (selection && selection.rangeCount > 0 && element.contains(selection.anchorNode)) caret = caretIn(element, selection.getRangeAt(0));
    };
    const stop = () => {
      finished = true;
      element.removeEventListener("keydown", onKey);
      element.removeEventListener("blur", onBlur);
      element.removeEventListener("focus", onFocus);
      document.removeEventListener("selectionchange", remember);
      element.contentEditable = "false";
      element.removeAttribute("contenteditable");
      element.classList.remove("editing");
    };
    /**
     * @param {boolean} save
     * @param {EditEnd} how
     */
    const finish = (save, how) => {
      if (finished) return;
      const value = save ? typed() : "";
      stop();
      if (!save || !value) element.textContent = text;
      done(value, how);
    };
    /** @param {KeyboardEvent} event */
    const onKey = (event) => {
      event.stopPropagation();
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        finish(true, "enter");
      } else if (event.key === "Escape") {
        event.preventDefault();
        finish(false, "escape");
      }
    };
    const settle = () => {
      if (finished) return;
      if (!element.isConnected) {
        const value = /** @type {string} */ (element.textContent).trim();
        stop();
        if (value) lost(value);
        return;
      }
      if (displaced && document.activeElement !== element && !document.activeElement?.closest?.("input, textarea, [contenteditable]")) element.focus({ preventScroll: true });
      displaced = false;
      // Still focused: moved and given back, or only the window lost the focus (switching
      // windows keeps the edit open, as a text field does).
      if (document.activeElement !== element) finish(true, "blur");
    };
    const onBlur = () => {
      if (this.view.rendering) displaced = true;
      // After the view's update and the focus it gives back (never inside the update).
      setTimeout(settle, 0);
    };
    const onFocus = () => setCaret(element, caret);
    element.addEventListener("keydown", onKey);
    element.addEventListener("blur", onBlur);
    element.addEventListener("focus", onFocus);
    document.addEventListener("selectionchange", remember);
  }
}

/**
 * Gives `element` the focus back after its edit ended, unless the edit ended because the focus
 * went somewhere else (a click on a column's title, another editor): taking it back from there
 * would close the editor that click just opened, or leave its title focused but not editable.
 * @param {HTMLElement} element
 * @param {EditEnd} how
 */
function refocus(element, how) {
  if (how === "blur" && document.activeElement && document.activeElement !== document.body) return;
  element.focus();
}

/**
 * The selection `range` as offsets into the text of `element`.
 * @param {HTMLElement} element
 * @param {Range} range
 * @returns {Caret}
 */
function caretIn(element, range) {
  const before = document.createRange();
  before.selectNodeContents(element);
  before.setEnd(range.startContainer, range.startOffset);
  const start = before.toString().length;
  return { start, end: start + range.toString().length };
}

/**
 * Selects `caret` in `element`'s text (clamped to it).
 * @param {HTMLElement} element
 * @param {Caret} caret
 */
function setCaret(element, caret) {
  const selection = getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  const start = pointAt(element, caret.start);
  const end = pointAt(element, caret.end);
  if (start) range.setStart(start.node, start.offset);
  if (end) range.setEnd(end.node, end.offset);
  selection.removeAllRanges();
  selection.addRange(range);
}

/**
 * The text node and offset at character `offset` of `element`'s text; null when it has no
 * text (the range then stays on the element itself).
 * @param {HTMLElement} element
 * @param {number} offset
 * @returns {{ node: Text, offset: number } | null}
 */
function pointAt(element, offset) {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let left = offset;
  /** @type {Text | null} */
  let last = null;
  for (let node = /** @type {Text | null} */ (walker.nextNode()); node; node = /** @type {Text | null} */ (walker.nextNode())) {
    if (left <= node.length) return { node, offset: left };
    left -= node.length;
    last = node;
  }
  return last ? { node: last, offset: last.length } : null;
}

/**
 * A card id no one else makes: the kind ("card", "folder"), the time and a random part.
 * @param {string} [kind]
 */
export function newCardId(kind = "card") {
  return `${kind}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}
