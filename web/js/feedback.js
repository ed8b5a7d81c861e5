// @ts-check
// What the page tells people: short visible notices (a refused operation and why) and
// announcements for screen readers through an aria-live region.

const NOTICE_MS = 4000;

export class Notices {
  /** @param {HTMLElement} element */
  constructor(element) {
    this.element = element;
    /** @type {number | null} */
    this.timer = null;
  }

  /** @param {string} text */
  show(text) {
    clearTimeout(/** @type {number | undefined} */ (this.timer));
    this.element.textContent = text;
    this.element.hidden = false;
    this.element.classList.remove("leaving");
    this.timer = setTimeout(() => {
      this.element.classList.add("leaving");
      this.timer = setTimeout(() => {
        this.element.hidden = true;
      }, 300);
    }, NOTICE_MS);
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
    this.show(reasons[rejected.code] ?? rejected.message ?? "The change was refused.");
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
