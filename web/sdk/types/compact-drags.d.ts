/**
 * One compact change as the single message it stands for: `[client, reason]` a clear,
 * `[client, index, before, collection]` a placeholder move, `[client, name, items, over]` a start;
 * for a drag of columns `[client, index, before]` a placeholder move among the columns and
 * `[client, name, collections, index, before]` a start. Throws on any other shape.
 * @param {CompactDragChange | unknown} change
 * @returns {DragStarted | DragMoved | DragCleared}
 */
export function expandCompactDragChange(change: CompactDragChange | unknown): DragStarted | DragMoved | DragCleared;
/**
 * A `drags.compact` batch's changes as the long form's, in order.
 * @param {unknown[]} changes
 */
export function expandCompactDrags(changes: unknown[]): (import("./wire.js").DragStarted | import("./wire.js").DragMoved | import("./wire.js").DragCleared)[];
export type DragStarted = import("./wire.js").DragStarted;
export type DragMoved = import("./wire.js").DragMoved;
export type DragCleared = import("./wire.js").DragCleared;
export type Placeholder = import("./wire.js").Placeholder;
export type CompactDragChange = import("./wire.js").CompactDragChange;
