// @ts-check
// Your own name and colour on the board: your chip in the people list opens a small dialog to
// change them. Both are kept in this browser (people.js) and the session joins again with them,
// so the others see them at once. The colour is "From my name" (the one everyone's page derives
// from the name, shown as you type) or one of a dozen hues, a native radio group of swatches
// (arrow keys move through it, each read by its name); only the hue travels
// (docs/protocol.md#colours). A token that names you wins over any name said here: the dialog
// then says so instead of offering a field (the colour stays yours to choose).

import { HUE_CHOICES, colorFor, nameProblem, rememberHue, rememberName } from "./people.js";

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
      hint.textContent = "Everyone on the board sees it, in the colour beside it.";
      const problem = document.createElement("p");
      problem.id = "name-editor-problem";
      problem.className = "name-editor-problem";
      problem.setAttribute("aria-live", "polite");
      const check = () => {
        const why = nameProblem(field.value);
        problem.textContent = why ?? "";
        field.setAttribute("aria-invalid", why ? "true" : "false");
        const typed = field.value.trim() || "?";
        swatch.style.background = colorFor(typed, colours.chosen());
        colours.fromName.style.setProperty("--swatch", colorFor(typed));
        return why;
      };
      const colours = this.colourChoice(() => check());
      field.addEventListener("input", check);
      check();
      row.append(swatch, field);
      actions.append(this.button("Save", "submit"), this.button("Cancel", "button", () => dialog.close()));
      form.append(label, row, hint, problem, colours.fieldset, actions);
      form.addEventListener("submit", (event) => {
        if (check()) {
          event.preventDefault();
          field.focus();
          return;
        }
        const name = field.value.trim();
        const hue = colours.chosen();
        if (name === this.session.name && hue === this.session.hue) return;
        rememberName(name);
        rememberHue(hue);
        this.session.rename(name, hue);
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
   * The colour's radio group: "From my name" first, then the hues, the session's own checked.
   * @param {() => void} changed told when another is checked
   * @returns {{ fieldset: HTMLFieldSetElement, fromName: HTMLInputElement, chosen: () => number | null }}
   */
  colourChoice(changed) {
    const fieldset = document.createElement("fieldset");
    fieldset.className = "name-editor-colours";
    const legend = document.createElement("legend");
    legend.textContent = "Colour";
    fieldset.append(legend);
    /**
     * @param {string} value "name" or the hue
     * @param {string} text what it is read as
     * @param {string} colour
     */
    const option = (value, text, colour) => {
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "colour";
      input.value = value;
      input.className = "colour-swatch";
      input.style.setProperty("--swatch", colour);
      input.setAttribute("aria-label", text);
      input.title = text;
      input.checked = value === (this.session.hue === null ? "name" : String(this.session.hue));
      input.addEventListener("change", changed);
      return input;
    };
    const fromName = option("name", "From my name", colorFor(this.session.name));
    const fromNameLabel = document.createElement("label");
    fromNameLabel.className = "colour-from-name";
    fromNameLabel.append(fromName, " From my name");
    // The label's text names it: no second name for a screen reader.
    fromName.removeAttribute("aria-label");
    const hues = document.createElement("div");
    hues.className = "colour-swatches";
    for (const { hue, label } of HUE_CHOICES) hues.append(option(String(hue), label, colorFor("", hue)));
    fieldset.append(fromNameLabel, hues);
    const chosen = () => {
      const checked = /** @type {HTMLInputElement | null} */ (fieldset.querySelector("input:checked"));
      return !checked || checked.value === "name" ? null : Number(checked.value);
    };
    return { fieldset, fromName, chosen };
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
