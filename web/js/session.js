// @ts-check
// One browser tab's membership of one board: the WebSocket (with reconnect and resume),
// the replica the server confirmed, our operations still waiting for their answer, and
// the others' presence. No DOM here: the page listens to the events it dispatches.
//
// Events: "state" (connection state changed), "board" (what to show changed: detail.cause
// is "welcome", "committed", "local" or "rollback"), "presence", "rejected" (one of our
// operations or drags was refused; detail is the message), "drag-ended" (the server let go
// of our own drag: detail is its drag.cleared, reason "expired"), "fatal" (the
// server refused us for good, detail.message).

import { applyOperation, cloneBoard, findItem, resolveMoveLocally } from "./replica.js";

/** @typedef {import("./replica.js").Board} Board */
/** @typedef {import("./replica.js").Operation} Operation */
/** @typedef {import("./replica.js").Destination} Destination */

// MARK: The wire (docs/protocol.md#3-joining, #4-operations, #6-presence-drag-state)

/** @typedef {"viewer" | "editor" | "owner"} Role */
/** @typedef {{ type: "hello", board: string, name: string, token?: string, resume?: { epoch: string, seq: number } }} Hello */
/**
 * An operation as we send it: with its opId, and a baseSeq when it needs one.
 * @typedef {Operation & { opId: string, baseSeq?: number }} OperationRequest
 */
/** @typedef {{ type: "drag.start", items: string[] }} DragStartRequest */
/** @typedef {{ type: "drag.over", collection: string, index: number }} DragOverRequest */
/** @typedef {{ type: "drag.end" }} DragEndRequest */
/** @typedef {Hello | OperationRequest | DragStartRequest | DragOverRequest | DragEndRequest} ClientMessage */

/**
 * A drag's placeholder: the index in that list with the dragged items left out, and the id
 * there (`before`, null for the end) when the server tells of someone else's.
 * @typedef {{ collection: string, index: number, before?: string | null }} Placeholder
 */
/** @typedef {{ items: string[], over: Placeholder | null }} DragState */
/**
 * Someone else on the board; `elsewhere` when we only know them by a drag (another node).
 * @typedef {{ client: string, name: string, drag: DragState | null, elsewhere?: boolean }} Peer
 */
/**
 * `board` is there unless the server resumed us from our `(epoch, seq)`.
 * @typedef {{ type: "welcome", client: string, role: Role, epoch: string, seq: number,
 *   peers: { client: string, name: string, drag?: DragState | null }[] }
 *   & ({ resumed: false, board: Board } | { resumed: true })} Welcome
 */
/** @typedef {{ type: "committed", seq: number, opId: string, client: string, adjusted: boolean, op: Operation, noop?: false }} Committed */
/** @typedef {{ type: "committed", noop: true, opId: string, seq: number }} Noop */
/** @typedef {"invalid" | "gone" | "forbidden" | "locked" | "busy" | "rate-limited" | "unavailable"} RejectionCode */
/**
 * The refusal of one of our operations (`opId`) or of our `drag.start` (`ref`, and the
 * `holder` when it is `busy`).
 * @typedef {{ type: "rejected", code: RejectionCode, message?: string, opId?: string, ref?: "drag.start", holder?: string }} Rejected
 */
/** @typedef {{ type: "peer.joined", client: string, name: string }} PeerJoined */
/** @typedef {{ type: "peer.left", client: string }} PeerLeft */
/** @typedef {{ type: "drag", client: string, name: string, items: string[], over?: Placeholder | null }} DragStarted */
/** @typedef {{ type: "drag.over", client: string, over: Placeholder }} DragMoved */
/** @typedef {"drop" | "cancel" | "left" | "timeout" | "deleted" | "expired"} DragClearReason */
/** @typedef {{ type: "drag.cleared", client: string, reason: DragClearReason }} DragCleared */
/** @typedef {{ type: "error", code: string, message: string }} ErrorMessage */
/**
 * @typedef {Welcome | Committed | Noop | Rejected | PeerJoined | PeerLeft | DragStarted | DragMoved
 *   | DragCleared | ErrorMessage} ServerMessage
 */

// MARK: The session

