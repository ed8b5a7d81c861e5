// @ts-check
// One client's live membership of one board: the WebSocket (reconnect with backoff and
// jitter, resume from `(epoch, seq)`, a ping that notices a dead socket), the board the
// server confirmed, our operations still waiting for their answer (shown at once, kept in
// storage, sent again until answered), and the others' presence. No DOM: it works wherever
// there is a WebSocket, and tells what changed by events (see connect() in corkboard.js).

import { applyOperation, cloneBoard, findItem, resolveColumnMoveLocally, resolveMoveLocally } from "./replica.js";
import { Backoff } from "./backoff.js";
import { PendingStore } from "./pending-store.js";
import { CorkboardRejection } from "./rejection.js";
import { UndoHistory } from "./undo.js";
import { LiveBoardEventTarget } from "./events.js";
import { SnapshotStore } from "./live-snapshot.js";
import { TokenKeeper, refreshDelay } from "./token-keeper.js";
import { jwtExpiry } from "./jwt-expiry.js";
import { originRefusal } from "./origin-check.js";
import { expandCompactDrags } from "./compact-drags.js";

/** @typedef {import("./replica.js").Board} Board */
/** @typedef {import("./replica.js").Operation} Operation */
/** @typedef {import("./replica.js").Destination} Destination */
/** @typedef {import("./replica.js").Item} Item */
/** @typedef {import("./replica.js").ItemData} ItemData */
/** @typedef {import("./wire.js").Role} Role */
/** @typedef {import("./wire.js").Hello} Hello */
/** @typedef {import("./wire.js").OperationRequest} OperationRequest */
/** @typedef {import("./wire.js").ClientMessage} ClientMessage */
/** @typedef {import("./wire.js").ServerMessage} ServerMessage */
/** @typedef {import("./wire.js").DragState} DragState */
/** @typedef {import("./wire.js").Welcome} Welcome */
/** @typedef {import("./wire.js").Committed} Committed */
/** @typedef {import("./wire.js").Noop} Noop */
/** @typedef {import("./wire.js").Rejected} Rejected */
/** @typedef {import("./wire.js").Peer} Peer */
/** @typedef {import("./wire.js").DragOverRequest} DragOverRequest */
/** @typedef {import("./wire.js").TokenRefused} TokenRefused */
/** @typedef {import("./pending-store.js").StorageLike} StorageLike */
/** @typedef {import("./token-keeper.js").TokenProvider} TokenProvider */

/** @typedef {import("./events.js").LiveState} LiveState */
/** @typedef {import("./events.js").BoardChange} BoardChange */
/** @typedef {import("./events.js").LiveBoardEventMap} LiveBoardEventMap */
/** @typedef {import("./live-snapshot.js").LiveSnapshot} LiveSnapshot */
/** @typedef {Board & { seq: number }} SeqBoard */
/**
 * What an operation's promise resolves with.
 * @typedef {{ status: "committed", seq: number, adjusted: boolean } | { status: "noop" }} OperationResult
 */
/**
 * One of our operations until its answer: the request as sent and the epoch its baseSeq
 * counts in (both kept in storage), and the promise's settlers (none for one restored from
 * storage: its page is gone).
 * @typedef {{ request: OperationRequest, epoch: string | null, retries: number,
 *   resolve: ((result: OperationResult) => void) | null, reject: ((error: CorkboardRejection) => void) | null }} PendingOperation
 */
/**
 * The clock and timers (injected by tests). `now` is a monotonic clock; `wallClock` (ms since
 * 1970, default `Date.now`) is read only against the server's token expiry times.
 * @typedef {{ setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (id: unknown) => void, now: () => number,
 *   wallClock?: () => number }} Timers
 */
/** @typedef {{ new (url: string, protocols?: string | string[]): WebSocket, readonly OPEN: number }} WebSocketConstructor */
/**
 * What connect() takes; only `board` is required. `getToken`, a token provider, is asked before
 * each connect and before the token expires (then `token` is not used).
 * @typedef {{ board: string, name?: string, token?: string | null, getToken?: TokenProvider, url?: string,
 *   storage?: StorageLike | null, WebSocket?: WebSocketConstructor, timers?: Timers, random?: () => number,
 *   window?: EventTarget | null, document?: (EventTarget & { visibilityState?: string }) | null,
 *   navigator?: { onLine: boolean } | null, fetch?: import("./origin-check.js").Fetcher | null,
 *   presence?: "compact" | "full", hue?: number | null }} ConnectOptions
 */

/**
 * Move, insert, delete, an item's update and a collection move carry the seq they were made
 * at (docs/protocol.md#4-operations).
 * @param {Operation} request
 */
function needsBaseSeq(request) {
  return ["move", "insert", "delete", "collection.move"].includes(request.type) || (request.type === "update" && request.item !== undefined);
}

/** Refusals of the server's own making, retried with the same opId. */
const RETRIED_CODES = new Set(["rate-limited", "unavailable"]);
const RETRY_LIMIT = 4;
/** Refusals after which the same undo or redo can work later. */
const PASSING_CODES = new Set(["busy", "locked", "rate-limited", "unavailable"]);
/** Placeholder updates go out at most this often; the latest always goes. */
const DRAG_OVER_INTERVAL_MS = 50;
/**
 * A socket that said nothing for PING_AFTER_MS gets a ping; one that then says nothing for
 * PONG_WITHIN_MS is dead (a half-open TCP connection, a laptop lid): 8 s at most, within
 * the 10 s a person waits before doubting the "Live" badge.
 */
const PING_AFTER_MS = 4000;
const PONG_WITHIN_MS = 4000;
/** After a hint that the network changed (online, offline, tab shown again): a shorter bound. */
const CHECK_WITHIN_MS = 3000;
/**
 * Our editing mark is sent again this often while it lasts: the server lets one nobody sends
 * again lapse after 30 s (docs/protocol.md#editing-marks).
 */
const EDITING_RENEW_MS = 10000;

/**
 * A drag as a peer holds it: `items` always a list (empty in a drag of columns), `collections`
 * only in a drag of columns.
 * @param {{ items?: string[], collections?: string[], over?: import("./wire.js").Placeholder | null }} drag
 * @returns {DragState}
 */
