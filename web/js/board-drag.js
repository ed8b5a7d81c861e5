// @ts-check
// Moving cards on the board page, by pointer (mouse, pen, and a finger after a press-and-hold)
// and by keyboard, on the SDK's drag engine (../sdk/drag-engine.js). This file is the board's
// side of it: which element is a card, where a point lands (a column, an open folder's list,
// a long column's window: the view knows), where a place is drawn, and what the page does
// with the engine's callbacks: presence (drag.start / drag.over, throttled by the session /
// drag.end), a move by anchor, the selection carried along, the flight home, announcements.
//
// Pointer: the card lifts and follows the pointer, a placeholder opens where it would land and
// the other cards glide out of its way; the board (and a column's list, and the page) scrolls
// near its edges. Escape, or a release outside the board, cancels; a drop or a cancel flies the
// card from where it was let go into its slot. Over a closed folder that takes the cards the
// placeholder stays where it is (the folder is not pushed from under the pointer); held there
// for the engine's dwell the folder is marked `drop-into` and a release puts the cards at its end.
//
// Keyboard: Space picks the focused card up, the arrows carry it (up and down in its list,
// left and right across columns: from a folder, to the columns beside its outermost folder's),
// Space or Enter drops it, Escape puts it back. Every step is announced.

import { DragEngine } from "../sdk/drag-engine.js";
import { anchorAt, enclosingFolders, findCollection, findItem, orderedItemIds } from "../sdk/replica.js";
import { listName, mayGoInto } from "./folders.js";
import { prefersReducedMotion } from "./view.js";

const SETTLE_MS = 200;

/** @typedef {import("./board-page.js").PageParts} PageParts */
/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {import("../sdk/drag-engine.js").Drag} Drag */
/** @typedef {import("../sdk/drag-aim.js").DragPlace} DragPlace */

// A drag begins only when the session has a board (`canEdit`); it never loses it: the casts
// of `session.board` below say so.

