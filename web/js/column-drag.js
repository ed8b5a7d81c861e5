// @ts-check
// Moving columns on the board page, on the SDK's drag engine (../sdk/drag-engine.js), as a
// second engine beside the cards' (board-drag.js): its one list is the board's columns, its
// items are the columns, picked up by the grip in their header (⠿, "Move the column Doing").
//
// Pointer: the mouse lifts the column once it moves, a finger after a press-and-hold; the
// column follows the pointer, a placeholder opens among the columns where it would land, and
// the board scrolls near its edges. Keyboard, on the focused grip: Space or Enter picks the
// column up, ←/→ carry it a place, Home/End to either end, Space or Enter drops it, Escape
// puts it back; each step is said in the live region. A drop is one `collection.move` by
// anchor (the column it lands before, or the end), shown at once and undoable.
//
// Others see the drag in progress (docs/protocol.md#6-presence-drag-state): the pick-up is a
// `drag.start` of the column, each placeholder move a `drag.over` among the columns, the drop
// the `collection.move` (a drop in place or a cancel, a `drag.end`). A column someone else
// holds is not picked up here (remote-columns.js shows it held).

import { DragEngine } from "../sdk/drag-engine.js";

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {import("../sdk/drag-engine.js").Drag} Drag */
/** @typedef {import("../sdk/drag-aim.js").DragPlace} DragPlace */

/** The engine's one list: the board's columns. */
const COLUMNS = "columns";

export class ColumnDrag {
  /** @param {PageParts} parts */
  constructor({ session, view, announcer, notices }) {
    this.session = session;
    this.view = view;
    this.announcer = announcer;
    this.notices = notices;
    const placeholder = document.createElement("div");
    placeholder.className = "column-placeholder";
    placeholder.setAttribute("aria-hidden", "true");
    /** @type {DragEngine} */
    this.engine = new DragEngine(view.root, {
      placeholder,
      look: {
        carried: "column-lifted",
        keyboard: "column-keyboard-lifted",
        avatar: "column-avatar",
        willCancel: "will-cancel",
        bodyDragging: "dragging-column",
        avatarTransform: "rotate(1deg)",
        // A long column flies with its first cards only: a copy of a thousand would cost more
        // than the drag.
        dressAvatar: (avatar) => {
          const list = avatar.querySelector("ol.cards");
          if (list) list.replaceChildren(...[...list.children].filter((c) => c.matches("li.card")).slice(0, 6));
          avatar.querySelector(".column-adders")?.remove();
        },
      },
      host: {
        pressable: (target) => {
          const grip = /** @type {HTMLElement | null} */ (target.closest(".column-grip"));
          const column = /** @type {HTMLElement | null | undefined} */ (grip?.closest("section.column"));
          if (!column?.dataset.collectionId) return null;
          // A finger holds the grip a moment first: a swipe there still scrolls the board.
          return { element: column, id: column.dataset.collectionId, handle: false };
        },
        keyItem: (element) => this.keyItem(element),
        carried: (id) => [id],
        refusal: ([id]) => {
          if (!this.session.canEdit) return this.session.readOnlyReason ?? "The board is not loaded yet.";
          const holder = this.session.columnHolderOf(id);
          return holder ? `${holder.name} is moving the column ${this.titleOf(id)}.` : null;
        },
        placeOf: (id) => {
          const index = this.ids().indexOf(id);
          return index < 0 ? null : { list: COLUMNS, index };
        },
        elementOf: (id) => view.columns.get(id)?.element ?? null,
        slotAt: (x, y, carried) => this.slotAt(x, y, carried),
        nodeAt: (place, carried) => {
          if (place.list !== COLUMNS) return null;
          const next = this.ids().filter((id) => !carried.has(id))[place.index];
          const node = next === undefined ? view.addColumnButton : (view.columns.get(next)?.element ?? null);
          return { parent: view.root, next: node?.parentNode === view.root ? node : null };
        },
        scrollersAt: () => /** @type {Element[]} */ ([view.root, document.scrollingElement].filter(Boolean)),
        lists: {
          count: () => this.ids().length - 1,
          neighbour: () => null,
        },
      },
      on: {
        refused: (text, mode) => {
          this.notices.show(text);
          if (mode === "keyboard") this.announcer.say(text);
        },
        pickUp: (drag) => this.pickedUp(drag),
        over: (drag) => {
          if (drag.place) this.session.columnDragOver(drag.place.index);
          if (drag.mode === "keyboard") this.announcer.say(this.placeInWords(drag));
        },
        still: (drag) => this.announcer.say(`${this.placeInWords(drag)}. It cannot go further.`),
        drop: (drag) => this.dropped(drag),
        cancel: (drag, reason) => this.cancelled(drag, reason),
        // Found by a render (the column removed, or the board locked): the columns are put
        // back once that render is over, not inside it.
        interrupt: (drag, why) => {
          this.session.endDrag();
          queueMicrotask(() => this.putBack(drag));
          const text = why ?? "The column you were moving was removed.";
          this.notices.show(text);
          this.announcer.say(text);
        },
      },
    });
  }

  get active() {
    return this.engine.active;
  }

  /** The columns' ids in the board's order. */
  ids() {
    return this.session.board?.collections.map((c) => c.id) ?? [];
  }

