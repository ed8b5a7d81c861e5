// @ts-check
// Corkboard's browser SDK: `connect()` joins a board live (docs/sdk.md). Plain ES modules
// without DOM access, so it runs in any page, a worker or Node (pass `WebSocket`, `storage`).
//
//   import { connect } from "/sdk/corkboard.js";
//   const live = connect({ board: "demo", name: "Ada" });
//   live.addEventListener("board", (event) => render(live.board, event.detail.cause));
//   await live.move(["card-1"], { collection: "done", before: null });

import { LiveBoard } from "./live.js";

export { LiveBoard, endpoint } from "./live.js";
export { CorkboardRejection } from "./rejection.js";
export { Backoff } from "./backoff.js";
export { liveList } from "./live-list.js";
export { allLists, applyOperation, cloneBoard, enclosingFolders, findItem, findCollection, orderedItemIds, resolveMoveLocally, anchorAt } from "./replica.js";

/** @typedef {import("./live.js").ConnectOptions} ConnectOptions */
/** @typedef {import("./live.js").LiveState} LiveState */
/** @typedef {import("./live.js").OperationResult} OperationResult */
/** @typedef {import("./events.js").LiveBoardEventMap} LiveBoardEventMap */
/** @typedef {import("./events.js").StateChange} StateChange */
/** @typedef {import("./events.js").BoardChange} BoardChange */
/** @typedef {import("./events.js").PresenceChange} PresenceChange */
/** @typedef {import("./events.js").Rejection} Rejection */
/** @typedef {import("./events.js").HistoryChange} HistoryChange */
/** @typedef {import("./events.js").Refusal} Refusal */
/** @typedef {import("./events.js").TokenChange} TokenChange */
/** @typedef {import("./live-snapshot.js").LiveSnapshot} LiveSnapshot */
/** @typedef {import("./replica.js").Board} Board */
/** @typedef {import("./replica.js").Operation} Operation */
/** @typedef {import("./wire.js").Peer} Peer */
/** @typedef {import("./wire.js").Committed} Committed */

/**
 * Joins a board and keeps it live until `close()`: connects (and reconnects), shows our
 * operations at once, and keeps those without an answer in `storage` until they have one.
 * @param {ConnectOptions} options
 * @returns {LiveBoard}
 */
export function connect(options) {
  return new LiveBoard(options);
}