function dragState(drag) {
  const over = drag.over ?? null;
  return drag.collections ? { items: [], collections: drag.collections, over } : { items: drag.items ?? [], over };
}

/**
 * A peer as we hold it: with `hue` only when the server listed one (docs/protocol.md#colours).
 * @param {{ client: string, name: string, hue?: number }} listed
 * @param {DragState | null} drag
 * @returns {Peer}
 */
function peerOf(listed, drag) {
  /** @type {Peer} */
  const peer = { client: listed.client, name: listed.name, drag };
  if (typeof listed.hue === "number") peer.hue = listed.hue;
  return peer;
}

/**
 * A hue `hello` takes: a whole number from 0 to 359, or null for none.
 * @param {number | null | undefined} hue
 * @returns {number | null}
 */
function validHue(hue) {
  if (hue === null || hue === undefined) return null;
  if (!Number.isInteger(hue) || hue < 0 || hue > 359) throw new RangeError(`hue must be a whole number from 0 to 359, not ${hue}`);
  return hue;
}

export class LiveBoard extends LiveBoardEventTarget {
  /** @param {ConnectOptions} options */
  constructor(options) {
    super();
    const environment = /** @type {{ location?: Location, localStorage?: StorageLike, WebSocket?: WebSocketConstructor,
      window?: EventTarget, document?: EventTarget & { visibilityState?: string }, navigator?: { onLine: boolean },
      fetch?: import("./origin-check.js").Fetcher }} */ (globalThis);
    this.boardId = options.board;
    this.name = options.name ?? "Guest";
    /** The form of drag batches asked for: compact unless told (docs/protocol.md#compact-drags). */
    this.presence = options.presence ?? "compact";
    /** The colour the others see us in (docs/protocol.md#colours); null: none chosen. */
    this.hue = validHue(options.hue);
    this.token = options.token ?? null;
    this.url = endpoint(options.url ?? environment.location?.origin, options.board);
    this.WebSocket = /** @type {WebSocketConstructor} */ (options.WebSocket ?? environment.WebSocket);
    /** @type {Timers} */
    this.timers = options.timers ?? {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (id) => clearTimeout(/** @type {number} */ (id)),
      now: () => performance.now(),
    };
    this.wallClock = options.timers?.wallClock ?? (() => Date.now());
    this.navigator = options.navigator === undefined ? (environment.navigator ?? null) : options.navigator;
    /** How `GET /api` is read when the socket never opens (`origin-check.js`); null: never. */
    this.fetch = options.fetch === undefined ? (environment.fetch?.bind(environment) ?? null) : options.fetch;
    /** The page's origin, which a server with --allowed-origins may refuse. */
    this.origin = environment.location?.origin ?? null;
    /** Whether the server was asked once already why the socket does not open. */
    this.askedAboutOrigin = false;
    this.store = new PendingStore(options.storage === undefined ? localStorageIfAny(environment) : options.storage, this.boardId);
    this.backoff = new Backoff({ random: options.random ?? Math.random });

    /** @type {LiveState} */
    this.state = "connecting";
    /** @type {{ client: string, name: string, role: Role, hue?: number } | null} */
    this.me = null;
    /** @type {string | null} */
    this.epoch = null;
    this.seq = 0;
    /**
     * The board at `seq`, as the server confirmed it.
     * @type {SeqBoard | null}
     */
    this.confirmed = null;
    /**
     * What to show: `confirmed` with our pending operations applied on top.
     * @type {SeqBoard | null}
     */
    this.board = null;
    /**
     * Our operations in the order we made them, until the server answers each; those an
     * earlier page left in storage come first.
     * @type {PendingOperation[]}
     */
    this.queue = this.store.load().map(({ request, epoch }) => ({ request, epoch, retries: 0, resolve: null, reject: null }));
    /**
     * Everyone else on the board, by client id.
     * @type {Map<string, Peer>}
     */
    this.peers = new Map();
    /**
     * The others' editing marks, by client id: who edits which item's label
     * (docs/protocol.md#editing-marks).
     * @type {Map<string, { client: string, name: string, item: string }>}
     */
    this.editors = new Map();
    /**
     * The item whose label we are editing (our mark, sent again while it lasts and after a
     * reconnect), null when none.
     * @type {string | null}
     */
    this.editingItem = null;
    /** @type {unknown} */
    this.editingTimer = null;
    /**
     * How many people are on the board, us included (docs/protocol.md#peers): on a board of
     * more than 50 the server names only some of them in `peers`; `listPeers` asks for more.
     */
    this.memberCount = 0;
    this.opPrefix = Math.random().toString(36).slice(2, 10);
    this.opCounter = 0;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** Whether this socket's hello was welcomed (operations go out only then). */
    this.welcomed = false;
    this.everWelcomed = false;
    /** @type {unknown} */
    this.retryTimer = null;
    /**
     * Why the server refused our last hello (its `error`), until a welcome.
     * @type {{ code: string, message: string } | null}
     */
    this.refusal = null;
    /** @type {unknown} */
    this.dragOverTimer = null;
    /** While a `drags` batch is taken: its changes' "presence" events wait for its end. */
    this.holdingPresence = false;
    /** Asking page after page for everyone on a small board (see `distrustPeers`). */
    this.namingEveryone = false;
    this.lastDragOverAt = -Infinity;
    /** @type {DragOverRequest | null} */
    this.nextDragOver = null;
    this.lastHeardAt = 0;
    /** @type {unknown} */
    this.heartbeatTimer = null;
    /** @type {unknown} */
    this.deadlineTimer = null;
    this.pingCounter = 0;
    /**
     * When the token in force expires (ms since 1970): the server's `tokenExpiresAt`, else a
     * JWT's `exp`; null when it does not expire or nobody knows.
     * @type {number | null}
     */
    this.tokenExpiresAt = null;
    /**
     * The provider's (connect({ getToken })), if any, with its retries and refresh timer.
     * @type {TokenKeeper | null}
     */
    this.tokens = options.getToken
      ? new TokenKeeper(options.getToken, this.timers, (error, retryIn) => this.dispatch("token", { status: "failed", error, retryIn }))
      : null;
    /**
     * The token sent in a refresh, until the server answers it.
     * @type {string | null}
     */
    this.offeredToken = null;
    /** This tab's own steps to undo and redo (undo.js). */
    this.history = new UndoHistory();
    /** What `getSnapshot()` gives: made again after an event, kept while nothing changed. */
    this.snapshots = new SnapshotStore(() => ({
      state: this.state,
      board: this.board,
      seq: this.seq,
      pending: this.pending,
      me: this.me,
      peers: this.peers,
      memberCount: this.memberCount,
      canEdit: this.canEdit,
      readOnlyReason: this.readOnlyReason,
      canUndo: this.canUndo,
      canRedo: this.canRedo,
      refusal: this.state === "refused" ? this.refusal : null,
      tokenExpiresAt: this.tokenExpiresAt,
    }));

    this.onOnline = () => this.check();
    this.onOffline = () => {
      this.setState("offline");
      this.check();
    };
    this.onVisibility = () => {
      if (this.document?.visibilityState !== "hidden") this.check();
    };
    this.window = options.window === undefined ? (environment.window ?? null) : options.window;
    this.document = options.document === undefined ? (environment.document ?? null) : options.document;
    this.window?.addEventListener("online", this.onOnline);
    this.window?.addEventListener("offline", this.onOffline);
    this.document?.addEventListener("visibilitychange", this.onVisibility);
    this.open();
  }