  /**
   * The column a key on `element` is for: its grip, or (while carried by keyboard, when the
   * engine keeps the focus on it) the column itself.
   * @param {HTMLElement} element
   * @returns {string | null}
   */
  keyItem(element) {
    const column = /** @type {HTMLElement | null} */ (element.closest("section.column"));
    const id = column?.dataset.collectionId ?? null;
    if (element.matches(".column-grip")) return id;
    return element === column && this.engine.drag?.id === id ? id : null;
  }

  /**
   * Where a release at (x, y) lands: over the board, before the first column whose middle is
   * right of x (or at the end).
   * @param {number} x
   * @param {number} y
   * @param {Set<string>} carried
   * @returns {import("../sdk/drag-aim.js").DragSlot | null}
   */
  slotAt(x, y, carried) {
    const box = this.view.root.getBoundingClientRect();
    if (x < box.left || x > box.right || y < box.top || y > box.bottom) return null;
    const others = this.ids().filter((id) => !carried.has(id));
    let index = 0;
    for (const id of others) {
      const rect = this.view.columns.get(id)?.element.getBoundingClientRect();
      if (!rect || x < rect.left + rect.width / 2) break;
      index += 1;
    }
    return { list: COLUMNS, index };
  }

  /** @param {Drag} drag */
  pickedUp(drag) {
    // The others see it held, with its placeholder where it was.
    this.session.startColumnDrag([drag.id]);
    if (drag.place) this.session.columnDragOver(drag.place.index);
    const title = this.titleOf(drag.id);
    if (drag.mode === "pointer") return this.announcer.say(`Picked up the column ${title}.`);
    // The key came from the grip, which the engine marked; the column itself is what moves,
    // and the engine keeps the focus on it (moving the focused grip along would blur it).
    const column = /** @type {HTMLElement} */ (this.view.columns.get(drag.id)?.element);
    drag.element.classList.remove("column-keyboard-lifted");
    drag.element = column;
    column.classList.add("column-keyboard-lifted");
    column.tabIndex = -1;
    column.setAttribute("aria-label", `Column ${title}, being moved`);
    column.focus();
    this.announcer.say(`Picked up the column ${title}. ${this.placeInWords(drag)}. Left and Right arrows move it, Space drops it, Escape cancels.`);
    return undefined;
  }

  /**
   * "Position 2 of 4": where the column in hand (or just dropped) is.
   * @param {Drag} drag
   */
  placeInWords(drag) {
    const place = /** @type {DragPlace} */ (drag.place);
    return `Position ${place.index + 1} of ${this.ids().length}`;
  }

  /**
   * A release or a key that drops: one `collection.move` before the column now after the
   * place (null: the end), unless the column is back where it was.
   * @param {Drag} drag
   */
  dropped(drag) {
    const place = /** @type {DragPlace} */ (drag.place);
    const title = this.titleOf(drag.id);
    const ids = this.ids();
    const others = ids.filter((id) => id !== drag.id);
    const before = others[place.index] ?? null;
    const where = this.placeInWords(drag);
    this.putBack(drag);
    if ((ids[ids.indexOf(drag.id) + 1] ?? null) === before) {
      this.session.endDrag();
      this.announcer.say(`Move ended where it began. The column ${title} is back in place.`);
      return;
    }
    this.session.moveCollections([drag.id], before);
    this.announcer.say(`Dropped the column ${title}. ${where}.`);
  }

  /**
   * @param {Drag} drag
   * @param {import("../sdk/drag-engine.js").CancelReason} reason
   */
  cancelled(drag, reason) {
    this.session.endDrag();
    this.putBack(drag);
    const title = this.titleOf(drag.id);
    this.announcer.say(`Move cancelled. The column ${title} is back in place.`);
    if (reason === "off the lists") this.notices.show(`Released away from the board: the column ${title} stayed where it was.`);
  }

  /**
   * After a drag: the columns in the board's order again (a keyboard drag moved the column's
   * element itself), and the focus back on its grip.
   * @param {Drag} drag
   */
  putBack(drag) {
    const column = this.view.columns.get(drag.id);
    if (drag.mode === "keyboard" && column) {
      column.element.removeAttribute("tabindex");
      column.element.removeAttribute("aria-label");
    }
    // The next render puts every column where the board has it.
    this.view.columnOrder = [];
    this.session.refresh("local");
    if (drag.mode === "keyboard") column?.grip.focus();
  }

  /** @param {string} id */
  titleOf(id) {
    return this.session.board?.collections.find((c) => c.id === id)?.title ?? "";
  }

  /**
   * The server refused our `drag.start` (someone else took the column first, or the rates):
   * the column goes back. False when no column was in hand.
   * @param {string | undefined} holderName
   */
  refused(holderName) {
    const drag = this.engine.drag;
    if (!drag || !this.engine.abort()) return false;
    this.putBack(drag);
    this.notices.show(`${holderName ?? "Someone"} is moving the column ${this.titleOf(drag.id)}.`);
    return true;
  }

  /** The server let go of our drag (held too long): the column goes back. False when none was in hand. */
  letGo() {
    const drag = this.engine.drag;
    if (!drag || !this.engine.abort()) return false;
    this.putBack(drag);
    return true;
  }

  /** After a render (someone else's change): the placeholder, or the column carried by keyboard, back in place. */
  restore() {
    this.engine.restore();
  }
}
