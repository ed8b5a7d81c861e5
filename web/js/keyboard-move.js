// @ts-check
// Moving cards without a pointer: Space picks the focused card up, the arrow keys carry it
// (up and down in its column, left and right across columns), Space drops it and Escape
// puts it back. Every step is announced through the live region; presence goes to the
// server like a pointer drag's, so others see the placeholder move too.

import { anchorAt } from "./replica.js";

export class KeyboardMove {
  constructor({ session, view, announcer, notices, describe }) {
    this.session = session;
    this.view = view;
    this.announcer = announcer;
    this.notices = notices;
    this.describe = describe;
    this.lift = null;
  }

  get active() {
    return this.lift !== null;
  }

  /** Handles a key on a focused card; returns true when it was ours. */
  handle(event, card) {
    const id = card.dataset.itemId;
    if (this.lift) {
      switch (event.key) {
        case " ":
        case "Enter":
          this.drop();
          return true;
        case "Escape":
          this.cancel();
          return true;
        case "ArrowUp":
          return this.step(0, -1);
        case "ArrowDown":
          return this.step(0, 1);
        case "ArrowLeft":
          return this.step(-1, 0);
        case "ArrowRight":
          return this.step(1, 0);
        case "Tab":
          this.cancel();
          return false;
        default:
          return true; // nothing else while a card is in hand
      }
    }
    if (event.key === " ") {
      this.pickUp(id);
      return true;
    }
    return false;
  }

  pickUp(id) {
    if (!this.session.canEdit) {
      this.notices.show(this.session.readOnlyReason ?? "The board is not loaded yet.");
      return;
    }
    const holder = this.session.holderOf(id);
    if (holder) {
      this.notices.show(`${holder.name} is holding this card.`);
      this.announcer.say(`${holder.name} is holding this card.`);
      return;
    }
    const collection = this.session.board.collections.find((c) => c.items.some((i) => i.id === id));
    const index = collection.items.findIndex((i) => i.id === id);
    this.lift = { items: [id], collection: collection.id, index };
    this.session.dragStart([id]);
    this.session.dragOver(collection.id, index);
    this.card()?.classList.add("lifted", "keyboard-lifted");
    this.announcer.say(
      `Picked up ${this.describe([id])}. ${this.position()}. Arrow keys move it, Space drops it, Escape cancels.`,
    );
  }

  card() {
    return this.lift ? this.view.cards.get(this.lift.items[0]) : null;
  }

  /** Moves the card in hand one place (dy) or one column (dx). */
  step(dx, dy) {
    const columns = this.session.board.collections;
    let columnIndex = columns.findIndex((c) => c.id === this.lift.collection);
    const excluded = new Set(this.lift.items);
    let index = this.lift.index;
    if (dx !== 0) {
      columnIndex = Math.max(0, Math.min(columns.length - 1, columnIndex + dx));
      const count = columns[columnIndex].items.filter((i) => !excluded.has(i.id)).length;
      index = Math.min(index, count);
    } else {
      const count = columns[columnIndex].items.filter((i) => !excluded.has(i.id)).length;
      index = Math.max(0, Math.min(count, index + dy));
    }
    const collection = columns[columnIndex].id;
    if (collection === this.lift.collection && index === this.lift.index) {
      this.announcer.say(`${this.position()}. It cannot go further.`);
      return true;
    }
    this.lift.collection = collection;
    this.lift.index = index;
    this.view.animateChange(() => this.place());
    this.session.dragOver(collection, index);
    this.announcer.say(this.position());
    return true;
  }

  /** Shows the card in hand at its current place (also after a render). */
  place() {
    const card = this.card();
    const column = this.lift && this.view.columns.get(this.lift.collection);
    if (!card || !column) return;
    const rest = this.view.visibleCards(this.lift.collection, new Set(this.lift.items));
    column.list.insertBefore(card, rest[this.lift.index] ?? null);
    card.classList.add("lifted", "keyboard-lifted");
    card.focus({ preventScroll: false });
  }

  restore() {
    if (!this.lift) return;
    if (!this.card()) {
      this.lift = null;
      this.notices.show("The card you were moving was deleted.");
      return;
    }
    if (!this.view.columns.has(this.lift.collection)) return this.cancel();
    this.place();
    return undefined;
  }

  position() {
    const collection = this.session.board.collections.find((c) => c.id === this.lift.collection);
    const count = collection.items.filter((i) => !this.lift.items.includes(i.id)).length + 1;
    return `Position ${this.lift.index + 1} of ${count} in ${collection.title}`;
  }

  drop() {
    const { items, collection, index } = this.lift;
    const before = anchorAt(this.session.board, collection, index, new Set(items));
    const where = this.position();
    this.end();
    this.session.move(items, { collection, before });
    this.view.cards.get(items[0])?.focus();
    this.announcer.say(`Dropped ${this.describe(items)}. ${where}.`);
  }

  cancel() {
    const { items } = this.lift;
    this.end();
    this.session.dragEnd();
    // Back where the board has it.
    this.session.refresh("local");
    this.view.cards.get(items[0])?.focus();
    this.announcer.say(`Move cancelled. ${this.describe(items)} is back in place.`);
  }

  /** The server refused our drag.start. */
  refused(holderName) {
    if (!this.lift) return;
    const { items } = this.lift;
    this.end();
    this.session.refresh("local");
    this.view.cards.get(items[0])?.focus();
    this.notices.show(`${holderName ?? "Someone"} is holding this card.`);
  }

  /** The server let go of our drag (held too long): the card goes back. False when none was in hand. */
  letGo() {
    if (!this.lift) return false;
    const { items } = this.lift;
    this.end();
    this.session.refresh("local");
    this.view.cards.get(items[0])?.focus();
    return true;
  }

  end() {
    this.card()?.classList.remove("lifted", "keyboard-lifted");
    this.lift = null;
  }
}
