// @ts-check
// What the page tells people: short visible notices (a refused operation and why) and
// announcements for screen readers through an aria-live region.

const NOTICE_MS = 4000;
/** Long enough to read the notice and reach its Undo button. */
const NOTICE_WITH_ACTION_MS = 8000;

export class Notices {
  /** @param {HTMLElement} element */
  constructor(element) {
    this.element = element;
    /** @type {number | null} */
    this.timer = null;
  }

  /**
   * @param {string} text
   * @param {{ label: string, run: () => void }} [action] a button after the text (Undo): the
   *   notice then stays longer, and while the pointer or the focus is on it
   */
  show(text, action) {
    clearTimeout(/** @type {number | undefined} */ (this.timer));
    this.element.textContent = text;
    if (action) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "notice-action";
      button.textContent = action.label;
      button.addEventListener("click", () => {
        this.element.hidden = true;
        action.run();
      });
      this.element.append(" ", button);
    }
    this.element.hidden = false;
    this.element.classList.remove("leaving");
    this.hideLater(action ? NOTICE_WITH_ACTION_MS : NOTICE_MS);
  }

  /** @param {number} ms */
  hideLater(ms) {
    this.timer = setTimeout(() => {
      if (this.element.matches(":hover, :focus-within")) return this.hideLater(1000);
      this.element.classList.add("leaving");
      this.timer = setTimeout(() => {
        this.element.hidden = true;
      }, 300);
      return undefined;
    }, ms);
  }

  /**
   * The reason an operation was refused, in words (the codes of docs/protocol.md#outcomes).
   * @param {import("../sdk/wire.js").Rejected} rejected
   */
  showRejection(rejected) {
    /** @type {Partial<Record<string, string>>} */
    const reasons = {
      busy: "Someone is holding that card right now, so it stayed where it was.",
      locked: "The board is locked; nothing can change until an owner unlocks it.",
      gone: "That card or column no longer exists.",
      forbidden: "You can view this board but not change it.",
      invalid: "The server could not use that change.",
      "rate-limited": "Too many changes at once; please slow down.",
      unavailable: "The server could not save that change; nothing changed. Try again.",
    };
    // Folders refuse what `invalid` alone would leave unexplained (the server's own words
    // name the folder by its id, which the person never sees).
    const message = rejected.message ?? "";
    if (rejected.code === "invalid" && /does not accept drops/.test(message)) {
      return this.show("That folder does not take cards from elsewhere now, so nothing moved.");
    }
    if (rejected.code === "invalid" && /inside itself/.test(message)) return this.show("A folder cannot go inside itself, so nothing moved.");
    // A column someone else is dragging (docs/protocol.md#6-presence-drag-state).
    if (rejected.code === "busy" && /^column .* is being dragged/.test(message)) {
      return this.show("Someone is moving that column right now, so it stayed where it was.");
    }
    if (rejected.code === "rate-limited" && /columns expired/.test(message)) {
      return this.show("You held that column too long; it is the others' to move for a few seconds. Pick it up again shortly.");
    }
    // The cool-down after a drag held too long (docs/protocol.md#6-presence-drag-state).
    if (rejected.code === "rate-limited" && /expired/.test(message)) {
      return this.show("You held that card too long; it is the others' to move for a few seconds. Pick it up again shortly.");
    }
    this.show(reasons[rejected.code] ?? rejected.message ?? "The change was refused.");
    return undefined;
  }
}

export class Announcer {
  /** @param {HTMLElement} element */
  constructor(element) {
    this.element = element;
  }

  /**
   * Replaces the region's text; the same sentence twice is still read twice.
   * @param {string} text
   */
  say(text) {
    this.element.textContent = this.element.textContent === text ? `${text} ` : text;
  }
}
