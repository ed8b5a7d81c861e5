// @ts-check
// "Ada is editing": the others' editing marks (docs/protocol.md#editing-marks) shown on the
// cards whose labels they are editing, as an outline in their colour and a badge that is part
// of the card's text, so a screen reader reads it with the card. Drawn again after every
// render (the view may have made the card anew) and every presence change.

import { colorFor } from "./people.js";

/** @typedef {import("../sdk/live.js").LiveBoard} LiveBoard */
/** @typedef {import("./view.js").BoardView} BoardView */

export class EditingMarks {
  /**
   * @param {BoardView} view
   * @param {LiveBoard} session
   */
  constructor(view, session) {
    this.view = view;
    this.session = session;
    /**
     * The cards marked now, and by whom ("client name"), to undo and to leave alone.
     * @type {Map<string, string>}
     */
    this.marked = new Map();
  }

  show() {
    /** @type {Map<string, { client: string, name: string }>} */
    const wanted = new Map();
    for (const mark of this.session.editors.values()) {
      if (this.view.cards.has(mark.item) && !wanted.has(mark.item)) wanted.set(mark.item, mark);
    }
    for (const [id, by] of this.marked) {
      const card = this.view.cards.get(id);
      const mark = wanted.get(id);
      if (card && mark && by === `${mark.client} ${mark.name}` && card.querySelector(".editing-badge")) continue;
      this.marked.delete(id);
      if (!card) continue;
      card.classList.remove("being-edited");
      card.style.removeProperty("--editor-color");
      card.querySelector(".editing-badge")?.remove();
    }
    for (const [id, mark] of wanted) {
      if (this.marked.has(id)) continue;
      const card = /** @type {HTMLElement} */ (this.view.cards.get(id));
      card.classList.add("being-edited");
      // A mark names its holder; the hue they chose is theirs among the peers.
      card.style.setProperty("--editor-color", colorFor(mark.name, this.session.peers.get(mark.client)?.hue ?? null));
      const badge = document.createElement("span");
      badge.className = "editing-badge";
      badge.textContent = `${mark.name} is editing`;
      card.append(badge);
      this.marked.set(id, `${mark.client} ${mark.name}`);
    }
  }
}
