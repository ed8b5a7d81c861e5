// @ts-check
// Where a tab keeps its operations that have no answer yet, per board, so that a reload or
// a crash does not lose them: the next page on that board sends them again with the same
// opIds, and the server's memory of opIds makes a repeat answer with its first outcome
// (docs/protocol.md#resending-an-opid) rather than apply twice.

/** @typedef {import("./wire.js").OperationRequest} OperationRequest */
/**
 * One waiting operation as kept: the request as sent, and the epoch of the history its
 * `baseSeq` counts in (null before any welcome).
 * @typedef {{ epoch: string | null, request: OperationRequest }} StoredOperation
 */
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
    /**
     * The opIds this page answers for: those it made and those it took over from storage.
     * Another tab on the same board keeps its own beside them, untouched by our saves.
     * @type {Set<string>}
     */
    this.owned = new Set();
  }

  /**
   * What earlier pages left unanswered, oldest first; this page takes them over. Anything
   * unreadable (another version's shape, a hand edit) is dropped rather than sent: it could
   * be anything.
   * @returns {StoredOperation[]}
   */
  load() {
    const stored = this.read();
    for (const entry of stored) this.owned.add(entry.request.opId);
    return stored;
  }

  /**
   * Stores this page's waiting operations, keeping another tab's beside them.
   * @param {StoredOperation[]} entries
   */
  save(entries) {
    for (const entry of entries) this.owned.add(entry.request.opId);
    const all = [...this.read().filter((entry) => !this.owned.has(entry.request.opId)), ...entries];
    this.attempt(() => {
      if (all.length === 0) this.storage?.removeItem(this.key);
      else this.storage?.setItem(this.key, JSON.stringify(all));
    });
  }

  /** @returns {StoredOperation[]} */
  read() {
    const text = this.attempt(() => this.storage?.getItem(this.key) ?? null);
    if (!text) return [];
    try {
      const parsed = JSON.parse(text);
      if (Array.isArray(parsed) && parsed.every(isStored)) return parsed;
    } catch {
      // Falls through: the stored text is not ours.
    }
    console.warn(`corkboard: ignoring unreadable pending operations under ${this.key}`);
    this.attempt(() => this.storage?.removeItem(this.key));
    return [];
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
 * @returns {value is StoredOperation}
 */
function isStored(value) {
  if (typeof value !== "object" || value === null) return false;
  const { epoch, request } = /** @type {{ epoch?: unknown, request?: unknown }} */ (value);
  if ((epoch !== null && typeof epoch !== "string") || typeof request !== "object" || request === null) return false;
  const { type, opId, baseSeq } = /** @type {{ type?: unknown, opId?: unknown, baseSeq?: unknown }} */ (request);
  return typeof type === "string" && typeof opId === "string" && (baseSeq === undefined || typeof baseSeq === "number");
}
