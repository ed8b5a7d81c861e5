// @ts-check
// Changing the board's content: adding, editing and deleting cards, adding, renaming and
// removing (empty) columns, and the "Move to…" menu, all as operations
// (docs/protocol.md#4-operations) through the session (so they show at once and roll back
// with a notice when refused).

const MAX_TEXT = 16384;

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {"enter" | "blur" | "escape"} EditEnd */
/** @typedef {[text: string, action: () => void]} MenuEntry */

// Cards and columns are on the page only once the session has a board (which it keeps): the
// casts of `session.board` below say so. The elements are those the view made (a column is
// a `section.column` with its title, list and buttons; a card an `li.card` with its label).

export class Editing {
  /** @param {PageParts} parts */
  constructor({ session, view, announcer, notices }) {
    this.session = session;
    this.view = view;
    this.announcer = announcer;
    this.notices = notices;
    /** @type {HTMLElement | null} */
    this.menu = null;
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
    this.inlineEditor(label, original, (text) => {
      if (text && text !== original) this.session.submit({ type: "update", item: /** @type {string} */ (card.dataset.itemId), label: text });
      card.focus();
    });
  }

  /** @param {HTMLElement} column */
  addCard(column) {
    if (!this.editable()) return;
    const form = document.createElement("li");
    form.className = "card card-draft";
    const label = document.createElement("span");
    label.className = "card-label";
    form.append(label);
    /** @type {HTMLElement} */ (column.querySelector("ol.cards")).append(form);
    this.inlineEditor(label, "", (text, how) => {
      form.remove();
      if (!text) return /** @type {HTMLElement} */ (column.querySelector(".add-card")).focus();
      const id = `card-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
      this.session.submit({
        type: "insert",
        items: [{ id, label: text }],
        destination: { collection: /** @type {string} */ (column.dataset.collectionId), before: null },
      });
      this.announcer.say(`Added ${text}.`);
      // After Enter, ready for the next one, as in every good board.
      if (how === "enter") requestAnimationFrame(() => this.addCard(column));
    }, "Card text…");
  }

  /** @param {HTMLElement} card */
  deleteCard(card) {
    if (!this.editable()) return;
    const text = /** @type {HTMLElement} */ (card.querySelector(".card-label")).textContent;
    const next = /** @type {HTMLElement | null | undefined} */ (card.nextElementSibling?.closest("li.card") ?? card.previousElementSibling?.closest("li.card"));
    this.session.submit({ type: "delete", items: [/** @type {string} */ (card.dataset.itemId)] });
    next?.focus();
    this.announcer.say(`Deleted ${text}.`);
    this.notices.show(`Deleted “${text}”.`);
  }

  /**
   * @param {HTMLElement} card
   * @param {string} collectionId
   */
  moveTo(card, collectionId) {
    if (!this.editable()) return;
    const id = /** @type {string} */ (card.dataset.itemId);
    const holder = this.session.holderOf(id);
    if (holder) return this.notices.show(`${holder.name} is holding this card.`);
    this.session.move([id], { collection: collectionId, before: null });
    const title = /** @type {Board} */ (this.session.board).collections.find((c) => c.id === collectionId)?.title ?? collectionId;
    this.announcer.say(`Moved ${/** @type {HTMLElement} */ (card.querySelector(".card-label")).textContent} to the end of ${title}.`);
    card.focus();
    return undefined;
  }

  // MARK: Columns

  /** @param {HTMLElement} column */
  renameColumn(column) {
    if (!this.editable()) return;
    const title = /** @type {HTMLElement} */ (column.querySelector(".column-title"));
    const original = /** @type {string} */ (title.textContent);
    this.inlineEditor(title, original, (text) => {
      if (text && text !== original) this.session.submit({ type: "update", collection: /** @type {string} */ (column.dataset.collectionId), title: text });
      title.focus();
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
    this.inlineEditor(title, "", (text) => {
      draft.remove();
      if (!text) return button.focus();
      const slug = text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "column";
      const id = `${slug}-${Math.random().toString(36).slice(2, 6)}`;
      this.session.submit({ type: "collection.add", collection: { id, title: text }, before: null });
      this.announcer.say(`Added the column ${text}.`);
      return undefined;
    }, "Column title…");
  }

  // MARK: The card menu

  /**
   * The card's menu, under `anchor` (its ⋯ button).
   * @param {HTMLElement} card
   * @param {Element} anchor
   */
  openMenu(card, anchor) {
    this.closeMenu();
    const menu = document.createElement("div");
    menu.className = "menu";
    menu.setAttribute("role", "menu");
    const here = /** @type {HTMLElement} */ (card.closest("section.column")).dataset.collectionId;
    /** @type {MenuEntry[]} */
    const entries = [
      ...(/** @type {Board} */ (this.session.board)).collections
        .filter((c) => c.id !== here)
        .map((c) => /** @type {MenuEntry} */ ([`Move to ${c.title}`, () => this.moveTo(card, c.id)])),
      ["Edit", () => this.editCard(card)],
      ["Delete", () => this.deleteCard(card)],
    ];
    for (const [text, action] of entries) {
      const item = document.createElement("button");
      item.type = "button";
      item.setAttribute("role", "menuitem");
      item.textContent = text;
      item.addEventListener("click", () => {
        this.closeMenu();
        action();
      });
      menu.append(item);
    }
    menu.addEventListener("keydown", (event) => {
      const items = [...menu.querySelectorAll("button")];
      const at = items.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      if (event.key === "ArrowDown") items[(at + 1) % items.length].focus();
      else if (event.key === "ArrowUp") items[(at - 1 + items.length) % items.length].focus();
      else if (event.key === "Escape") {
        this.closeMenu();
        card.focus();
      } else return;
      event.preventDefault();
      event.stopPropagation();
    });
    document.body.append(menu);
    const rect = anchor.getBoundingClientRect();
    menu.style.left = `${Math.min(rect.left, innerWidth - menu.offsetWidth - 8)}px`;
    menu.style.top = `${Math.min(rect.bottom + 4, innerHeight - menu.offsetHeight - 8)}px`;
    this.menu = menu;
    /** @type {HTMLElement} */ (menu.querySelector("button")).focus();
  }

  closeMenu() {
    this.menu?.remove();
    this.menu = null;
  }

  // MARK: Inline editing

  /**
   * Turns `element` into a plain-text editor. Enter (without Shift) or leaving the field
   * saves; Escape cancels (saves nothing). `done` gets the trimmed text ("" for cancel) and
   * how it ended: "enter", "blur" or "escape".
   * @param {HTMLElement} element
   * @param {string} text
   * @param {(text: string, how: EditEnd) => void} done
   * @param {string} [placeholder]
   */
  inlineEditor(element, text, done, placeholder = "") {
    element.contentEditable = "plaintext-only";
    element.textContent = text;
    element.dataset.placeholder = placeholder;
    element.classList.add("editing");
    element.focus();
    const range = document.createRange();
    range.selectNodeContents(element);
    // Null only in a frame that is not shown; this page is a top-level one.
    /** @type {Selection} */ (getSelection()).removeAllRanges();
    /** @type {Selection} */ (getSelection()).addRange(range);
    let finished = false;
    /**
     * @param {boolean} save
     * @param {EditEnd} how
     */
    const finish = (save, how) => {
      if (finished) return;
      finished = true;
      element.removeEventListener("keydown", onKey);
      element.removeEventListener("blur", onBlur);
      const value = save ? /** @type {string} */ (element.textContent).trim().slice(0, MAX_TEXT) : "";
      element.contentEditable = "false";
      element.removeAttribute("contenteditable");
      element.classList.remove("editing");
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
    const onBlur = () => finish(true, "blur");
    element.addEventListener("keydown", onKey);
    element.addEventListener("blur", onBlur);
  }
}
