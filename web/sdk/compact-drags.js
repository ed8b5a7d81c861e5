// @ts-check
// The compact form of a board's drag batch (docs/protocol.md#compact-drags): the SDK asks for
// it in its hello and reads each `drags.compact` as the `drags` it stands for.

/** @typedef {import("./wire.js").DragStarted} DragStarted */
/** @typedef {import("./wire.js").DragMoved} DragMoved */
/** @typedef {import("./wire.js").DragCleared} DragCleared */
/** @typedef {import("./wire.js").Placeholder} Placeholder */
/** @typedef {import("./wire.js").CompactDragChange} CompactDragChange */

/**
 * `[index, before, collection]` as a placeholder.
 * @param {unknown} over
 * @returns {Placeholder}
 */
function placeholder(over) {
  if (!Array.isArray(over) || over.length !== 3 || !Number.isInteger(over[0]) || typeof over[2] !== "string"
    || (over[1] !== null && typeof over[1] !== "string")) {
    throw new Error(`a compact over is [index, before, collection], not ${JSON.stringify(over)}`);
  }
  return { collection: over[2], index: over[0], before: over[1] };
}

/**
 * `index, before` as a placeholder among the board's columns (a drag of columns).
 * @param {unknown} index
 * @param {unknown} before
 * @returns {Placeholder}
 */
function columnPlaceholder(index, before) {
  if (!Number.isInteger(index) || (before !== null && typeof before !== "string")) {
    throw new Error(`a compact column over is index, before, not ${JSON.stringify([index, before])}`);
  }
  return { index: /** @type {number} */ (index), before: /** @type {string | null} */ (before) };
}

/**
 * One compact change as the single message it stands for: `[client, reason]` a clear,
 * `[client, index, before, collection]` a placeholder move, `[client, name, items, over]` a start;
 * for a drag of columns `[client, index, before]` a placeholder move among the columns and
 * `[client, name, collections, index, before]` a start. Throws on any other shape.
 * @param {CompactDragChange | unknown} change
 * @returns {DragStarted | DragMoved | DragCleared}
 */
export function expandCompactDragChange(change) {
  if (!Array.isArray(change) || typeof change[0] !== "string") {
    throw new Error(`a compact drag change is an array that starts with the client id, not ${JSON.stringify(change)}`);
  }
  const client = change[0];
  if (change.length === 2 && typeof change[1] === "string") {
    return { type: "drag.cleared", client, reason: /** @type {DragCleared["reason"]} */ (change[1]) };
  }
  if (change.length === 3 && typeof change[1] === "number") {
    return { type: "drag.over", client, over: columnPlaceholder(change[1], change[2]) };
  }
  if (change.length === 5 && typeof change[1] === "string" && Array.isArray(change[2]) && change[2].every((column) => typeof column === "string")) {
    const over = change[3] === null && change[4] === null ? null : columnPlaceholder(change[3], change[4]);
    return { type: "drag", client, name: change[1], collections: change[2], over };
  }
  if (change.length === 4 && typeof change[1] === "number") {
    return { type: "drag.over", client, over: placeholder(change.slice(1)) };
  }
  if (change.length === 4 && typeof change[1] === "string" && Array.isArray(change[2]) && change[2].every((item) => typeof item === "string")) {
    return { type: "drag", client, name: change[1], items: change[2], over: change[3] === null ? null : placeholder(change[3]) };
  }
  throw new Error(`not a compact drag change: ${JSON.stringify(change)}`);
}

/**
 * A `drags.compact` batch's changes as the long form's, in order.
 * @param {unknown[]} changes
 */
export function expandCompactDrags(changes) {
  return changes.map(expandCompactDragChange);
}