/** @typedef {"connecting" | "connected" | "reconnecting" | "offline"} ConnectionState */
/** @typedef {{ request: OperationRequest, retries: number }} PendingOperation */
/**
 * The detail of a "board" event: why the shown board changed, and for a `committed` event
 * the event and whether it answers one of ours.
 * @typedef {{ cause: "welcome" | "committed" | "local" | "rollback", event?: Committed, own?: boolean }} BoardChange
 */

/**
 * Move, insert, delete and an item's update carry the seq they were made at
 * (docs/protocol.md#4-operations).
 * @param {Operation} request
 */
function needsBaseSeq(request) {
  return ["move", "insert", "delete"].includes(request.type) || (request.type === "update" && request.item !== undefined);
}
const RETRIED_CODES = new Set(["rate-limited", "unavailable"]);
const DRAG_OVER_INTERVAL_MS = 50;

export class BoardSession extends EventTarget {
  /** @param {{ boardId: string, name: string, token?: string | null }} who */
  constructor({ boardId, name, token = null }) {
    super();
    this.boardId = boardId;
    this.name = name;
    this.token = token;
    /** @type {ConnectionState} */
    this.state = "connecting";
    /** @type {string | null} */
    this.clientId = null;
    /** @type {Role | null} */
    this.role = null;
    /** @type {string | null} */
    this.epoch = null;
    this.seq = 0;
    /**
     * The board at `seq`, as the server confirmed it.
     * @type {Board | null}
     */
    this.confirmed = null;
    /**
     * What we show: `confirmed` with our pending operations applied on top.
     * @type {Board | null}
     */
    this.board = null;
    /**
     * Our operations in the order we made them, until the server answers each.
     * @type {PendingOperation[]}
     */
    this.pending = [];
    /**
     * Everyone else on the board, by client id.
     * @type {Map<string, Peer>}
     */
    this.peers = new Map();
    this.opPrefix = Math.random().toString(36).slice(2, 8);
    this.opCounter = 0;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.attempts = 0;
    /** @type {number | null} */
    this.retryTimer = null;
    this.closedForGood = false;
    /**
     * Why the server refused our last `hello` (its `error`), until a welcome.
     * @type {string | null}
     */
    this.refusal = null;
    /** @type {string | null} */
    this.refusalCode = null;
    /** @type {number | null} */
    this.dragOverTimer = null;
    this.lastDragOverAt = 0;
    /** @type {DragOverRequest | null} */
    this.nextDragOver = null;
    window.addEventListener("online", () => this.reconnectNow());
    window.addEventListener("offline", () => this.setState("offline"));
  }

  get canEdit() {
    return this.confirmed !== null && this.readOnlyReason === null;
  }

  /** Why this client may not change the board now, in words; null when it may. */
  get readOnlyReason() {
    if (this.role === "viewer") return "You can view this board but not change it.";
    if (this.confirmed?.locked) return "The board is locked.";
    return null;
  }

  // MARK: Connection

