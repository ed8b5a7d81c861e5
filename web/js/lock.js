// @ts-check
// Locking the board: a lock stops everyone's changes (in open mode every visitor is an owner
// and may lock), so the Lock button asks first; unlocking does not. The page remembers who
// locked it from the committed `lock` it saw, so that the banner can name them and tell the
// locker how to undo it.

/** @typedef {import("../sdk/live.js").LiveBoard} LiveBoard */
/** @typedef {import("../sdk/live.js").BoardChange} BoardChange */

// board.html has the confirmation dialog (#lock-confirm) with its buttons.

export class LockControl {
  /** @param {LiveBoard} session */
  constructor(session) {
    this.session = session;
    this.confirm = /** @type {HTMLDialogElement} */ (document.getElementById("lock-confirm"));
    /**
     * Who locked the board, when this page saw it happen: "you", a name, or null (locked before
     * this page came, or by someone it does not know).
     * @type {string | null}
     */
    this.lockedBy = null;
    this.confirm.addEventListener("close", () => {
      // A refusal comes as a "rejected" event (the page shows it): the promise needs no handler.
      if (this.confirm.returnValue === "lock") this.session.lock(true).catch(() => {});
    });
    session.addEventListener("board", (event) => {
      const { event: committed, own } = /** @type {CustomEvent<BoardChange>} */ (event).detail;
      if (committed?.op.type !== "lock") return;
      this.lockedBy = !committed.op.locked ? null : own ? "you" : (this.session.peers.get(committed.client)?.name ?? committed.by ?? null);
    });
  }

  /** The Lock/Unlock button was pressed. */
  toggle() {
    // The button stays in view while a resync fetches a fresh board, when whether to lock or
    // unlock is not known: a click then threw a TypeError (the type check found it).
    const board = this.session.confirmed;
    if (!board) return;
    if (board.locked) {
      this.session.lock(false).catch(() => {});
      return;
    }
    this.confirm.returnValue = "";
    this.confirm.showModal();
  }

  /**
   * The banner's words for a locked board: who locked it, and how it gets unlocked (by this
   * person's Unlock button when they may, else by an owner).
   * @returns {string}
   */
  banner() {
    const who = this.lockedBy === null ? "Locked" : `Locked by ${this.lockedBy}`;
    if (this.session.me?.role === "owner") return `${who}: press Unlock to allow changes again`;
    return `${who}: only an owner can unlock it`;
  }
}
