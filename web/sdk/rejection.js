// @ts-check
// The error an operation's promise rejects with when the server refuses it for good.

/** @typedef {import("./replica.js").Operation} Operation */

export class CorkboardRejection extends Error {
  /**
   * @param {string} code the `rejected` code ("invalid", "gone", "forbidden", "locked", …)
   *   or, when the board refused this client altogether, its `error` code
   * @param {string} message what the server said, or the code when it said nothing more
   * @param {Operation} op the operation as it was asked for
   */
  constructor(code, message, op) {
    super(message);
    this.name = "CorkboardRejection";
    this.code = code;
    this.op = op;
  }
}
