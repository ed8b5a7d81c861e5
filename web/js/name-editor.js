// @ts-check
// Your own name on the board: your chip in the people list opens a small dialog to change it.
// The name is kept in this browser (people.js) and the session joins again under it, so the
// others see it at once. Your colour is the one everyone's page derives from the name: the
// dialog shows it as you type. A token that names you wins over any name said here: the
// dialog then says so instead of offering a field.

import { colorFor, nameProblem, rememberName } from "./people.js";

/** @typedef {import("../sdk/live.js").LiveBoard} LiveBoard */

export class NameEditor {
  /**
   * @param {LiveBoard} session
   * @param {(name: string) => void} renamed told the new name once it is sent
   */
  constructor(session, renamed) {
    this.session = session;
    this.renamed = renamed;
    /** @type {HTMLDialogElement | null} */
    this.dialog = null;
  }

  /**
   * The name a token gave this connection, when the server says we are shown by another name
   * than the one we asked for; null when our own name is the one shown.
   * @returns {string | null}
   */
  tokenName() {
    const shown = this.session.me?.name;
    return this.session.token && shown && shown !== this.session.name ? shown : null;
  }

  /** @param {HTMLElement} opener the chip that opened it, focused again when it closes */
  open(opener) {
    this.dialog?.remove();
    const dialog = document.createElement("dialog");
    dialog.className = "dialog name-editor";
    dialog.setAttribute("aria-labelledby", "name-editor-title");
    const title = document.createElement("h2");
    title.id = "name-editor-title";
    title.className = "dialog-title";
    title.textContent = "Your name on this board";
    const form = document.createElement("form");
    form.method = "dialog";
    const actions = document.createElement("div");
    actions.className = "dialog-buttons";
    const fixed = this.tokenName();
    if (fixed !== null) {
      const why = document.createElement("p");
      why.textContent = `Your access token names you “${fixed}”: that is the name everyone sees, and it cannot be changed here.`;
      actions.append(this.button("Close", "submit"));
      form.append(why, actions);
    } else {
      const label = document.createElement("label");
      label.htmlFor = "name-editor-field";
      label.textContent = "Name";
      const row = document.createElement("div");
      row.className = "name-editor-row";
      const swatch = document.createElement("span");
      swatch.className = "name-editor-swatch";
      swatch.setAttribute("aria-hidden", "true");
      const field = document.createElement("input");
      field.id = "name-editor-field";
      field.name = "name";
      field.autocomplete = "nickname";
      field.value = this.session.name;
      field.setAttribute("aria-describedby", "name-editor-hint name-editor-problem");
      const hint = document.createElement("p");
      hint.id = "name-editor-hint";
      hint.className = "name-editor-hint";
      hint.textContent = "Everyone on the board sees it, in the colour beside it (the colour comes from the name).";
      const problem = document.createElement("p");
      problem.id = "name-editor-problem";
      problem.className = "name-editor-problem";
      problem.setAttribute("aria-live", "polite");
      const check = () => {
        const why = nameProblem(field.value);
        problem.textContent = why ?? "";
        field.setAttribute("aria-invalid", why ? "true" : "false");
        swatch.style.background = colorFor(field.value.trim() || "?");
        return why;
      };
      field.addEventListener("input", check);
      check();
      row.append(swatch, field);
      actions.append(this.button("Save", "submit"), this.button("Cancel", "button", () => dialog.close()));
      form.append(label, row, hint, problem, actions);
      form.addEventListener("submit", (event) => {
        if (check()) {
          event.preventDefault();
          field.focus();
          return;
        }
        const name = field.value.trim();
        if (name === this.session.name) return;
        rememberName(name);
        this.session.rename(name);
        this.renamed(name);
      });
    }
    dialog.append(title, form);
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (this.dialog === dialog) this.dialog = null;
      // The chip is drawn anew when the name changes: focus goes to the new one.
      /** @type {HTMLElement | null} */ (opener.isConnected ? opener : document.querySelector(".presence li.self button"))?.focus();
    });
    document.body.append(dialog);
    this.dialog = dialog;
    dialog.showModal();
    /** @type {HTMLElement | null} */ (dialog.querySelector("input") ?? dialog.querySelector("button"))?.focus();
  }

  /**
   * @param {string} text
   * @param {"submit" | "button"} type
   * @param {() => void} [action]
   */
  button(text, type, action) {
    const button = document.createElement("button");
    button.type = type;
    button.textContent = text;
    button.className = type === "submit" ? "primary-button" : "ghost-button";
    if (action) button.addEventListener("click", action);
    return button;
  }
}
