// @ts-check
// A live board as an external store (docs/sdk.md#the-store-api): `subscribe(listener)` returns
// its unsubscribe, and `getSnapshot()` an immutable object whose identity changes only when
// something in it changed. That is the contract of React's useSyncExternalStore (which calls
// getSnapshot on every render and re-renders when the identity differs) and what a Vue
// shallowRef needs. The live board tells this store after each of its events.

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
  constructor(read) {
    this.read = read;
    /** @type {Set<() => void>} */
    this.listeners = new Set();
    /** @type {LiveSnapshot | null} */
    this.current = null;
    /** Whether an event came since `current` was made. */
    this.stale = true;
    /** Peers change in place: copied again only after a "presence" event. */
    this.peersStale = true;
    /** @type {readonly Readonly<Peer>[]} */
    this.peers = Object.freeze([]);
  }

  /**
   * @param {() => void} listener called after every change (synchronously, after the event)
   * @returns {() => void} stops calling it
   */
  subscribe(listener) {
    // Wrapped, so that the same function subscribed twice is two subscriptions, each undone by its own unsubscribe.
    const entry = () => listener();
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /**
   * The live board sent an event of this type: the snapshot may differ now.
   * @param {string} type
   */
  changed(type) {
    this.stale = true;
    if (type === "presence") this.peersStale = true;
    for (const listener of [...this.listeners]) listener();
  }

  /** @returns {LiveSnapshot} the same object until something in it changes */
  get() {
    if (!this.stale && this.current) return this.current;
    this.stale = false;
    const fields = this.read();
    if (this.peersStale) {
      this.peersStale = false;
      this.peers = Object.freeze([...fields.peers.values()].map(copyPeer));
    }
    /** @type {LiveSnapshot} */
    const next = Object.freeze({ ...fields, peers: this.peers });
    const previous = this.current;
    if (previous && Object.keys(next).every((key) => Object.is(next[/** @type {keyof LiveSnapshot} */ (key)], previous[/** @type {keyof LiveSnapshot} */ (key)]))) return previous;
    this.current = next;
    return next;
  }
}

/**
 * @param {Peer} peer
 * @returns {Readonly<Peer>}
 */
function copyPeer(peer) {
  const drag = peer.drag && Object.freeze({ items: Object.freeze([...peer.drag.items]), over: peer.drag.over && Object.freeze({ ...peer.drag.over }) });
  return Object.freeze({ ...peer, drag: /** @type {Peer["drag"]} */ (drag) });
}
