export class PendingStore {
    /**
     * @param {StorageLike | null} storage null: nothing is kept beyond this page
     * @param {string} board
     */
    constructor(storage: StorageLike | null, board: string);
    storage: StorageLike | null;
    key: string;
    /**
     * The opIds this page answers for: those it made and those it took over from storage.
     * Another tab on the same board keeps its own beside them, untouched by our saves.
     * @type {Set<string>}
     */
    owned: Set<string>;
    /**
     * What earlier pages left unanswered, oldest first; this page takes them over. Anything
     * unreadable (another version's shape, a hand edit) is dropped rather than sent: it could
     * be anything.
     * @returns {StoredOperation[]}
     */
    load(): StoredOperation[];
    /**
     * Stores this page's waiting operations, keeping another tab's beside them.
     * @param {StoredOperation[]} entries
     */
    save(entries: StoredOperation[]): void;
    /** @returns {StoredOperation[]} */
    read(): StoredOperation[];
    /**
     * Storage can throw (full, disabled by the browser's privacy settings): the page then
     * works as without storage.
     * @template T
     * @param {() => T} action
     * @returns {T | null}
     */
    attempt<T>(action: () => T): T | null;
}
export type OperationRequest = import("./wire.js").OperationRequest;
/**
 * One waiting operation as kept: the request as sent, and the epoch of the history its
 * `baseSeq` counts in (null before any welcome).
 */
export type StoredOperation = {
    epoch: string | null;
    request: OperationRequest;
};
/**
 * The part of the Web Storage API used here (localStorage, or anything alike).
 */
export type StorageLike = {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    removeItem(key: string): void;
};
