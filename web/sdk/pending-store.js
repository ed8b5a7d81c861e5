// @ts-check
// Where a tab keeps its operations that have no answer yet, per board, so that a reload or
// a crash does not lose them: the next page on that board sends them again with the same
// opIds, and the server's memory of opIds makes a repeat answer with its first outcome
// (docs/protocol.md#idempotency) rather than apply twice.

/** @typedef {import("./wire.js").OperationRequest} OperationRequest */
/**
 * The part of the Web Storage API used here (localStorage, or anything alike).
 * @typedef {{ getItem(key: string): string | null, setItem(key: string, value: string): void,
 *   removeItem(key: string): void }} StorageLike
 */

const KEY_PREFIX = "corkboard.pending.";

export class PendingStore {
  /**
   * @param {StorageLike | null} storage null: nothing is kept beyond this page
   * @param {string} board
   */
  constructor(storage, board) {
    this.storage = storage;
    this.key = KEY_PREFIX + board;
  }

  /**
   * What an earlier page left unanswered, oldest first. Anything unreadable (another
   * version's shape, a hand edit) is dropped rather than sent: it could be anything.
   * @returns {OperationRequest[]}
   */
  load() {
    const text = this.attempt(() => this.storage?.getItem(this.key) ?? null);
    if (!text) return [];
    try {
      const parsed = JSON.parse(text);
      if (Array.isArray(parsed) && parsed.every(isRequest)) return parsed;
    } catch {
      // Falls through: the stored text is not ours.
    }
    console.warn(`corkboard: ignoring unreadable pending operations under ${this.key}`);
    this.attempt(() => this.storage?.removeItem(this.key));
    return [];
  }

  /** @param {OperationRequest[]} requests */
  save(requests) {
    this.attempt(() => {
      if (requests.length === 0) this.storage?.removeItem(this.key);
      else this.storage?.setItem(this.key, JSON.stringify(requests));
    });
  }

  /**
   * Storage can throw (full, disabled by the browser's privacy settings): the page then
   * works as without storage.
   * @template T
   * @param {() => T} action
   * @returns {T | null}
   */
  attempt(action) {
    try {
      return action();
    } catch (error) {
      console.warn(`corkboard: storage unavailable (${/** @type {Error} */ (error).message})`);
      return null;
    }
  }
}

/**
 * @param {unknown} value
 * @returns {value is OperationRequest}
 */
function isRequest(value) {
  if (typeof value !== "object" || value === null) return false;
  const request = /** @type {{ type?: unknown, opId?: unknown, baseSeq?: unknown }} */ (value);
  return typeof request.type === "string" && typeof request.opId === "string" && (request.baseSeq === undefined || typeof request.baseSeq === "number");
}