export class BoardDrag {
  /** @param {PageParts} parts */
  constructor({ session, view, announcer, notices, describe }) {
    this.session = session;
    this.view = view;
    this.announcer = announcer;
    this.notices = notices;
    this.describe = describe;
    const placeholder = document.createElement("li");
    placeholder.className = "placeholder";
    placeholder.setAttribute("aria-hidden", "true");
    this.placeholder = placeholder;
    /** @type {DragEngine} */
    this.engine = new DragEngine(view.root, {
      placeholder,
      pickUpKeys: [" "], // Enter edits the card
      across: true,
      listenToKeys: false, // board-page.js hands the keys of cards over (`key`)
      look: {
        pressing: "pressing",
        carried: "lifted",
        keyboard: "keyboard-lifted",
        avatar: "drag-avatar",
        willCancel: "will-cancel",
        into: "drop-into",
        landing: "landing",
        bodyDragging: "dragging",
        avatarTransform: "rotate(2deg)",
        hideCarried: false, // board.css hides `.lifted`
        dressAvatar: (avatar) => {
          avatar.classList.remove("selected", "lifted", "pressing");
          avatar.removeAttribute("data-item-id");
          // An open folder flies without its cards: they are not what the person took hold
          // of, and copies with their ids would be found as the cards themselves.
          avatar.querySelector(".folder-cards")?.remove();
        },
        animate: (change, parents) => view.animateChange(change, /** @type {HTMLElement[]} */ (parents.filter((p) => p instanceof HTMLElement))),
        land: (avatar, drag) => this.settle(avatar, drag.ids, drag.into !== null && !this.view.cards.get(drag.ids[0])?.isConnected ? drag.into : drag.ids[0]),
      },
      host: {
        pressable: (target, event) => this.pressable(target, event),
        keyItem: (element) => (element.matches("li.card") && element.dataset.itemId ? element.dataset.itemId : null),
        carried: (id, mode) => (mode === "pointer" && view.selected.has(id) ? this.selectionInBoardOrder() : [id]),
        refusal: (ids) => {
          if (!session.canEdit) return session.readOnlyReason ?? "The board is not loaded yet.";
          const holder = ids.map((id) => session.holderOf(id)).find(Boolean);
          return holder ? `${holder.name} is holding this card.` : null;
        },
        placeOf: (id) => {
          const found = session.board && findItem(session.board, id);
          return found ? { list: found.collection.id, index: found.index } : null;
        },
        elementOf: (id) => view.cards.get(id) ?? null,
        slotAt: (x, y, carried) => this.slotAt(x, y, carried),
        nodeAt: (place, carried) => {
          const list = view.listElements(place.list);
          return list ? { parent: list.list, next: view.slotNode(place.list, place.index, carried) } : null;
        },
        // The column's list under the pointer, the board, and the page when it scrolls itself.
        scrollersAt: (x, y) => /** @type {Element[]} */ ([view.columnAt(x, y)?.column.list, view.root, document.scrollingElement].filter(Boolean)),
        // The board sideways no further than its last column (with the board's own padding
        // after it): the room beyond, where the "+ Add a column" button is, takes no drop.
        scrollEnd: (scroller) => {
          if (scroller !== view.root) return null;
          const columns = view.root.querySelectorAll(":scope > section.column");
          const last = columns[columns.length - 1];
          if (!last) return null;
          const padding = parseFloat(getComputedStyle(view.root).paddingRight) || 0;
          const right = last.getBoundingClientRect().right - view.root.getBoundingClientRect().left + view.root.scrollLeft;
          return { left: Math.max(0, Math.ceil(right + padding - view.root.clientWidth)) };
        },
        lists: {
          count: (list) => {
            /** @type {Set<string>} */
            const carried = new Set(this.engine.drag?.ids ?? []);
            return (findCollection(/** @type {Board} */ (session.board), list)?.items ?? []).filter((i) => !carried.has(i.id)).length;
          },
          neighbour: (list, delta) => this.columnBeside(list, delta),
        },
      },
      on: {
        refused: (text, mode) => {
          this.notices.show(text);
          if (mode === "keyboard") this.announcer.say(text);
        },
        pickUp: (drag) => this.pickedUp(drag),
        over: (drag) => this.over(drag),
        still: () => this.announcer.say(`${this.position()}. It cannot go further.`),
        drop: (drag) => this.dropped(drag),
        cancel: (drag, reason) => this.cancelled(drag, reason),
        // Found by a render, which already drew the board as it is.
        interrupt: (_drag, why) => {
          document.body.classList.remove("dropping-into");
          // A carried card deleted meanwhile: the server clears the drag itself (`deleted`).
          if (why !== null) session.endDrag();
          this.notices.show(why ?? "The card you were moving was deleted.");
        },
      },
    });
  }

  get active() {
    return this.engine.active;
  }

  /**
   * The card a press on `target` picks up. A press on a card's link is the link's (a click
   * opens it; dragging it carries the URL), one on its grip the browser's (a drag out of the
   * page, drag-out.js), and a Shift, Ctrl or ⌘ click the selection's.
   * @param {Element} target
   * @param {PointerEvent} event
   */
  pressable(target, event) {
    const card = /** @type {HTMLElement | null} */ (target.closest("li.card"));
    if (!card || !card.dataset.itemId || target.closest("button, textarea, input, a[href], [contenteditable=true], [draggable=true]")) return null;
    if (event.shiftKey || event.ctrlKey || event.metaKey) return null;
    return { element: card, id: card.dataset.itemId, handle: false };
  }

  /** The selected cards in board order (the order they land in). */
  selectionInBoardOrder() {
    return orderedItemIds(/** @type {Board} */ (this.session.board)).filter((id) => this.view.selected.has(id));
  }

  /**
   * Where a release at (x, y) lands: on the board only. Over a closed folder's card that
   * takes the cards, `into` is that folder and the place is the one after it (so coming from
   * another list, the placeholder opens below the folder and leaves it under the pointer).
   * @param {number} x
   * @param {number} y
   * @param {Set<string>} carried
   * @returns {import("../sdk/drag-aim.js").DragSlot | null}
   */
  slotAt(x, y, carried) {
    const boardRect = this.view.root.getBoundingClientRect();
    if (x < boardRect.left || x > boardRect.right || y < boardRect.top || y > boardRect.bottom) return null;
    const board = /** @type {Board} */ (this.session.board);
    const ids = [...carried];
    const slot = this.view.slotAt(x, y, carried, (id) => mayGoInto(board, id, ids));
    if (!slot) return null;
    const into = slot.onFolder && mayGoInto(board, slot.onFolder, ids) ? slot.onFolder : null;
    if (!into) return { list: slot.collection, index: slot.index };
    const rest = (findCollection(board, slot.collection)?.items ?? []).filter((i) => !carried.has(i.id));
    return { list: slot.collection, index: rest.findIndex((i) => i.id === into) + 1, into };
  }

