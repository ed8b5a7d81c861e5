// @ts-check
// When someone deletes the card (or column) a person is writing in, or changes the label they
// are editing, their text must not vanish: a panel says what happened and keeps the text, to
// copy, to add back as a new card, or (a label another changed) to apply again. It stays
// until dismissed.

/** @typedef {import("../sdk/live.js").LiveBoard} LiveBoard */

export class LostEdit {
  /** @param {LiveBoard} session */
  constructor(session) {
    this.session = session;
    /** @type {HTMLElement | null} */
    this.panel = null;
  }

  /**
   * @param {{ what: string, text: string, column: string | null, message?: string, reapply?: () => void }} lost
   *   what was deleted (in words), the text written in it, and the column a new card can go to
   *   (null: none); or, for an edit that lost to another's, what happened (`message`) and how
   *   to apply the text after all (`reapply`)
   */
  show({ what, text, column, message: said, reapply }) {
    this.panel?.remove();
    const panel = document.createElement("section");
    panel.className = "lost-edit";
    panel.setAttribute("role", "alert");
    panel.setAttribute("aria-label", "Your unsaved text");
    const message = document.createElement("p");
    message.textContent = said ?? `${what} was deleted while you were editing it. Your text is kept here:`;
    const kept = document.createElement("textarea");
    kept.readOnly = true;
    kept.value = text;
    kept.rows = Math.min(6, text.split("\n").length + 1);
    const actions = document.createElement("div");
    actions.className = "lost-edit-actions";
    actions.append(
      this.button("Copy", async () => {
        kept.select();
        // The clipboard API needs a secure context; the selection is there to copy by hand.
        await navigator.clipboard?.writeText(text).catch(() => {});
      }),
    );
    if (reapply && this.session.canEdit) {
      actions.append(
        this.button("Use my text", () => {
          reapply();
          this.dismiss();
        }),
      );
    }
    if (column !== null && this.session.canEdit) {
      actions.append(
        this.button("Add as a new card", () => {
          this.session.insert([{ id: `card-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`, label: text }], { collection: column, before: null }).catch(() => {});
          this.dismiss();
        }),
      );
    }
    actions.append(this.button("Dismiss", () => this.dismiss()));
    panel.append(message, kept, actions);
    document.body.append(panel);
    this.panel = panel;
    kept.focus();
    kept.select();
  }

  dismiss() {
    this.panel?.remove();
    this.panel = null;
  }

  /**
   * @param {string} text
   * @param {() => void} action
   */
  button(text, action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "ghost-button";
    button.textContent = text;
    button.addEventListener("click", action);
    return button;
  }
}
