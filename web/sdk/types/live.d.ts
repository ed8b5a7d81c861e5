/**
 * The WebSocket endpoint for `url`: a ws(s) URL as it is (`/ws` when it names no path), an
 * http(s) origin or URL turned into its `/ws`. With `board`, its query carries `board=ID`, so
 * that a load balancer in front of several nodes sends every member of a board to the same
 * node (docs/protocol.md#2-transport); the server reads the board from `hello`.
 * @param {string | undefined} url
 * @param {string} [board]
 * @returns {string}
 */
export function endpoint(url: string | undefined, board?: string | undefined): string;
declare const LiveBoard_base: new () => import("./events.js").TypedEventTarget<import("./events.js").LiveBoardEventMap>;
export class LiveBoard extends LiveBoard_base {
    /** @param {ConnectOptions} options */
    constructor(options: ConnectOptions);
    boardId: string;
    name: string;
    /** The form of drag batches asked for: compact unless told (docs/protocol.md#compact-drags). */
    presence: "compact" | "full";
    /** The colour the others see us in (docs/protocol.md#colours); null: none chosen. */
    hue: number | null;
    token: string | null;
    url: string;
    WebSocket: WebSocketConstructor;
    /** @type {Timers} */
    timers: Timers;
    wallClock: () => number;
    navigator: {
        onLine: boolean;
    } | null;
    /** How `GET /api` is read when the socket never opens (`origin-check.js`); null: never. */
    fetch: import("./origin-check.js").Fetcher | null;
    /** The page's origin, which a server with --allowed-origins may refuse. */
    origin: string | null;
    /** Whether the server was asked once already why the socket does not open. */
    askedAboutOrigin: boolean;
    store: PendingStore;
    backoff: Backoff;
    /** @type {LiveState} */
    state: LiveState;
    /** @type {{ client: string, name: string, role: Role, hue?: number } | null} */
    me: {
        client: string;
        name: string;
        role: Role;
        hue?: number | undefined;
    } | null;
    /** @type {string | null} */
    epoch: string | null;
    seq: number;
    /**
     * The board at `seq`, as the server confirmed it.
     * @type {SeqBoard | null}
     */
    confirmed: SeqBoard | null;
    /**
     * What to show: `confirmed` with our pending operations applied on top.
     * @type {SeqBoard | null}
     */
    board: SeqBoard | null;
    /**
     * Our operations in the order we made them, until the server answers each; those an
     * earlier page left in storage come first.
     * @type {PendingOperation[]}
     */
    queue: PendingOperation[];
    /**
     * Everyone else on the board, by client id.
     * @type {Map<string, Peer>}
     */
    peers: Map<string, Peer>;
    /**
     * The others' editing marks, by client id: who edits which item's label
     * (docs/protocol.md#editing-marks).
     * @type {Map<string, { client: string, name: string, item: string }>}
     */
    editors: Map<string, {
        client: string;
        name: string;
        item: string;
    }>;
    /**
     * The item whose label we are editing (our mark, sent again while it lasts and after a
     * reconnect), null when none.
     * @type {string | null}
     */
    editingItem: string | null;
    /** @type {unknown} */
    editingTimer: unknown;
    /**
     * How many people are on the board, us included (docs/protocol.md#peers): on a board of
     * more than 50 the server names only some of them in `peers`; `listPeers` asks for more.
     */
    memberCount: number;
    opPrefix: string;
    opCounter: number;
    /** @type {WebSocket | null} */
    socket: WebSocket | null;
    /** Whether this socket's hello was welcomed (operations go out only then). */
    welcomed: boolean;
    everWelcomed: boolean;
    /** @type {unknown} */
    retryTimer: unknown;
    /**
     * Why the server refused our last hello (its `error`), until a welcome.
     * @type {{ code: string, message: string } | null}
     */
    refusal: {
        code: string;
        message: string;
    } | null;
    /** @type {unknown} */
    dragOverTimer: unknown;
    /** While a `drags` batch is taken: its changes' "presence" events wait for its end. */
    holdingPresence: boolean;
    /** Asking page after page for everyone on a small board (see `distrustPeers`). */
    namingEveryone: boolean;
    lastDragOverAt: number;
    /** @type {DragOverRequest | null} */
    nextDragOver: DragOverRequest | null;
    lastHeardAt: number;
    /** @type {unknown} */
    heartbeatTimer: unknown;
    /** @type {unknown} */
    deadlineTimer: unknown;
    pingCounter: number;
    /**
     * When the token in force expires (ms since 1970): the server's `tokenExpiresAt`, else a
     * JWT's `exp`; null when it does not expire or nobody knows.
     * @type {number | null}
     */
    tokenExpiresAt: number | null;
    /**
     * The provider's (connect({ getToken })), if any, with its retries and refresh timer.
     * @type {TokenKeeper | null}
     */
    tokens: TokenKeeper | null;
    /**
     * The token sent in a refresh, until the server answers it.
     * @type {string | null}
     */
    offeredToken: string | null;
    /** This tab's own steps to undo and redo (undo.js). */
    history: UndoHistory;
    /** What `getSnapshot()` gives: made again after an event, kept while nothing changed. */
    snapshots: SnapshotStore;
    onOnline: () => void;
    onOffline: () => void;
    onVisibility: () => void;
    window: EventTarget | null;
    document: (EventTarget & {
        visibilityState?: string | undefined;
    }) | null;
    /**
     * Calls `listener` after every change of the live board (whatever its event).
     * @type {(listener: () => void) => () => void} returns the function that unsubscribes it
     */
    subscribe: (listener: () => void) => () => void;
    /**
     * The live board now, as an immutable object that stays the same object until something in
     * it changes (its board, state, people, pending count, undo and redo).
     * @type {() => LiveSnapshot}
     */
    getSnapshot: () => LiveSnapshot;
    /** How many operations wait for their answer (those restored from storage included). */
    get pending(): number;
    get canEdit(): boolean;
    /** Why this client may not change the board now, in words; null when it may. */
    get readOnlyReason(): "You can view this board but not change it." | "The board is locked." | null;
    /**
     * The client holding an item in a live drag, if it is someone else.
     * @param {string} itemId
     * @returns {Peer | null}
     */
    holderOf(itemId: string): Peer | null;
    /**
     * The client holding a column in a live drag of columns, if it is someone else.
     * @param {string} collectionId
     * @returns {Peer | null}
     */
    columnHolderOf(collectionId: string): Peer | null;
    /**
     * The others' drags of columns in progress: who, which columns, and the placeholder's index
     * among the columns without the dragged ones (null before their first `drag.over`).
     * @returns {{ peer: Peer, collections: string[], index: number | null, before: string | null }[]}
     */
    get columnDrags(): {
        peer: Peer;
        collections: string[];
        index: number | null;
        before: string | null;
    }[];
    open(): void;
    /** Opens a socket and says hello on it. */
    connect(): void;
    /**
     * The socket failed before it opened: once, ask the server whether it refuses this page's
     * origin, and if it does stop with that refusal instead of retrying for ever (the retries go
     * on meanwhile, and whenever the answer is another).
     */
    askAboutOrigin(): void;
    /** Whether this connection ended for good (closed by us, or refused). */
    get isOver(): boolean;
    /**
     * The socket is gone (closed, or found dead): forget it and try again after the backoff.
     * @param {number} [atLeast] milliseconds
     */
    lost(atLeast?: number | undefined): void;
    /** Lets go of the socket (closing it if it is not closed already) and of what it carried. */
    dropSocket(): void;
    /**
     * A hint that the connection may have changed (the network came or went, the tab was
     * shown again): a live socket must answer a ping within a few seconds or is replaced; a
     * client waiting to reconnect tries now.
     */
    check(): void;
    /**
     * Sends a ping; without a word from the server within `within` ms the socket is dead.
     * @param {number} within
     */
    ping(within: number): void;
    /** Any message proves the socket alive. */
    heard(): void;
    startHeartbeat(): void;
    stopHeartbeat(): void;
    /**
     * The server refused us for good. Our waiting operations stay in storage (a page with a
     * valid token sends them) but their promises reject, with the refusal.
     * @param {{ code: string, message: string }} refusal
     */
    refuse(refusal: {
        code: string;
        message: string;
    }): void;
    /** Leaves the board: closes the socket and stops every timer. Waiting operations stay in storage. */
    close(): void;
    detach(): void;
    /** @param {LiveState} state */
    setState(state: LiveState): void;
    /**
     * @template {keyof LiveBoardEventMap} K
     * @param {K} type
     * @param {LiveBoardEventMap[K]["detail"]} detail
     */
    dispatch<K extends keyof import("./events.js").LiveBoardEventMap>(type: K, detail: import("./events.js").LiveBoardEventMap[K]["detail"]): void;
    /**
     * @param {ClientMessage} message
     * @returns {boolean} whether it went out (only on a welcomed socket)
     */
    send(message: ClientMessage): boolean;
    /** Asks the provider for a new token a little before the one in force expires. */
    scheduleTokenRefresh(): void;
    /**
     * Sends a new token on the open socket. Gone meanwhile: the next connect asks for one.
     * @param {string} token
     */
    offerToken(token: string): void;
    /** @param {number | null} expiresAt */
    tokenAccepted(expiresAt: number | null): void;
    /**
     * The previous token stays in force until its own expiry: ask again, with backoff, until
     * then (after it the server closes with 4001 and the reconnect asks anyway).
     * @param {TokenRefused} message
     */
    tokenRefused(message: TokenRefused): void;
    /** @param {ServerMessage} message */
    receive(message: ServerMessage): void;
    /**
     * Adds the peers not known yet (never ourselves), keeping what we know of the others.
     * @param {{ client: string, name: string, hue?: number, drag?: import("./wire.js").WireDragState | null }[]} peers
     */
    learnPeers(peers: {
        client: string;
        name: string;
        hue?: number;
        drag?: import("./wire.js").WireDragState | null;
    }[]): void;
    /**
     * After a truncated tick the names held may keep people who left and miss some who came
     * (docs/protocol.md#peers). A board small enough to name everyone (50 others) is named
     * again from a page asked for now; a bigger one keeps only the tick's names if it knew more
     * than the count. Only small boards ask: in a join storm every member would ask each tick.
     * Those known only by a drag on another node stay.
     * @param {{ client: string, name: string }[]} joined
     */
    distrustPeers(joined: {
        client: string;
        name: string;
    }[]): void;
    /**
     * Asks for a page of the board's people in join order (docs/protocol.md#peers-list); they
     * join `peers`, and a `presence` event carries `{ next }`, the cursor of the page after
     * (null on the last). Presence: nothing is sent while not connected.
     * @param {number | null} [after] the `next` of the page before
     * @param {number} [limit] 1…200
     * @returns {boolean} whether it went out
     */
    listPeers(after?: number | null | undefined, limit?: number | undefined): boolean;
    /** @param {Welcome} message */
    welcome(message: Welcome): void;
    /** @param {Committed} event */
    committed(event: Committed): void;
    /**
     * Our replica disagrees with the server: start over from a fresh snapshot.
     * @param {string} reason
     */
    resync(reason: string): void;
    /**
     * Removes one of our operations from the queue (and storage); null when it is not ours.
     * @param {string} opId
     * @returns {PendingOperation | null}
     */
    take(opId: string): PendingOperation | null;
    /**
     * @param {string} opId
     * @param {OperationResult} result
     */
    settle(opId: string, result: OperationResult): void;
    /** @param {Rejected} message */
    rejected(message: Rejected): void;
    /**
     * Recomputes the shown board: the confirmed one with our pending operations on top.
     * @param {BoardChange["cause"]} cause
     * @param {Omit<BoardChange, "cause">} [extra]
     */
    refresh(cause: BoardChange["cause"], extra?: Omit<import("./events.js").BoardChange, "cause"> | undefined): void;
    persist(): void;
    /**
     * Sends any operation of the protocol (without opId and baseSeq) and shows it at once;
     * kept until the server answers it, across reconnects and reloads.
     * @param {Operation} operation
     * @param {{ undoable?: boolean, opId?: string }} [options] `undoable` false for what undo and
     *   redo send (not a step of its own); `opId` the caller's own, which makes a resend from
     *   another page or after a reload safe (unique on the board for all time, 1…128 bytes)
     * @returns {Promise<OperationResult>}
     */
    submit(operation: Operation, options?: {
        undoable?: boolean | undefined;
        opId?: string | undefined;
    } | undefined): Promise<OperationResult>;
    get canUndo(): boolean;
    get canRedo(): boolean;
    /**
     * Takes back this tab's last step (a move, insert, delete, edit or column change). Resolves
     * like an operation (`noop` when there is nothing to undo); rejects with a
     * CorkboardRejection when the step cannot be undone on the board as it is now (`gone`,
     * `exists`, `not-empty`: nothing is sent) or the server refuses what it sent.
     * @returns {Promise<OperationResult>}
     */
    undo(): Promise<OperationResult>;
    /** Does again the last step undone (a new step clears them). Resolves and rejects like `undo()`. */
    redo(): Promise<OperationResult>;
    /**
     * @param {import("./undo.js").Attempt | null} attempt
     * @param {"undo" | "redo"} cause
     * @returns {Promise<OperationResult>}
     */
    carryOut(attempt: import("./undo.js").Attempt | null, cause: "undo" | "redo"): Promise<OperationResult>;
    /**
     * Moves items (in this order) before `before` in `collection` (null: the end). A move
     * drops our drag, so a placeholder update still waiting is moot.
     * @param {string[]} sources
     * @param {Destination} destination
     */
    move(sources: string[], destination: Destination): Promise<OperationResult>;
    /**
     * @param {Item[]} items
     * @param {Destination} destination
     * @param {{ opId?: string, undoable?: boolean }} [options] as for `submit`
     */
    insert(items: Item[], destination: Destination, options?: {
        opId?: string | undefined;
        undoable?: boolean | undefined;
    } | undefined): Promise<OperationResult>;
    /**
     * Whether an operation with this opId is still waiting for the server's answer (sent, or
     * kept from an earlier page of this board).
     * @param {string} opId
     */
    isPending(opId: string): boolean;
    /** @param {string[]} itemIds */
    delete(itemIds: string[]): Promise<OperationResult>;
    /**
     * @param {string} itemId
     * @param {{ label?: string, data?: ItemData | null }} change `data: null` removes the data
     */
    update(itemId: string, change: {
        label?: string;
        data?: ItemData | null;
    }): Promise<OperationResult>;
    /**
     * @param {string} id
     * @param {string} title
     * @param {string | null} [before] the collection it goes before (null: the end)
     */
    addCollection(id: string, title: string, before?: string | null | undefined): Promise<OperationResult>;
    /**
     * @param {string} id
     * @param {string} title
     */
    renameCollection(id: string, title: string): Promise<OperationResult>;
    /**
     * @param {string} id an empty collection, or with `withItems` any: it goes with its cards
     * @param {{ withItems?: boolean }} [options]
     */
    removeCollection(id: string, options?: {
        withItems?: boolean | undefined;
    } | undefined): Promise<OperationResult>;
    /**
     * Moves columns (in this order, together) before the column `before` (null: the end).
     * @param {string[]} ids
     * @param {string | null} [before]
     */
    moveCollections(ids: string[], before?: string | null | undefined): Promise<OperationResult>;
    /** @param {boolean} locked */
    lock(locked: boolean): Promise<OperationResult>;
    /** @param {string[]} itemIds */
    startDrag(itemIds: string[]): void;
    /**
     * Picks columns up (docs/protocol.md#6-presence-drag-state): the others see who holds them
     * and, after `columnDragOver`, the placeholder among the columns. The drop is a
     * `moveCollections` of them; `endDrag` cancels.
     * @param {string[]} collectionIds
     */
    startColumnDrag(collectionIds: string[]): void;
    /**
     * Where our column placeholder is: its index among the board's columns without the dragged
     * ones (0…count). Paced as `dragOver`.
     * @param {number} index
     */
    columnDragOver(index: number): void;
    /**
     * Where our placeholder is: at most one update per 50 ms goes out, the latest always.
     * @param {string} collection
     * @param {number} index
     */
    dragOver(collection: string, index: number): void;
    /** @param {import("./wire.js").DragOverRequest} message */
    queueDragOver(message: import("./wire.js").DragOverRequest): void;
    flushDragOver(): void;
    cancelDragOver(): void;
    /** A drag that ends without a drop. (A drop is a move, which ends the drag by itself.) */
    endDrag(): void;
    /**
     * Tells the others that we are editing this item's label (null: that we stopped). The mark
     * is sent again every 10 s while it lasts, and after a reconnect.
     * @param {string | null} itemId
     */
    setEditing(itemId: string | null): void;
    /** Sends our mark (or its end) and, while it lasts, schedules it again. */
    markEditing(): void;
    /**
     * Who else is editing this item's label, if anyone.
     * @param {string} itemId
     * @returns {{ client: string, name: string } | null}
     */
    editorOf(itemId: string): {
        client: string;
        name: string;
    } | null;
    /**
     * Joins again under another name, or colour: the others see the new one at once (we leave
     * and join, resuming from where we were; nothing of ours is lost). A token that names us
     * still wins: `me.name` says which name the server gave.
     * @param {string} name
     * @param {number | null} [hue] 0…359, null for none; absent: the one we have
     */
    rename(name: string, hue?: number | null | undefined): void;
}
export type Board = import("./replica.js").Board;
export type Operation = import("./replica.js").Operation;
export type Destination = import("./replica.js").Destination;
export type Item = import("./replica.js").Item;
export type ItemData = import("./replica.js").ItemData;
export type Role = import("./wire.js").Role;
export type Hello = import("./wire.js").Hello;
export type OperationRequest = import("./wire.js").OperationRequest;
export type ClientMessage = import("./wire.js").ClientMessage;
export type ServerMessage = import("./wire.js").ServerMessage;
export type DragState = import("./wire.js").DragState;
export type Welcome = import("./wire.js").Welcome;
export type Committed = import("./wire.js").Committed;
export type Noop = import("./wire.js").Noop;
export type Rejected = import("./wire.js").Rejected;
export type Peer = import("./wire.js").Peer;
export type DragOverRequest = import("./wire.js").DragOverRequest;
export type TokenRefused = import("./wire.js").TokenRefused;
export type StorageLike = import("./pending-store.js").StorageLike;
export type TokenProvider = import("./token-keeper.js").TokenProvider;
export type LiveState = import("./events.js").LiveState;
export type BoardChange = import("./events.js").BoardChange;
export type LiveBoardEventMap = import("./events.js").LiveBoardEventMap;
export type LiveSnapshot = import("./live-snapshot.js").LiveSnapshot;
export type SeqBoard = Board & {
    seq: number;
};
/**
 * What an operation's promise resolves with.
 */