  // MARK: The store API (live-snapshot.js): arrow functions, so that they may be passed on
  // unbound, as `useSyncExternalStore(live.subscribe, live.getSnapshot)` does.

  /**
   * Calls `listener` after every change of the live board (whatever its event).
   * @type {(listener: () => void) => () => void} returns the function that unsubscribes it
   */
  subscribe = (listener) => this.snapshots.subscribe(listener);

  /**
   * The live board now, as an immutable object that stays the same object until something in
   * it changes (its board, state, people, pending count, undo and redo).
   * @type {() => LiveSnapshot}
   */
  getSnapshot = () => this.snapshots.get();

  /** How many operations wait for their answer (those restored from storage included). */
  get pending() {
    return this.queue.length;
  }

  get canEdit() {
    return this.confirmed !== null && this.readOnlyReason === null;
  }

  /** Why this client may not change the board now, in words; null when it may. */
  get readOnlyReason() {
    if (this.me?.role === "viewer") return "You can view this board but not change it.";
    if (this.confirmed?.locked) return "The board is locked.";
    return null;
  }

  /**
   * The client holding an item in a live drag, if it is someone else.
   * @param {string} itemId
   * @returns {Peer | null}
   */
  holderOf(itemId) {
    for (const peer of this.peers.values()) if (peer.drag?.items.includes(itemId)) return peer;
    return null;
  }

  /**
   * The client holding a column in a live drag of columns, if it is someone else.
   * @param {string} collectionId
   * @returns {Peer | null}
   */
  columnHolderOf(collectionId) {
    for (const peer of this.peers.values()) if (peer.drag?.collections?.includes(collectionId)) return peer;
    return null;
  }

  /**
   * The others' drags of columns in progress: who, which columns, and the placeholder's index
   * among the columns without the dragged ones (null before their first `drag.over`).
   * @returns {{ peer: Peer, collections: string[], index: number | null, before: string | null }[]}
   */
  get columnDrags() {
    const drags = [];
    for (const peer of this.peers.values()) {
      if (!peer.drag?.collections) continue;
      drags.push({ peer, collections: peer.drag.collections, index: peer.drag.over?.index ?? null, before: peer.drag.over?.before ?? null });
    }
    return drags;
  }

  // MARK: Connection

  open() {
    if (this.isOver) return;
    this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    // The browser says it has no network: an attempt could only fail, and each failed one is
    // an error in the console ("WebSocket connection … failed"). The `online` event opens.
    if (this.navigator?.onLine === false) return this.setState("offline");
    if (this.state === "offline") this.setState("connecting");
    if (!this.tokens) return this.connect();
    // A fresh token before every connect: the one we had may have expired while we were away
    // (a restart of a server with short-lived tokens would otherwise leave us refused).
    return this.tokens.obtain((token) => {
      this.token = token;
      this.connect();
    });
  }