  /**
   * The column `delta` columns away from the one `list` is in (from a folder, the column of
   * its outermost folder); null past either end.
   * @param {string} list
   * @param {number} delta
   */
  columnBeside(list, delta) {
    const board = /** @type {Board} */ (this.session.board);
    const outermost = enclosingFolders(board, list).at(-1);
    const home = outermost ? findItem(board, outermost)?.collection.id : list;
    return board.collections[board.collections.findIndex((c) => c.id === home) + delta]?.id ?? null;
  }

  /** @param {Drag} drag */
  pickedUp(drag) {
    this.session.startDrag(drag.ids);
    this.session.dragOver(drag.origin.list, drag.origin.index);
    if (drag.mode === "pointer") this.announcer.say(`Picked up ${this.describe(drag.ids)}.`);
    else this.announcer.say(`Picked up ${this.describe(drag.ids)}. ${this.position()}. Arrow keys move it, Space drops it, Escape cancels.`);
  }

  /**
   * The drag's place, or the folder it goes into, changed: the others see it there.
   * @param {Drag} drag
   */
  over(drag) {
    const board = /** @type {Board} */ (this.session.board);
    document.body.classList.toggle("dropping-into", drag.into !== null);
    if (drag.into !== null) {
      const inside = (findCollection(board, drag.into)?.items ?? []).filter((i) => !drag.ids.includes(i.id)).length;
      this.session.dragOver(drag.into, inside);
      this.announcer.say(`Release to put ${this.describe(drag.ids)} into ${listName(board, drag.into)}.`);
      return;
    }
    if (!drag.place) return;
    this.session.dragOver(drag.place.list, drag.place.index);
    if (drag.mode === "keyboard") {
      // A card carried by keyboard moved in the DOM: the next render checks every card.
      this.view.displaced();
      this.announcer.say(this.position());
    }
  }

  /** Where the card in hand is, in words: "Position 2 of 5 in Doing". */
  position() {
    return this.placeInWords(/** @type {Drag} */ (this.engine.drag));
  }

  /**
   * A release or a key that drops: one move by anchor (or into a folder's end), in the
   * engine's change, so the placeholder going and the cards arriving glide together.
   * @param {Drag} drag
   */
  dropped(drag) {
    const board = /** @type {Board} */ (this.session.board);
    const { ids, into } = drag;
    document.body.classList.remove("dropping-into");
    if (into !== null) {
      this.session.move(ids, { collection: into, before: null });
      this.view.selected.clear();
      this.announcer.say(`Dropped ${this.describe(ids)} into ${listName(board, into)}.`);
      return;
    }
    const place = /** @type {DragPlace} */ (drag.place);
    const before = anchorAt(board, place.list, place.index, new Set(ids));
    // A finger that held a card and let go without moving it (or a card put back where it
    // was) changes nothing: no move to send.
    if (ids.length === 1 && staysPut(board, ids[0], place.list, before)) {
      this.session.endDrag();
      if (drag.mode === "keyboard") this.session.refresh("local");
      this.view.cards.get(ids[0])?.focus({ preventScroll: true });
      this.announcer.say(`Move ended where it began. ${this.describe(ids)} is back in place.`);
      return;
    }
    const where = drag.mode === "keyboard" ? this.placeInWords(drag) : "";
    this.session.move(ids, { collection: place.list, before });
    this.view.selected.clear();
    if (drag.mode === "keyboard") {
      this.view.cards.get(ids[0])?.focus();
      this.announcer.say(`Dropped ${this.describe(ids)}. ${where}.`);
    } else {
      this.announcer.say(`Dropped ${this.describe(ids)} in ${listName(board, place.list)}, position ${place.index + 1}.`);
    }
  }

  /**
   * "Position 2 of 5 in Doing": where `drag` (carried, or just ended) is.
   * @param {Drag} drag
   */
  placeInWords(drag) {
    const place = /** @type {DragPlace} */ (drag.place);
    const board = /** @type {Board} */ (this.session.board);
    const count = (findCollection(board, place.list)?.items ?? []).filter((i) => !drag.ids.includes(i.id)).length + 1;
    return `Position ${place.index + 1} of ${count} in ${listName(board, place.list)}`;
  }

