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
export function connect(options: ConnectOptions): LiveBoard;
export { CorkboardRejection } from "./rejection.js";
export { Backoff } from "./backoff.js";
export { liveList } from "./live-list.js";
export type ConnectOptions = import("./live.js").ConnectOptions;
export type LiveState = import("./live.js").LiveState;
export type OperationResult = import("./live.js").OperationResult;
export type LiveBoardEventMap = import("./events.js").LiveBoardEventMap;
export type StateChange = import("./events.js").StateChange;
export type BoardChange = import("./events.js").BoardChange;
export type PresenceChange = import("./events.js").PresenceChange;
export type Rejection = import("./events.js").Rejection;
export type HistoryChange = import("./events.js").HistoryChange;
export type Refusal = import("./events.js").Refusal;
export type TokenChange = import("./events.js").TokenChange;
export type LiveSnapshot = import("./live-snapshot.js").LiveSnapshot;
export type Board = import("./replica.js").Board;
export type Operation = import("./replica.js").Operation;
export type Peer = import("./wire.js").Peer;
export type Committed = import("./wire.js").Committed;
import { LiveBoard } from "./live.js";
export { LiveBoard, endpoint } from "./live.js";
export { allLists, applyOperation, cloneBoard, enclosingFolders, findItem, findCollection, orderedItemIds, resolveMoveLocally, anchorAt } from "./replica.js";