  connect() {
    if (this.closedForGood) return;
    clearTimeout(/** @type {number | undefined} */ (this.retryTimer));
    if (!navigator.onLine) return this.setState("offline");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws`, ["corkboard.v1"]);
    this.socket = socket;
    socket.addEventListener("open", () => {
      /** @type {Hello} */
      const hello = { type: "hello", board: this.boardId, name: this.name };
      if (this.token) hello.token = this.token;
      // A welcome sets the epoch with the board it confirms.
      if (this.confirmed) hello.resume = { epoch: /** @type {string} */ (this.epoch), seq: this.seq };
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(message);
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.peers.clear();
      this.dispatch("presence");
      if (this.closedForGood) return;
      // 1008 is a refusal of hello (unknown board, bad token): retrying cannot help.
      if (event.code === 1008) return this.fail(this.refusal ?? "The server refused to open this board.", this.refusalCode);
      // 1001: the server is going away (a restart, a deploy). Give it a moment to come back
      // rather than knocking on a closed port (every refused attempt is an error in the
      // browser's console); 1013: the board could not be loaded, try again later.
      this.scheduleReconnect(event.code === 1001 || event.code === 1013 ? 2000 : 0);
    });
  }

  scheduleReconnect(atLeast = 0) {
    if (!navigator.onLine) return this.setState("offline");
    this.setState("reconnecting");
    const backoff = Math.min(8000, 500 * 2 ** this.attempts);
    const delay = Math.max(atLeast, backoff) * (0.8 + Math.random() * 0.4);
    this.attempts += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.socket || this.closedForGood) return;
    this.attempts = 0;
    this.connect();
  }

  /**
   * @param {string} message
   * @param {string | null} [code] the `error` code of a refused `hello`
   */
  fail(message, code = null) {
    this.closedForGood = true;
    this.setState("offline");
    this.dispatch("fatal", { message, code });
  }

  /** @param {ConnectionState} state */
  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.dispatch("state");
  }

  /**
   * @param {string} type
   * @param {object} [detail]
   */
  dispatch(type, detail = {}) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /**
   * @param {ClientMessage} message
   * @returns {boolean} whether it went out (it does only while connected)
   */
  sendRaw(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN && this.state === "connected") {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  // MARK: Messages from the server

  /** @param {ServerMessage} message */
  receive(message) {
    switch (message.type) {
      case "welcome":
        return this.welcome(message);
      case "committed":
        return message.noop ? this.settle(message.opId) : this.committed(message);
      case "rejected":
        return this.rejected(message);
      case "peer.joined":
        this.peers.set(message.client, { client: message.client, name: message.name, drag: null });
        return this.dispatch("presence");
      case "peer.left":
        this.peers.delete(message.client);
        return this.dispatch("presence");
      case "drag": {
        // A client never seen joining is on another node (several nodes share the board):
        // it is shown while it drags and forgotten when its drag ends.
        const peer = this.peers.get(message.client) ?? { client: message.client, name: message.name, drag: null, elsewhere: true };
        peer.drag = { items: message.items, over: message.over ?? null };
        this.peers.set(message.client, peer);
        return this.dispatch("presence");
      }
      case "drag.over": {
        // A placeholder move of a drag announced by its "drag" (which alone carries the items).
        const peer = this.peers.get(message.client);
        if (!peer?.drag) return undefined;
        peer.drag.over = message.over;
        return this.dispatch("presence");
      }
      case "drag.cleared": {
        if (message.client === this.clientId) {
          // The server let go of our own drag (held too long): nothing more to send for it.
          this.cancelDragOver();
          return this.dispatch("drag-ended", message);
        }
        const peer = this.peers.get(message.client);
        if (peer?.elsewhere) this.peers.delete(message.client);
        else if (peer) peer.drag = null;
        return this.dispatch("presence");
      }
      case "error":
        if (this.state !== "connected") {
          this.refusal = message.message;
          this.refusalCode = message.code;
        }
        else console.info(`corkboard: ${message.message}`);
        return undefined;
      default:
        return undefined;
    }
  }

  /** @param {Welcome} message */
  welcome(message) {
    this.clientId = message.client;
    this.role = message.role;
    this.attempts = 0;
    if (!message.resumed) {
      this.confirmed = message.board;
      this.epoch = message.epoch;
      this.seq = message.seq;
    }
    this.peers = new Map(message.peers.map((p) => [p.client, { client: p.client, name: p.name, drag: p.drag ?? null }]));
    this.setState("connected");
    // Everything we did that has no answer yet goes again, with the same opIds: the server
    // answers a repeat with its first outcome, so nothing is applied twice. After a fresh
    // snapshot our old base seqs belong to another history: base them on the new one.
    for (const entry of this.pending) {
      if (!message.resumed && needsBaseSeq(entry.request)) entry.request.baseSeq = this.seq;
      this.sendRaw(entry.request);
    }
    this.refresh("welcome");
    this.dispatch("presence");
  }

  /** @param {Committed} event */
  committed(event) {
    if (event.seq <= this.seq) {
      // A repeat of an event we have (the answer to a resent opId): only settle it.
      return this.settle(event.opId);
    }
    if (event.seq !== this.seq + 1) return this.resync(`missed events before ${event.seq}`);
    try {
      // Null only between a resync and its socket's close: applying to it throws, and the
      // catch below asks for the fresh snapshot that is already on its way.
      this.confirmed = applyOperation(/** @type {Board} */ (this.confirmed), event.op);
    } catch (error) {
      return this.resync(/** @type {Error} */ (error).message);
    }
    this.seq = event.seq;
    this.pending = this.pending.filter((entry) => entry.request.opId !== event.opId);
    this.refresh("committed", { event, own: this.isOwn(event.opId) });
  }

  /**
   * Our replica disagrees with the server: start over from a fresh snapshot.
   * @param {string} reason
   */
  resync(reason) {
    console.info(`corkboard: reloading the board (${reason})`);
    this.confirmed = null;
    this.socket?.close(4000, "resync");
  }

  /** @param {unknown} opId */
  isOwn(opId) {
    return typeof opId === "string" && opId.startsWith(`${this.opPrefix}-`);
  }

  /** @param {string} opId */
  settle(opId) {
    const before = this.pending.length;
    this.pending = this.pending.filter((entry) => entry.request.opId !== opId);
    if (this.pending.length !== before) this.refresh("committed");
  }

  /** @param {Rejected} message */
  rejected(message) {
    if (message.ref === "drag.start") return this.dispatch("rejected", message);
    const entry = this.pending.find((e) => e.request.opId === message.opId);
    if (!entry) return undefined;
    // Transient refusals of the server's own making are retried with the same opId.
    if (RETRIED_CODES.has(message.code) && entry.retries < 4) {
      entry.retries += 1;
      setTimeout(() => this.sendRaw(entry.request), 500 * entry.retries);
      return undefined;
    }
    this.pending = this.pending.filter((e) => e !== entry);
    this.refresh("rollback");
    this.dispatch("rejected", message);
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
    let board = cloneBoard(this.confirmed);
    for (const entry of this.pending) board = applyLocally(board, entry.request) ?? board;
    this.board = board;
    this.dispatch("board", { cause, ...extra });
  }

  // MARK: Our operations

  /**
   * Sends an operation (fields without opId and baseSeq) and shows it at once.
   * @param {Operation} operation
   * @returns {string} its opId
   */
  submit(operation) {
    this.opCounter += 1;
    /** @type {OperationRequest} */
    const request = { ...operation, opId: `${this.opPrefix}-${this.opCounter}` };
    if (needsBaseSeq(request)) request.baseSeq = this.seq;
    this.pending.push({ request, retries: 0 });
    this.sendRaw(request);
    this.refresh("local");
    return request.opId;
  }

  /**
   * A move; when it drops our drag, a placeholder update still waiting is moot.
   * @param {string[]} sources
   * @param {Destination} destination
   */
  move(sources, destination) {
    this.cancelDragOver();
    return this.submit({ type: "move", sources, destination });
  }

  /** @param {string[]} items */
  dragStart(items) {
    this.cancelDragOver();
    this.sendRaw({ type: "drag.start", items });
  }

  /**
   * Placeholder updates, at most one per 50 ms; the latest is always sent.
   * @param {string} collection
   * @param {number} index
   */
  dragOver(collection, index) {
    this.nextDragOver = { type: "drag.over", collection, index };
    const wait = this.lastDragOverAt + DRAG_OVER_INTERVAL_MS - performance.now();
    if (wait <= 0) return this.flushDragOver();
    if (!this.dragOverTimer) this.dragOverTimer = setTimeout(() => this.flushDragOver(), wait);
    return undefined;
  }

  flushDragOver() {
    clearTimeout(/** @type {number | undefined} */ (this.dragOverTimer));
    this.dragOverTimer = null;
    if (!this.nextDragOver) return;
    this.sendRaw(this.nextDragOver);
    this.nextDragOver = null;
    this.lastDragOverAt = performance.now();
  }

  cancelDragOver() {
    clearTimeout(/** @type {number | undefined} */ (this.dragOverTimer));
    this.dragOverTimer = null;
    this.nextDragOver = null;
  }

  /** A drag that ends without a drop. (A drop is a move, which ends the drag by itself.) */
  dragEnd() {
    this.cancelDragOver();
    this.sendRaw({ type: "drag.end" });
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
}

/**
 * Our own not-yet-answered operation, applied the way the server most likely will.
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
    if (request.type === "insert" && request.items.some((i) => findItem(board, i.id))) return board;
    if (request.type === "delete") return applyOperation(board, { type: "delete", items: request.items.filter((id) => findItem(board, id)) });
    const { opId: _opId, baseSeq: _baseSeq, ...op } = request;
    return applyOperation(board, op);
  } catch {
    return board;
  }
}
