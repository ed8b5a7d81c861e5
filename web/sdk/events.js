// @ts-check
// The events a live board dispatches, each a CustomEvent with a typed `detail`
// (docs/sdk.md#events), and the EventTarget type whose addEventListener knows them: with it,
// `live.addEventListener("board", (e) => e.detail.cause)` type-checks under TypeScript's
// strict mode without a cast. Types only, and the one base class live.js extends.

/** @typedef {import("./replica.js").Operation} Operation */
/** @typedef {import("./wire.js").Committed} Committed */
/** @typedef {import("./wire.js").DragCleared} DragCleared */
/** @typedef {import("./wire.js").RejectionCode} RejectionCode */

/** @typedef {"connecting" | "live" | "offline" | "closed" | "refused"} LiveState */
/**
 * The detail of a "state" event: the state `live.state` changed to.
 * @typedef {{ state: LiveState }} StateChange
 */
/**
 * The detail of a "board" event: why `live.board` changed, and for "committed" the event
 * and whether it answers one of ours.
 * @typedef {{ cause: "welcome" | "committed" | "local" | "rollback" | "reset", event?: Committed, own?: boolean }} BoardChange
 */
/**
 * The detail of a "presence" event: `truncated` after a big board's tick, `next` (the cursor of
 * the next page, null on the last) after a page of people; empty otherwise.
 * @typedef {{ truncated?: boolean, next?: number | null }} PresenceChange
 */
/**
 * The detail of a "rejected" event: one of our operations refused for good (`op`, null for an
 * undo or redo that could not be worked out), or our `startDrag` refused (`ref`, and the
 * `holder`'s client id when it is `busy`).
 * @typedef {{ code: RejectionCode | string, message: string, op: Operation | null }
 *   | { code: RejectionCode, message: string, ref: "drag.start", holder?: string }} Rejection
 */
/**
 * The detail of a "history" event: `live.canUndo` / `live.canRedo` may have changed, because a
 * step was recorded (`op`), forgotten (refused), undone, redone, or may be tried again.
 * @typedef {{ cause: "step" | "forget" | "undo" | "redo" | "retry", op?: Operation }} HistoryChange
 */
/**
 * The detail of a "fatal" event: why the server refused the board for good (its `error`).
 * @typedef {{ code: string, message: string }} Refusal
 */
/**
 * The detail of a "token" event (with a `getToken` provider): the server accepted a refreshed
 * token (`expiresAt`, ms since 1970, null when it does not expire) or refused it (the previous
 * one stays in force until its expiry), or the provider failed (`retryIn` ms until it is asked
 * again; the connection stays as it is meanwhile).
 * @typedef {{ status: "accepted", expiresAt: number | null }
 *   | { status: "refused", code: string, message: string }
 *   | { status: "failed", error: unknown, retryIn: number }} TokenChange
 */
/**
 * Every event of a live board, by type.
 * @typedef {{
 *   state: CustomEvent<StateChange>,
 *   board: CustomEvent<BoardChange>,
 *   presence: CustomEvent<PresenceChange>,
 *   committed: CustomEvent<Committed>,
 *   rejected: CustomEvent<Rejection>,
 *   "drag-ended": CustomEvent<DragCleared>,
 *   history: CustomEvent<HistoryChange>,
 *   fatal: CustomEvent<Refusal>,
 *   token: CustomEvent<TokenChange>,
 * }} LiveBoardEventMap
 */
/**
 * An EventTarget whose listeners for the types of `M` get that type's event, as the DOM's own
 * elements do (`HTMLElementEventMap`); any other type takes a plain listener.
 * @template {Record<string, Event>} M
 * @typedef {{
 *   addEventListener<K extends keyof M & string>(type: K, listener: ((event: M[K]) => void) | { handleEvent(event: M[K]): void } | null, options?: boolean | AddEventListenerOptions): void,
 *   addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void,
 *   removeEventListener<K extends keyof M & string>(type: K, listener: ((event: M[K]) => void) | { handleEvent(event: M[K]): void } | null, options?: boolean | EventListenerOptions): void,
 *   removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void,
 *   dispatchEvent(event: Event): boolean,
 * }} TypedEventTarget
 */

/**
 * EventTarget itself, typed for the events of `LiveBoardEventMap` (a cast: nothing changes
 * at run time).
 */
export const LiveBoardEventTarget = /** @type {new () => TypedEventTarget<LiveBoardEventMap>} */ (/** @type {unknown} */ (EventTarget));