export type OperationResult = {
    status: "committed";
    seq: number;
    adjusted: boolean;
} | {
    status: "noop";
};
/**
 * One of our operations until its answer: the request as sent and the epoch its baseSeq
 * counts in (both kept in storage), and the promise's settlers (none for one restored from
 * storage: its page is gone).
 */
export type PendingOperation = {
    request: OperationRequest;
    epoch: string | null;
    retries: number;
    resolve: ((result: OperationResult) => void) | null;
    reject: ((error: CorkboardRejection) => void) | null;
};
/**
 * The clock and timers (injected by tests). `now` is a monotonic clock; `wallClock` (ms since
 * 1970, default `Date.now`) is read only against the server's token expiry times.
 */
export type Timers = {
    setTimeout: (fn: () => void, ms: number) => unknown;
    clearTimeout: (id: unknown) => void;
    now: () => number;
    wallClock?: (() => number) | undefined;
};
export type WebSocketConstructor = {
    new (url: string, protocols?: string | string[]): WebSocket;
    readonly OPEN: number;
};
/**
 * What connect() takes; only `board` is required. `getToken`, a token provider, is asked before
 * each connect and before the token expires (then `token` is not used).
 */
export type ConnectOptions = {
    board: string;
    name?: string;
    token?: string | null;
    getToken?: TokenProvider;
    url?: string;
    storage?: StorageLike | null;
    WebSocket?: WebSocketConstructor;
    timers?: Timers;
    random?: () => number;
    window?: EventTarget | null;
    document?: (EventTarget & {
        visibilityState?: string;
    }) | null;
    navigator?: {
        onLine: boolean;
    } | null;
    fetch?: import("./origin-check.js").Fetcher | null;
    presence?: "compact" | "full";
    hue?: number | null;
};
import { PendingStore } from "./pending-store.js";
import { Backoff } from "./backoff.js";
import { TokenKeeper } from "./token-keeper.js";
import { UndoHistory } from "./undo.js";
import { SnapshotStore } from "./live-snapshot.js";
import { CorkboardRejection } from "./rejection.js";
export {};
