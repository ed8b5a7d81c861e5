// @ts-check
// The messages of the protocol as the SDK sends and receives them (docs/protocol.md#3-joining,
// #4-operations, #6-presence-drag-state, #liveness). Types only: the other modules import them.

/** @typedef {import("./replica.js").Board} Board */
/** @typedef {import("./replica.js").Operation} Operation */

/** @typedef {"viewer" | "editor" | "owner"} Role */
/**
 * `presence: "compact"` asks for drag batches as `drags.compact` (docs/protocol.md#compact-drags);
 * `hue` (0…359) is the colour the others see us in (docs/protocol.md#colours).
 * @typedef {{ type: "hello", board: string, name: string, token?: string, resume?: { epoch: string, seq: number },
 *   presence?: "compact" | "full", hue?: number }} Hello
 */
/**
 * An operation as we send it: with its opId, and a baseSeq when it needs one.
 * @typedef {Operation & { opId: string, baseSeq?: number }} OperationRequest
 */
/** @typedef {{ type: "drag.start", items: string[] } | { type: "drag.start", collections: string[] }} DragStartRequest */
/** @typedef {{ type: "drag.over", collection?: string, index: number }} DragOverRequest */
/** @typedef {{ type: "drag.end" }} DragEndRequest */
/**
 * Our editing mark: the item whose label we are editing, null when we stopped
 * (docs/protocol.md#editing-marks).
 * @typedef {{ type: "editing", item: string | null }} EditingRequest
 */
/** @typedef {{ type: "ping", id: string }} Ping */
/** @typedef {{ type: "peers.list", after?: number, limit: number }} PeersList */
/**
 * A new token for the open connection (docs/protocol.md, token lifecycle).
 * @typedef {{ type: "token", token: string }} TokenRefresh
 */
/**
 * @typedef {Hello | OperationRequest | DragStartRequest | DragOverRequest | DragEndRequest | EditingRequest | Ping | PeersList
 *   | TokenRefresh} ClientMessage
 */

/**
 * A drag's placeholder: the index in that list with the dragged items left out, and the id
 * there (`before`, null for the end) when the server tells of someone else's.
 * @typedef {{ collection?: string, index: number, before?: string | null }} Placeholder
 */
/**
 * A drag in progress as the server tells it: of items, or of columns (`collections` instead of
 * `items`; its placeholder has no `collection`, its index is among the columns without the
 * dragged ones).
 * @typedef {{ items?: string[], collections?: string[], over: Placeholder | null }} WireDragState
 */
/**
 * A peer's drag as the SDK holds it: `items` always a list (empty in a drag of columns).
 * @typedef {{ items: string[], collections?: string[], over: Placeholder | null }} DragState
 */
/**
 * Someone else on the board; `elsewhere` when we only know them by a drag (another node);
 * `hue` (0…359) when they chose a colour (docs/protocol.md#colours).
 * @typedef {{ client: string, name: string, hue?: number, drag: DragState | null, elsewhere?: boolean }} Peer
 */
/**
 * `board` is there unless the server resumed us from our `(epoch, seq)`; `tokenExpiresAt`
 * (ms since 1970) when our token expires; `name`, the name the others see us by (our token's
 * when it names us), absent from an older server; `hue`, our chosen colour's, when we chose one.
 * @typedef {{ type: "welcome", client: string, role: Role, epoch: string, seq: number, name?: string, hue?: number,
 *   peers: { client: string, name: string, hue?: number, drag?: WireDragState | null }[], count: number, tokenExpiresAt?: number }
 *   & ({ resumed: false, board: Board } | { resumed: true })} Welcome
 */
/**
 * A committed event; `at` (ms since 1970 UTC) and `by` (its author) are absent on events
 * committed before the server recorded them (docs/protocol.md#outcomes).
 * @typedef {{ type: "committed", seq: number, opId: string, client: string, adjusted: boolean, op: Operation,
 *   at?: number, by?: string, noop?: false }} Committed
 */
