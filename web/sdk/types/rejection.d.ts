/** @typedef {import("./replica.js").Operation} Operation */
export class CorkboardRejection extends Error {
    /**
     * @param {string} code the `rejected` code ("invalid", "gone", "forbidden", "locked", …)
     *   or, when the board refused this client altogether, its `error` code
     * @param {string} message what the server said, or the code when it said nothing more
     * @param {Operation | null} op the operation as it was asked for (null for an undo or redo
     *   refused before anything was sent: its card or column is gone)
     */
    constructor(code: string, message: string, op: Operation | null);
    code: string;
    op: import("./replica.js").Operation | null;
}
export type Operation = import("./replica.js").Operation;