  /** Opens a socket and says hello on it. */
  connect() {
    const socket = new this.WebSocket(this.url, ["corkboard.v1"]);
    this.socket = socket;
    this.welcomed = false;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      /** @type {Hello} */
      const hello = { type: "hello", board: this.boardId, name: this.name };
      if (this.token) hello.token = this.token;
      if (this.presence === "compact") hello.presence = "compact";
      if (this.hue !== null) hello.hue = this.hue;
      // A welcome sets the epoch with the board it confirms.
      if (this.confirmed && this.epoch) hello.resume = { epoch: this.epoch, seq: this.seq };
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      this.heard();
      let message;
      try {
        message = JSON.parse(/** @type {MessageEvent} */ (event).data);
      } catch {
        return;
      }
      this.receive(message);
    });
    let opened = false;
    socket.addEventListener("open", () => {
      opened = true;
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      const code = /** @type {CloseEvent} */ (event).code;
      if (!opened) this.askAboutOrigin();
      // 1008 refuses the hello (unknown board, bad token) or the token (revoked): retrying
      // cannot help, even with a provider (the app's backend decides whether that person gets
      // a new token, and the page is loaded again).
      if (code === 1008) return this.refuse(this.refusal ?? { code: "refused", message: "The server refused to open this board." });
      // 4001: our token expired. A provider gives a new one before the reconnect (open() asks
      // it); without one the same token would only be refused.
      if (code === 4001 && !this.tokens) return this.refuse(this.refusal ?? { code: "unauthorized", message: "The token expired." });
      // 1001: the server is going away (a restart, a deploy); 1013: the board could not be
      // loaded. Give it a moment rather than knocking on a closed port.
      return this.lost(code === 1001 || code === 1013 ? 2000 : 0);
    });
  }

  /**
   * The socket failed before it opened: once, ask the server whether it refuses this page's
   * origin, and if it does stop with that refusal instead of retrying for ever (the retries go
   * on meanwhile, and whenever the answer is another).
   */
  askAboutOrigin() {
    if (this.askedAboutOrigin) return;
    this.askedAboutOrigin = true;
    originRefusal(this.url, this.origin, this.fetch).then((refusal) => {
      if (refusal && !this.isOver && this.state !== "live") this.refuse(refusal);
    });
  }

  /** Whether this connection ended for good (closed by us, or refused). */
  get isOver() {
    return this.state === "closed" || this.state === "refused";
  }

  /**
   * The socket is gone (closed, or found dead): forget it and try again after the backoff.
   * @param {number} [atLeast] milliseconds
   */
  lost(atLeast = 0) {
    this.dropSocket();
    if (this.isOver) return;
    if (this.navigator?.onLine === false) return this.setState("offline");
    this.setState("connecting");
    this.retryTimer = this.timers.setTimeout(() => this.open(), this.backoff.next(atLeast));
  }

  /** Lets go of the socket (closing it if it is not closed already) and of what it carried. */
  dropSocket() {
    const socket = this.socket;
    this.socket = null;
    this.welcomed = false;
    this.stopHeartbeat();
    this.cancelDragOver();
    // A refresh belongs to the socket it would go on; the next connect asks for a token anyway.
    this.tokens?.cancel();
    this.offeredToken = null;
    if (socket && socket.readyState < 2) socket.close(4000, "reconnecting");
    this.timers.clearTimeout(this.editingTimer);
    this.editingTimer = null;
    if (this.peers.size > 0 || this.memberCount > 0 || this.editors.size > 0) {
      this.peers.clear();
      this.editors.clear();
      this.memberCount = 0;
      this.dispatch("presence", {});
    }
  }

  /**
   * A hint that the connection may have changed (the network came or went, the tab was
   * shown again): a live socket must answer a ping within a few seconds or is replaced; a
   * client waiting to reconnect tries now.
   */
  check() {
    if (this.isOver) return;
    if (this.socket && this.welcomed) return this.ping(CHECK_WITHIN_MS);
    // The next attempt starts from the bottom of the backoff. One under way is left to
    // finish (closing a socket still connecting is an error in the browser's console).
    this.backoff.reset();
    if (this.socket) return undefined;
    return this.open();
  }

  /**
   * Sends a ping; without a word from the server within `within` ms the socket is dead.
   * @param {number} within
   */
  ping(within) {
    this.pingCounter += 1;
    this.send({ type: "ping", id: `${this.pingCounter}` });
    this.timers.clearTimeout(this.deadlineTimer);
    this.deadlineTimer = this.timers.setTimeout(() => {
      console.info("corkboard: the connection stopped answering; reconnecting");
      this.lost();
    }, within);
  }

  /** Any message proves the socket alive. */
  heard() {
    this.lastHeardAt = this.timers.now();
    this.timers.clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    if (this.welcomed && this.state === "offline") {
      // The browser said offline, yet this socket answers: it is live after all. What was
      // held meanwhile goes now (a repeat of an opId the server has is answered, not applied).
      this.setState("live");
      for (const entry of this.queue) this.send(entry.request);
    }
  }

  startHeartbeat() {
    this.stopHeartbeat();
    const beat = () => {
      this.heartbeatTimer = this.timers.setTimeout(beat, PING_AFTER_MS);
      if (this.deadlineTimer === null && this.timers.now() - this.lastHeardAt >= PING_AFTER_MS) this.ping(PONG_WITHIN_MS);
    };
    this.heartbeatTimer = this.timers.setTimeout(beat, PING_AFTER_MS);
  }

  stopHeartbeat() {
    this.timers.clearTimeout(this.heartbeatTimer);
    this.timers.clearTimeout(this.deadlineTimer);
    this.heartbeatTimer = null;
    this.deadlineTimer = null;
  }

  /**
   * The server refused us for good. Our waiting operations stay in storage (a page with a
   * valid token sends them) but their promises reject, with the refusal.
   * @param {{ code: string, message: string }} refusal
   */
  refuse(refusal) {
    this.refusal = refusal;
    this.dropSocket();
    this.setState("refused");
    this.detach();
    for (const entry of this.queue) entry.reject?.(new CorkboardRejection(refusal.code, refusal.message, operationOf(entry.request)));
    for (const entry of this.queue) entry.resolve = entry.reject = null;
    this.dispatch("fatal", refusal);
  }

  /** Leaves the board: closes the socket and stops every timer. Waiting operations stay in storage. */
  close() {
    if (this.isOver) return;
    const socket = this.socket;
    this.socket = null;
    this.setState("closed");
    this.dropSocket();
    socket?.close(1000, "closed");
    this.detach();
  }

  detach() {
    this.timers.clearTimeout(this.retryTimer);
    this.tokens?.cancel();
    this.stopHeartbeat();
    this.window?.removeEventListener("online", this.onOnline);
    this.window?.removeEventListener("offline", this.onOffline);
    this.document?.removeEventListener("visibilitychange", this.onVisibility);
  }

  /** @param {LiveState} state */
  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.dispatch("state", { state });
  }

  /**
   * @template {keyof LiveBoardEventMap} K
   * @param {K} type
   * @param {LiveBoardEventMap[K]["detail"]} detail
   */
  dispatch(type, detail) {
    if (type === "presence" && this.holdingPresence) return;
    this.dispatchEvent(new CustomEvent(type, { detail }));
    this.snapshots.changed(type);
  }

  /**
   * @param {ClientMessage} message
   * @returns {boolean} whether it went out (only on a welcomed socket)
   */
  send(message) {
    if (!this.socket || !this.welcomed || this.socket.readyState !== this.WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  // MARK: Token refresh (with a provider: docs/sdk.md#tokens)

  /** Asks the provider for a new token a little before the one in force expires. */
  scheduleTokenRefresh() {
    if (!this.tokens || this.tokenExpiresAt === null) return;
    this.tokens.later(refreshDelay(this.tokenExpiresAt, this.wallClock()), (token) => this.offerToken(token));
  }

  /**
   * Sends a new token on the open socket. Gone meanwhile: the next connect asks for one.
   * @param {string} token
   */
  offerToken(token) {
    if (this.send({ type: "token", token })) this.offeredToken = token;
  }

  /** @param {number | null} expiresAt */
  tokenAccepted(expiresAt) {
    if (this.offeredToken === null) return;
    this.token = this.offeredToken;
    this.offeredToken = null;
    this.tokenExpiresAt = expiresAt;
    this.tokens?.succeeded();
    this.scheduleTokenRefresh();
    this.dispatch("token", { status: "accepted", expiresAt });
  }

  /**
   * The previous token stays in force until its own expiry: ask again, with backoff, until
   * then (after it the server closes with 4001 and the reconnect asks anyway).
   * @param {TokenRefused} message
   */
  tokenRefused(message) {
    if (this.offeredToken === null) return;
    this.offeredToken = null;
    this.tokens?.retry((token) => this.offerToken(token));
    this.dispatch("token", { status: "refused", code: message.code, message: message.message });
  }

  // MARK: Messages from the server

  /** @param {ServerMessage} message */
  receive(message) {
    switch (message.type) {
      case "welcome":
        return this.welcome(message);
      case "committed":
        return message.noop ? this.settle(message.opId, { status: "noop" }) : this.committed(message);
      case "rejected":
        return this.rejected(message);
      case "peer.joined":
        this.peers.set(message.client, peerOf(message, null));
        this.memberCount += 1;
        return this.dispatch("presence", {});
      case "peer.left":
        this.peers.delete(message.client);
        this.editors.delete(message.client);
        this.memberCount -= 1;
        return this.dispatch("presence", {});
      case "peers":
        // A tick's joins and leaves on a big board, as set changes (we are among the joined).
        for (const client of message.left) this.peers.delete(client);
        this.learnPeers(message.joined);
        this.memberCount = message.count;
        if (message.truncated) this.distrustPeers(message.joined);
        return this.dispatch("presence", { truncated: message.truncated });
      case "peers.page":
        this.learnPeers(message.peers);
        this.memberCount = message.count;
        // A page ends at 32 KiB of people too (drags of many items): the rest comes next.
        if (this.namingEveryone && message.next !== null) this.listPeers(message.next, 200);
        else this.namingEveryone = false;
        return this.dispatch("presence", { next: message.next });
      case "drag": {
        // A client never seen joining is on another node (several nodes share the board):
        // it is shown while it drags and forgotten when its drag ends.
        const peer = this.peers.get(message.client) ?? { client: message.client, name: message.name, drag: null, elsewhere: true };
        peer.drag = dragState(message);
        this.peers.set(message.client, peer);
        return this.dispatch("presence", {});
      }
      case "drag.over": {
        // A placeholder move of a drag announced by its "drag" (which alone carries the items).
        const peer = this.peers.get(message.client);
        if (!peer?.drag) return undefined;
        peer.drag.over = message.over;
        return this.dispatch("presence", {});
      }
      case "drag.cleared": {
        if (message.client === this.me?.client) {
          // The server let go of our own drag (held too long): nothing more to send for it.
          this.cancelDragOver();
          return this.dispatch("drag-ended", message);
        }
        const peer = this.peers.get(message.client);
        if (peer?.elsewhere) this.peers.delete(message.client);
        else if (peer) peer.drag = null;
        return this.dispatch("presence", {});
      }
      case "drags":
      case "drags.compact": {
        // A big audience's tick (docs/protocol.md#6-presence-drag-state): each change is
        // taken as its single message, and the page hears "presence" once for them all. The
        // compact form (#compact-drags) reads as the same messages.
        let changes;
        try {
          changes = message.type === "drags" ? message.changes : expandCompactDrags(message.changes);
        } catch (error) {
          // A batch we cannot read is the server's mistake: drop it, keep the connection.
          console.info(`corkboard: ${/** @type {Error} */ (error).message}`);
          return undefined;
        }
        this.holdingPresence = true;
        try {
          for (const change of changes) this.receive(change);
        } finally {
          this.holdingPresence = false;
        }
        return this.dispatch("presence", {});
      }
      case "editing":
        if (message.item === null) this.editors.delete(message.client);
        else this.editors.set(message.client, { client: message.client, name: message.name, item: message.item });
        return this.dispatch("presence", {});
      case "error":
        // Before a close (1008, 4001) the server says why: the refusal, if it comes to that.
        this.refusal = { code: message.code, message: message.message };
        if (this.welcomed) console.info(`corkboard: ${message.message}`);
        return undefined;
      case "token.accepted":
        return this.tokenAccepted(message.tokenExpiresAt ?? null);
      case "token.refused":
        return this.tokenRefused(message);
      case "pong":
        return undefined;
      default:
        return undefined;
    }
  }

  /**
   * Adds the peers not known yet (never ourselves), keeping what we know of the others.
   * @param {{ client: string, name: string, hue?: number, drag?: import("./wire.js").WireDragState | null }[]} peers
   */
  learnPeers(peers) {
    for (const p of peers) {
      if (p.client === this.me?.client || this.peers.has(p.client)) continue;
      this.peers.set(p.client, peerOf(p, p.drag ? dragState(p.drag) : null));
    }
  }

  /**
   * After a truncated tick the names held may keep people who left and miss some who came
   * (docs/protocol.md#peers). A board small enough to name everyone (50 others) is named
   * again from a page asked for now; a bigger one keeps only the tick's names if it knew more
   * than the count. Only small boards ask: in a join storm every member would ask each tick.
   * Those known only by a drag on another node stay.
   * @param {{ client: string, name: string }[]} joined
   */
  distrustPeers(joined) {
    const others = this.memberCount - 1;
    if (others > 50 && this.peers.size <= others) return;
    for (const [client, peer] of this.peers) if (!peer.elsewhere) this.peers.delete(client);
    if (others <= 50) this.namingEveryone = this.listPeers(null, 200);
    else this.learnPeers(joined);
  }

  /**
   * Asks for a page of the board's people in join order (docs/protocol.md#peers-list); they
   * join `peers`, and a `presence` event carries `{ next }`, the cursor of the page after
   * (null on the last). Presence: nothing is sent while not connected.
   * @param {number | null} [after] the `next` of the page before
   * @param {number} [limit] 1…200
   * @returns {boolean} whether it went out
   */
  listPeers(after = null, limit = 100) {
    return this.send(after === null ? { type: "peers.list", limit } : { type: "peers.list", after, limit });
  }

  /** @param {Welcome} message */
  welcome(message) {
    const cause = message.resumed || !this.everWelcomed ? "welcome" : "reset";
    // The server says which name the others see (a token that names us wins over ours).
    this.me = { client: message.client, name: message.name ?? this.name, role: message.role };
    if (typeof message.hue === "number") this.me.hue = message.hue;
    this.welcomed = true;
    this.everWelcomed = true;
    this.refusal = null;
    this.backoff.reset();
    // The server's word wins; a JWT's exp is for an older server, which does not say.
    this.tokenExpiresAt = message.tokenExpiresAt ?? jwtExpiry(this.token);
    this.tokens?.succeeded();
    this.scheduleTokenRefresh();
    if (!message.resumed) {
      this.confirmed = { ...message.board, seq: message.seq };
      this.epoch = message.epoch;
      this.seq = message.seq;
    }
    this.peers = new Map(message.peers.map((p) => [p.client, peerOf(p, p.drag ? dragState(p.drag) : null)]));
    // The marks in progress follow the welcome, one `editing` each.
    this.editors.clear();
    this.memberCount = message.count;
    this.setState("live");
    this.startHeartbeat();
    // A small board's welcome names everyone unless its list reached 32 KiB (drags of many
    // items, docs/protocol.md#3-joining): then the rest is asked for, page by page.
    const others = message.count - 1;
    if (others <= 50 && message.peers.length < others) this.namingEveryone = this.listPeers(null, 200);
    // Everything we did that has no answer yet goes again, with the same opIds: the server
    // answers a repeat with its first outcome, so nothing is applied twice. A base seq counts
    // in its epoch's history: kept in the same one (the server reads the board as it was
    // then), rebased on the snapshot in another (the board was recreated or restored) or
    // when it was made before any welcome (counted from 0 of no history).
    for (const entry of this.queue) {
      if (entry.epoch === message.epoch) continue;
      if (needsBaseSeq(entry.request)) entry.request.baseSeq = this.seq;
      entry.epoch = message.epoch;
    }
    this.persist();
    for (const entry of this.queue) this.send(entry.request);
    if (this.editingItem !== null) this.markEditing();
    this.refresh(cause);
    this.dispatch("presence", {});
  }

  /** @param {Committed} event */
  committed(event) {
    const result = /** @type {OperationResult} */ ({ status: "committed", seq: event.seq, adjusted: event.adjusted });
    // A repeat of an event we have (the answer to a resent opId): only settle it.
    if (event.seq <= this.seq) return this.settle(event.opId, result);
    if (event.seq !== this.seq + 1 || !this.confirmed) return this.resync(`missed events before ${event.seq}`);
    try {
      this.confirmed = { ...applyOperation(this.confirmed, event.op), seq: event.seq };
    } catch (error) {
      return this.resync(/** @type {Error} */ (error).message);
    }
    this.seq = event.seq;
    const entry = this.take(event.opId);
    this.refresh("committed", { event, own: entry !== null });
    entry?.resolve?.(result);
    this.dispatch("committed", event);
    return undefined;
  }

  /**
   * Our replica disagrees with the server: start over from a fresh snapshot.
   * @param {string} reason
   */
  resync(reason) {
    console.info(`corkboard: reloading the board (${reason})`);
    this.confirmed = null;
    this.lost();
  }

  /**
   * Removes one of our operations from the queue (and storage); null when it is not ours.
   * @param {string} opId
   * @returns {PendingOperation | null}
   */
  take(opId) {
    const at = this.queue.findIndex((entry) => entry.request.opId === opId);
    if (at < 0) return null;
    const [entry] = this.queue.splice(at, 1);
    this.persist();
    return entry;
  }

  /**
   * @param {string} opId
   * @param {OperationResult} result
   */
  settle(opId, result) {
    const entry = this.take(opId);
    if (!entry) return;
    this.refresh("committed");
    entry.resolve?.(result);
  }

  /** @param {Rejected} message */
  rejected(message) {
    if (message.ref === "drag.start") return this.dispatch("rejected", { code: message.code, message: message.message ?? message.code, ref: message.ref, holder: message.holder });
    const entry = this.queue.find((e) => e.request.opId === message.opId);
    if (!entry) return undefined;
    if (RETRIED_CODES.has(message.code) && entry.retries < RETRY_LIMIT) {
      entry.retries += 1;
      this.timers.setTimeout(() => {
        if (this.queue.includes(entry)) this.send(entry.request);
      }, 500 * entry.retries);
      return undefined;
    }
    this.take(entry.request.opId);
    this.refresh("rollback");
    const op = operationOf(entry.request);
    const text = message.message ?? message.code;
    entry.reject?.(new CorkboardRejection(message.code, text, op));
    this.dispatch("rejected", { code: message.code, message: text, op });
    return undefined;
  }

  // MARK: What we show

  /**
   * Recomputes the shown board: the confirmed one with our pending operations on top.
   * @param {BoardChange["cause"]} cause
   * @param {Omit<BoardChange, "cause">} [extra]
   */
  refresh(cause, extra = {}) {
    if (!this.confirmed) return;
    /** @type {Board} */
    let board = cloneBoard(this.confirmed);
    for (const entry of this.queue) board = applyLocally(board, entry.request);
    this.board = { ...board, seq: this.seq };
    this.dispatch("board", { cause, ...extra });
  }

  persist() {
    this.store.save(this.queue.map(({ request, epoch }) => ({ request, epoch })));
  }

  // MARK: Our operations

  /**
   * Sends any operation of the protocol (without opId and baseSeq) and shows it at once;
   * kept until the server answers it, across reconnects and reloads.
   * @param {Operation} operation
   * @param {{ undoable?: boolean, opId?: string }} [options] `undoable` false for what undo and
   *   redo send (not a step of its own); `opId` the caller's own, which makes a resend from
   *   another page or after a reload safe (unique on the board for all time, 1…128 bytes)
   * @returns {Promise<OperationResult>}
   */
  submit(operation, options = {}) {
    // The step that takes it back, worked out on the board as this person saw it.
    const step = options.undoable !== false && this.board && !this.isOver ? this.history.record(this.board, [operation]) : null;
    this.opCounter += 1;
    /** @type {OperationRequest} */
    const request = { ...operation, opId: options.opId ?? `${this.opPrefix}-${this.opCounter}` };
    if (needsBaseSeq(request)) request.baseSeq = this.seq;
    /** @type {Promise<OperationResult>} */
    const outcome = new Promise((resolve, reject) => {
      if (this.isOver) return reject(new CorkboardRejection(this.state, `the connection is ${this.state}`, operation));
      this.queue.push({ request, epoch: this.epoch, retries: 0, resolve, reject });
      this.persist();
      // While the browser says offline, held (a socket that may be dead could swallow it);
      // it goes when the connection proves live or with the next welcome.
      if (this.state === "live") this.send(request);
      this.refresh("local");
      return undefined;
    });
    // A refusal is also a "rejected" event: a caller that ignores the promise (a page that
    // shows refusals from the event) must not get an "unhandled rejection" for it. What was
    // refused changed nothing, so it is no step to undo.
    outcome.catch(() => {
      if (!step) return;
      this.history.forget(step);
      this.dispatch("history", { cause: "forget" });
    });
    if (step) this.dispatch("history", { cause: "step", op: operation });
    return outcome;
  }

  // MARK: Undo and redo (undo.js: new operations resolved against the board as it is now)

  get canUndo() {
    return this.history.canUndo;
  }

  get canRedo() {
    return this.history.canRedo;
  }

  /**
   * Takes back this tab's last step (a move, insert, delete, edit or column change). Resolves
   * like an operation (`noop` when there is nothing to undo); rejects with a
   * CorkboardRejection when the step cannot be undone on the board as it is now (`gone`,
   * `exists`, `not-empty`: nothing is sent) or the server refuses what it sent.
   * @returns {Promise<OperationResult>}
   */
  undo() {
    return this.carryOut(this.board && this.history.undo(this.board), "undo");
  }

  /** Does again the last step undone (a new step clears them). Resolves and rejects like `undo()`. */
  redo() {
    return this.carryOut(this.board && this.history.redo(this.board), "redo");
  }

  /**
   * @param {import("./undo.js").Attempt | null} attempt
   * @param {"undo" | "redo"} cause
   * @returns {Promise<OperationResult>}
   */
  async carryOut(attempt, cause) {
    if (!attempt) return { status: "noop" };
    // canUndo and canRedo changed (a refused step is dropped, a sent one changes stacks).
    this.dispatch("history", { cause });
    if ("refused" in attempt) {
      const { code, message } = attempt.refused;
      this.dispatch("rejected", { code, message, op: null });
      throw new CorkboardRejection(code, message, null);
    }
    /** @type {OperationResult} */
    let result = { status: "noop" };
    try {
      // In order, each after the last's answer: a restored column must exist before its
      // cards go back into it.
      for (const op of attempt.ops) result = await this.submit(/** @type {Operation} */ (op), { undoable: false });
    } catch (error) {
      // Someone holds the card, the board is locked, too many changes: it can be tried again.
      if (error instanceof CorkboardRejection && PASSING_CODES.has(error.code)) {
        this.history.failed(attempt);
        this.dispatch("history", { cause: "retry" });
      }
      throw error;
    }
    return result;
  }

  /**
   * Moves items (in this order) before `before` in `collection` (null: the end). A move
   * drops our drag, so a placeholder update still waiting is moot.
   * @param {string[]} sources
   * @param {Destination} destination
   */
  move(sources, destination) {
    this.cancelDragOver();
    return this.submit({ type: "move", sources, destination: { collection: destination.collection, before: destination.before ?? null } });
  }

  /**
   * @param {Item[]} items
   * @param {Destination} destination
   * @param {{ opId?: string, undoable?: boolean }} [options] as for `submit`
   */
  insert(items, destination, options = {}) {
    return this.submit({ type: "insert", items, destination: { collection: destination.collection, before: destination.before ?? null } }, options);
  }

  /**
   * Whether an operation with this opId is still waiting for the server's answer (sent, or
   * kept from an earlier page of this board).
   * @param {string} opId
   */
  isPending(opId) {
    return this.queue.some((entry) => entry.request.opId === opId);
  }

  /** @param {string[]} itemIds */
  delete(itemIds) {
    return this.submit({ type: "delete", items: itemIds });
  }

  /**
   * @param {string} itemId
   * @param {{ label?: string, data?: ItemData | null }} change `data: null` removes the data
   */
  update(itemId, change) {
    return this.submit({ type: "update", item: itemId, ...change });
  }

  /**
   * @param {string} id
   * @param {string} title
   * @param {string | null} [before] the collection it goes before (null: the end)
   */
  addCollection(id, title, before = null) {
    return this.submit({ type: "collection.add", collection: { id, title }, before });
  }

  /**
   * @param {string} id
   * @param {string} title
   */
  renameCollection(id, title) {
    return this.submit({ type: "update", collection: id, title });
  }

  /**
   * @param {string} id an empty collection, or with `withItems` any: it goes with its cards
   * @param {{ withItems?: boolean }} [options]
   */
  removeCollection(id, options = {}) {
    return this.submit(options.withItems ? { type: "collection.remove", collection: id, withItems: true } : { type: "collection.remove", collection: id });
  }

  /**
   * Moves columns (in this order, together) before the column `before` (null: the end).
   * @param {string[]} ids
   * @param {string | null} [before]
   */
  moveCollections(ids, before = null) {
    return this.submit({ type: "collection.move", collections: ids, before });
  }

  /** @param {boolean} locked */
  lock(locked) {
    return this.submit({ type: "lock", locked });
  }

  // MARK: Our drag (presence: never queued; a drag belongs to the connection it started on)

  /** @param {string[]} itemIds */
  startDrag(itemIds) {
    this.cancelDragOver();
    this.send({ type: "drag.start", items: itemIds });
  }

  /**
   * Picks columns up (docs/protocol.md#6-presence-drag-state): the others see who holds them
   * and, after `columnDragOver`, the placeholder among the columns. The drop is a
   * `moveCollections` of them; `endDrag` cancels.
   * @param {string[]} collectionIds
   */
  startColumnDrag(collectionIds) {
    this.cancelDragOver();
    this.send({ type: "drag.start", collections: collectionIds });
  }

  /**
   * Where our column placeholder is: its index among the board's columns without the dragged
   * ones (0…count). Paced as `dragOver`.
   * @param {number} index
   */
  columnDragOver(index) {
    this.queueDragOver({ type: "drag.over", index });
  }

  /**
   * Where our placeholder is: at most one update per 50 ms goes out, the latest always.
   * @param {string} collection
   * @param {number} index
   */
  dragOver(collection, index) {
    this.queueDragOver({ type: "drag.over", collection, index });
  }

  /** @param {import("./wire.js").DragOverRequest} message */
  queueDragOver(message) {
    this.nextDragOver = message;
    const wait = this.lastDragOverAt + DRAG_OVER_INTERVAL_MS - this.timers.now();
    if (wait <= 0) return this.flushDragOver();
    if (this.dragOverTimer === null) this.dragOverTimer = this.timers.setTimeout(() => this.flushDragOver(), wait);
    return undefined;
  }

  flushDragOver() {
    this.timers.clearTimeout(this.dragOverTimer);
    this.dragOverTimer = null;
    if (!this.nextDragOver) return;
    this.send(this.nextDragOver);
    this.nextDragOver = null;
    this.lastDragOverAt = this.timers.now();
  }

  cancelDragOver() {
    this.timers.clearTimeout(this.dragOverTimer);
    this.dragOverTimer = null;
    this.nextDragOver = null;
  }

  /** A drag that ends without a drop. (A drop is a move, which ends the drag by itself.) */
  endDrag() {
    this.cancelDragOver();
    this.send({ type: "drag.end" });
  }

  // MARK: Our editing mark (presence: docs/protocol.md#editing-marks)

  /**
   * Tells the others that we are editing this item's label (null: that we stopped). The mark
   * is sent again every 10 s while it lasts, and after a reconnect.
   * @param {string | null} itemId
   */
  setEditing(itemId) {
    if (itemId === this.editingItem) return;
    this.editingItem = itemId;
    this.markEditing();
  }

  /** Sends our mark (or its end) and, while it lasts, schedules it again. */
  markEditing() {
    this.timers.clearTimeout(this.editingTimer);
    this.editingTimer = null;
    this.send({ type: "editing", item: this.editingItem });
    if (this.editingItem !== null) this.editingTimer = this.timers.setTimeout(() => this.markEditing(), EDITING_RENEW_MS);
  }

  /**
   * Who else is editing this item's label, if anyone.
   * @param {string} itemId
   * @returns {{ client: string, name: string } | null}
   */
  editorOf(itemId) {
    for (const mark of this.editors.values()) if (mark.item === itemId) return { client: mark.client, name: mark.name };
    return null;
  }

  // MARK: Our name

  /**
   * Joins again under another name, or colour: the others see the new one at once (we leave
   * and join, resuming from where we were; nothing of ours is lost). A token that names us
   * still wins: `me.name` says which name the server gave.
   * @param {string} name
   * @param {number | null} [hue] 0…359, null for none; absent: the one we have
   */
  rename(name, hue = this.hue) {
    const chosen = validHue(hue);
    if ((name === this.name && chosen === this.hue) || this.isOver) return;
    this.name = name;
    this.hue = chosen;
    if (!this.socket) return;
    this.dropSocket();
    this.setState("connecting");
    this.open();
  }
}

/**
 * The WebSocket endpoint for `url`: a ws(s) URL as it is (`/ws` when it names no path), an
 * http(s) origin or URL turned into its `/ws`. With `board`, its query carries `board=ID`, so
 * that a load balancer in front of several nodes sends every member of a board to the same
 * node (docs/protocol.md#2-transport); the server reads the board from `hello`.
 * @param {string | undefined} url
 * @param {string} [board]
 * @returns {string}
 */
export function endpoint(url, board) {
  if (!url) throw new TypeError("corkboard: connect() needs a url outside a web page");
  const parsed = new URL(url);
  if (parsed.protocol === "http:" || parsed.protocol === "https:") parsed.protocol = parsed.protocol === "https:" ? "wss:" : "ws:";
  else if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:") throw new TypeError(`corkboard: not a ws(s) or http(s) URL: ${url}`);
  if (parsed.pathname === "/" || parsed.pathname === "") parsed.pathname = "/ws";
  // encodeURIComponent, as the Swift and Python clients encode it: the balancer hashes the
  // text as sent, so every client must send a board's id alike.
  if (board !== undefined) parsed.search = `${parsed.search ? `${parsed.search}&` : "?"}board=${encodeURIComponent(board)}`;
  return parsed.toString();
}

/**
 * @param {{ localStorage?: StorageLike }} environment
 * @returns {StorageLike | null}
 */
function localStorageIfAny(environment) {
  try {
    return environment.localStorage ?? null;
  } catch {
    // A sandboxed frame throws on the mere access.
    return null;
  }
}

/**
 * The operation as asked for, without opId and baseSeq.
 * @param {OperationRequest} request
 * @returns {Operation}
 */
function operationOf(request) {
  const { opId: _opId, baseSeq: _baseSeq, ...op } = request;
  return /** @type {Operation} */ (op);
}

/**
 * Our own not-yet-answered operation, applied the way the server most likely will; the
 * board unchanged when it would not apply.
 * @param {Board} board
 * @param {OperationRequest} request
 * @returns {Board}
 */
function applyLocally(board, request) {
  try {
    if (request.type === "move") {
      const op = resolveMoveLocally(board, request.sources, request.destination);
      return op ? applyOperation(board, op) : board;
    }
    if (request.type === "collection.move") {
      const op = resolveColumnMoveLocally(board, request.collections, request.before);
      return op ? applyOperation(board, op) : board;
    }
    if (request.type === "insert" && request.items.some((i) => findItem(board, i.id))) return board;
    if (request.type === "delete") return applyOperation(board, { type: "delete", items: request.items.filter((id) => findItem(board, id)) });
    return applyOperation(board, operationOf(request));
  } catch {
    return board;
  }
}