/** @typedef {{ type: "committed", noop: true, opId: string, seq: number }} Noop */
/** @typedef {"invalid" | "gone" | "forbidden" | "locked" | "busy" | "rate-limited" | "unavailable"} RejectionCode */
/**
 * The refusal of one of our operations (`opId`) or of our `drag.start` (`ref`, and the
 * `holder` when it is `busy`).
 * @typedef {{ type: "rejected", code: RejectionCode, message?: string, opId?: string, ref?: "drag.start", holder?: string }} Rejected
 */
/** @typedef {{ type: "peer.joined", client: string, name: string, hue?: number }} PeerJoined */
/** @typedef {{ type: "peer.left", client: string }} PeerLeft */
/**
 * A tick's joins and leaves on a board of more than 50 people (docs/protocol.md#peers).
 * @typedef {{ type: "peers", count: number, joined: { client: string, name: string, hue?: number }[], left: string[], truncated: boolean }} Peers
 */
/**
 * The answer to `peers.list`: people in join order, and the cursor of the next page.
 * @typedef {{ type: "peers.page", count: number, peers: { client: string, name: string, hue?: number, drag: WireDragState | null }[], next: number | null }} PeersPage
 */
/** @typedef {{ type: "drag", client: string, name: string, items?: string[], collections?: string[], over?: Placeholder | null }} DragStarted */
/** @typedef {{ type: "drag.over", client: string, over: Placeholder }} DragMoved */
/** @typedef {"drop" | "cancel" | "left" | "timeout" | "deleted" | "expired"} DragClearReason */
/** @typedef {{ type: "drag.cleared", client: string, reason: DragClearReason }} DragCleared */
/**
 * A board tick's drag changes, in order, each the single message it stands for (a big
 * audience's form: docs/protocol.md#6-presence-drag-state).
 * @typedef {{ type: "drags", changes: (DragStarted | DragMoved | DragCleared)[] }} DragBatch
 */
/**
 * Someone's editing mark: the item whose label they edit, null when they stopped, left, or
 * the mark lapsed (docs/protocol.md#editing-marks).
 * @typedef {{ type: "editing", client: string, name: string, item: string | null }} EditingMark
 */
/**
 * A change of a compact batch: `[client, name, items, over]` a start (`over` null or
 * `[index, before, collection]`), `[client, index, before, collection]` a placeholder move,
 * `[client, reason]` a clear; a drag of columns: `[client, name, collections, index, before]` a
 * start, `[client, index, before]` a placeholder move (docs/protocol.md#compact-drags).
 * @typedef {[string, string, string[], [number, string | null, string] | null] | [string, number, string | null, string]
 *   | [string, DragClearReason] | [string, string, string[], number | null, string | null]
 *   | [string, number, string | null]} CompactDragChange
 */
/**
 * The same tick's changes for a client whose hello asked for `presence: "compact"`.
 * @typedef {{ type: "drags.compact", changes: CompactDragChange[] }} CompactDragBatch
 */
/** @typedef {{ type: "error", code: string, message: string }} ErrorMessage */
/** @typedef {{ type: "pong", id: string }} Pong */
/**
 * The answers to a `token` refresh, in the order they were sent: taken (`tokenExpiresAt` absent
 * when the new token does not expire), or refused (the previous one stays in force).
 * @typedef {{ type: "token.accepted", tokenExpiresAt?: number }} TokenAccepted
 * @typedef {{ type: "token.refused", code: "unauthorized" | "forbidden", message: string }} TokenRefused
 */
/**
 * @typedef {Welcome | Committed | Noop | Rejected | PeerJoined | PeerLeft | Peers | PeersPage | DragStarted | DragMoved
 *   | DragCleared | DragBatch | CompactDragBatch | EditingMark | ErrorMessage | Pong | TokenAccepted | TokenRefused} ServerMessage
 */

export {};