  /**
   * @param {Drag} drag
   * @param {import("../sdk/drag-engine.js").CancelReason} reason
   */
  cancelled(drag, reason) {
    document.body.classList.remove("dropping-into");
    this.session.endDrag();
    if (drag.mode === "keyboard") {
      this.session.refresh("local"); // back where the board has it
      if (reason !== "tab") this.view.cards.get(drag.id)?.focus();
    }
    const how = {
      "off the lists": "cancelled: released away from the columns",
      "list gone": "cancelled: the column was removed",
    }[/** @type {string} */ (reason)] ?? "cancelled";
    this.announcer.say(`Move ${how}. ${this.describe(drag.ids)} is back in place.`);
    // Not silently: on a phone a finger let go between two columns looks like a drop.
    if (reason === "off the lists") this.notices.show(`Released away from the columns: ${this.describe(drag.ids)} stayed where it was.`);
  }

  /**
   * The server refused our drag.start (someone got there first).
   * @param {string | undefined} holderName
   */
  refused(holderName) {
    const drag = this.engine.drag;
    if (!drag || !this.engine.abort()) return;
    this.afterAbort(drag);
    this.notices.show(`${holderName ?? "Someone"} is holding this card.`);
  }

  /** The server let go of our drag (held too long): it ends here too, without a drop. False when there was none. */
  letGo() {
    const drag = this.engine.drag;
    if (!drag || !this.engine.abort()) return false;
    this.afterAbort(drag);
    return true;
  }

  /** @param {Drag} drag */
  afterAbort(drag) {
    document.body.classList.remove("dropping-into");
    if (drag.mode !== "keyboard") return;
    this.session.refresh("local");
    this.view.cards.get(drag.id)?.focus();
  }

  /** After a render (someone else's change): the carried cards' marks and the placeholder back in place. */
  restore() {
    this.engine.restore();
  }

  /**
   * A key on a focused card: true when it was the drag's (the page then prevents its default).
   * @param {KeyboardEvent} event
   * @param {HTMLElement} card
   */
  key(event, card) {
    return this.engine.key(event, card);
  }

  /**
   * The avatar flies from where it was let go to the card's place on the board, above the
   * columns (it is fixed on the body, so no column's scroll box clips it); then the cards
   * show. At once when the person asked for less motion or the card is gone.
   * @param {HTMLElement} avatar
   * @param {string[]} items
   * @param {string} home the card it flies to and the focus goes to: the first of `items`, or
   *   the folder they went into when they are not drawn (it is closed)
   */
  settle(avatar, items, home) {
    const land = () => {
      avatar.remove();
      for (const id of items) this.view.cards.get(id)?.classList.remove("landing");
      // Focus goes to the card once it shows (a hidden card takes no focus), unless the
      // person has moved it elsewhere meanwhile: keyboard use goes on from the card.
      if (document.activeElement === null || document.activeElement === document.body) {
        this.view.cards.get(home)?.focus({ preventScroll: true });
      }
    };
    const card = this.view.cards.get(home);
    if (!card || !card.isConnected || prefersReducedMotion()) return land();
    const to = card.getBoundingClientRect();
    avatar.classList.remove("will-cancel");
    avatar.classList.add("settling");
    const flight = avatar.animate(
      [{ transform: avatar.style.transform }, { transform: `translate(${to.left}px, ${to.top}px) rotate(0deg)` }],
      { duration: SETTLE_MS, easing: "cubic-bezier(0.2, 0, 0, 1)", fill: "forwards" },
    );
    flight.addEventListener("finish", land);
    flight.addEventListener("cancel", land);
    return undefined;
  }
}

/**
 * Whether `item` is already in `collection` right before `before` (null: at its end).
 * @param {Board} board
 * @param {string} item
 * @param {string} collection
 * @param {string | null} before
 */
function staysPut(board, item, collection, before) {
  const items = findCollection(board, collection)?.items ?? [];
  const at = items.findIndex((i) => i.id === item);
  return at >= 0 && (items[at + 1]?.id ?? null) === before;
}
