/** @typedef {import("./events.js").LiveState} LiveState */
/** @typedef {import("./events.js").Refusal} Refusal */
/** @typedef {import("./replica.js").Board} Board */
/** @typedef {import("./wire.js").Peer} Peer */
/** @typedef {import("./wire.js").Role} Role */
/**
 * One moment of a live board, frozen (its `board` is the live board's own: treat it as
 * read-only, as `live.board`). `peers` is everyone else, copied (the live board updates its
 * own in place).
 * @typedef {{
 *   readonly state: LiveState,
 *   readonly board: (Board & { seq: number }) | null,
 *   readonly seq: number,
 *   readonly pending: number,
 *   readonly me: { client: string, name: string, role: Role } | null,
 *   readonly peers: readonly Readonly<Peer>[],
 *   readonly memberCount: number,
 *   readonly canEdit: boolean,
 *   readonly readOnlyReason: string | null,
 *   readonly canUndo: boolean,
 *   readonly canRedo: boolean,
 *   readonly refusal: Refusal | null,
 *   readonly tokenExpiresAt: number | null,
 * }} LiveSnapshot
 */
/**
 * What the live board is now: a snapshot's fields, with its peers as it keeps them.
 * @typedef {Omit<LiveSnapshot, "peers"> & { peers: Map<string, Peer> }} LiveFields
 */
export class SnapshotStore {
    /** @param {() => LiveFields} read the live board's fields now */
    constructor(read: () => LiveFields);
    read: () => LiveFields;
    /** @type {Set<() => void>} */
    listeners: Set<() => void>;
    /** @type {LiveSnapshot | null} */
    current: LiveSnapshot | null;
    /** Whether an event came since `current` was made. */
    stale: boolean;
    /** Peers change in place: copied again only after a "presence" event. */
    peersStale: boolean;
    /** @type {readonly Readonly<Peer>[]} */
    peers: readonly Readonly<Peer>[];
    /**
     * @param {() => void} listener called after every change (synchronously, after the event)
     * @returns {() => void} stops calling it
     */
    subscribe(listener: () => void): () => void;
    /**
     * The live board sent an event of this type: the snapshot may differ now.
     * @param {string} type
     */
    changed(type: string): void;
    /** @returns {LiveSnapshot} the same object until something in it changes */
    get(): LiveSnapshot;
}
export type LiveState = import("./events.js").LiveState;
export type Refusal = import("./events.js").Refusal;
export type Board = import("./replica.js").Board;
export type Peer = import("./wire.js").Peer;
export type Role = import("./wire.js").Role;
/**
 * One moment of a live board, frozen (its `board` is the live board's own: treat it as
 * read-only, as `live.board`). `peers` is everyone else, copied (the live board updates its
 * own in place).
 */
export type LiveSnapshot = {
    readonly state: LiveState;
    readonly board: (Board & {
        seq: number;
    }) | null;
    readonly seq: number;
    readonly pending: number;
    readonly me: {
        client: string;
        name: string;
        role: Role;
    } | null;
    readonly peers: readonly Readonly<Peer>[];
    readonly memberCount: number;
    readonly canEdit: boolean;
    readonly readOnlyReason: string | null;
    readonly canUndo: boolean;
    readonly canRedo: boolean;
    readonly refusal: Refusal | null;
    readonly tokenExpiresAt: number | null;
};
/**
 * What the live board is now: a snapshot's fields, with its peers as it keeps them.
 */
export type LiveFields = Omit<LiveSnapshot, "peers"> & {
    peers: Map<string, Peer>;
};
