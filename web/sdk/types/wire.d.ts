export type Board = import("./replica.js").Board;
export type Operation = import("./replica.js").Operation;
export type Role = "viewer" | "editor" | "owner";
/**
 * `presence: "compact"` asks for drag batches as `drags.compact` (docs/protocol.md#compact-drags);
 * `hue` (0…359) is the colour the others see us in (docs/protocol.md#colours).
 */
export type Hello = {
    type: "hello";
    board: string;
    name: string;
    token?: string;
    resume?: {
        epoch: string;
        seq: number;
    };
    presence?: "compact" | "full";
    hue?: number;
};
/**
 * An operation as we send it: with its opId, and a baseSeq when it needs one.
 */
export type OperationRequest = Operation & {
    opId: string;
    baseSeq?: number;
};
export type DragStartRequest = {
    type: "drag.start";
    items: string[];
} | {
    type: "drag.start";
    collections: string[];
};
export type DragOverRequest = {
    type: "drag.over";
    collection?: string;
    index: number;
};
export type DragEndRequest = {
    type: "drag.end";
};
/**
 * Our editing mark: the item whose label we are editing, null when we stopped
 * (docs/protocol.md#editing-marks).
 */
export type EditingRequest = {
    type: "editing";
    item: string | null;
};
export type Ping = {
    type: "ping";
    id: string;
};
export type PeersList = {
    type: "peers.list";
    after?: number;
    limit: number;
};
/**
 * A new token for the open connection (docs/protocol.md, token lifecycle).
 */
export type TokenRefresh = {
    type: "token";
    token: string;
};
export type ClientMessage = Hello | OperationRequest | DragStartRequest | DragOverRequest | DragEndRequest | EditingRequest | Ping | PeersList | TokenRefresh;
/**
 * A drag's placeholder: the index in that list with the dragged items left out, and the id
 * there (`before`, null for the end) when the server tells of someone else's.
 */
export type Placeholder = {
    collection?: string;
    index: number;
    before?: string | null;
};
/**
 * A drag in progress as the server tells it: of items, or of columns (`collections` instead of
 * `items`; its placeholder has no `collection`, its index is among the columns without the
 * dragged ones).
 */
export type WireDragState = {
    items?: string[];
    collections?: string[];
    over: Placeholder | null;
};
/**
 * A peer's drag as the SDK holds it: `items` always a list (empty in a drag of columns).
 */
export type DragState = {
    items: string[];
    collections?: string[];
    over: Placeholder | null;
};
/**
 * Someone else on the board; `elsewhere` when we only know them by a drag (another node);
 * `hue` (0…359) when they chose a colour (docs/protocol.md#colours).
 */
export type Peer = {
    client: string;
    name: string;
    hue?: number;
    drag: DragState | null;
    elsewhere?: boolean;
};
/**
 * `board` is there unless the server resumed us from our `(epoch, seq)`; `tokenExpiresAt`
 * (ms since 1970) when our token expires; `name`, the name the others see us by (our token's
 * when it names us), absent from an older server; `hue`, our chosen colour's, when we chose one.
 */
export type Welcome = {
    type: "welcome";
    client: string;
    role: Role;
    epoch: string;
    seq: number;
    name?: string;
    hue?: number;
    peers: {
        client: string;
        name: string;
        hue?: number;
        drag?: WireDragState | null;
    }[];
    count: number;
    tokenExpiresAt?: number;
} & ({
    resumed: false;
    board: Board;
} | {
    resumed: true;
});
/**
 * A committed event; `at` (ms since 1970 UTC) and `by` (its author) are absent on events
 * committed before the server recorded them (docs/protocol.md#outcomes).
 */
export type Committed = {
    type: "committed";
    seq: number;
    opId: string;
    client: string;
    adjusted: boolean;
    op: Operation;
    at?: number;
    by?: string;
    noop?: false;
};
export type Noop = {
    type: "committed";
    noop: true;
    opId: string;
    seq: number;
};
export type RejectionCode = "invalid" | "gone" | "forbidden" | "locked" | "busy" | "rate-limited" | "unavailable";
/**
 * The refusal of one of our operations (`opId`) or of our `drag.start` (`ref`, and the
 * `holder` when it is `busy`).
 */
export type Rejected = {
    type: "rejected";
    code: RejectionCode;
    message?: string;
    opId?: string;
    ref?: "drag.start";
    holder?: string;
};
export type PeerJoined = {
    type: "peer.joined";
    client: string;
    name: string;
    hue?: number;
};
export type PeerLeft = {
    type: "peer.left";
    client: string;
};
/**
 * A tick's joins and leaves on a board of more than 50 people (docs/protocol.md#peers).
 */
export type Peers = {
    type: "peers";
    count: number;
    joined: {
        client: string;
        name: string;
        hue?: number;
    }[];
    left: string[];
    truncated: boolean;
};
/**
 * The answer to `peers.list`: people in join order, and the cursor of the next page.
 */
export type PeersPage = {
    type: "peers.page";
    count: number;
    peers: {
        client: string;
        name: string;
        hue?: number;
        drag: WireDragState | null;
    }[];
    next: number | null;
};
export type DragStarted = {
    type: "drag";
    client: string;
    name: string;
    items?: string[];
    collections?: string[];
    over?: Placeholder | null;
};
export type DragMoved = {
    type: "drag.over";
    client: string;
    over: Placeholder;
};
export type DragClearReason = "drop" | "cancel" | "left" | "timeout" | "deleted" | "expired";
export type DragCleared = {
    type: "drag.cleared";
    client: string;
    reason: DragClearReason;
};
/**
 * A board tick's drag changes, in order, each the single message it stands for (a big
 * audience's form: docs/protocol.md#6-presence-drag-state).
 */
export type DragBatch = {
    type: "drags";
    changes: (DragStarted | DragMoved | DragCleared)[];
};
/**
 * Someone's editing mark: the item whose label they edit, null when they stopped, left, or
 * the mark lapsed (docs/protocol.md#editing-marks).
 */
export type EditingMark = {
    type: "editing";
    client: string;
    name: string;
    item: string | null;
};
/**
 * A change of a compact batch: `[client, name, items, over]` a start (`over` null or
 * `[index, before, collection]`), `[client, index, before, collection]` a placeholder move,
 * `[client, reason]` a clear; a drag of columns: `[client, name, collections, index, before]` a
 * start, `[client, index, before]` a placeholder move (docs/protocol.md#compact-drags).
 */
export type CompactDragChange = [string, string, string[], [number, string | null, string] | null] | [string, number, string | null, string] | [string, DragClearReason] | [string, string, string[], number | null, string | null] | [string, number, string | null];
/**
 * The same tick's changes for a client whose hello asked for `presence: "compact"`.
 */
export type CompactDragBatch = {
    type: "drags.compact";
    changes: CompactDragChange[];
};
export type ErrorMessage = {
    type: "error";
    code: string;
    message: string;
};
export type Pong = {
    type: "pong";
    id: string;
};
/**
 * The answers to a `token` refresh, in the order they were sent: taken (`tokenExpiresAt` absent
 * when the new token does not expire), or refused (the previous one stays in force).
 */
export type TokenAccepted = {
    type: "token.accepted";
    tokenExpiresAt?: number;
};
/**
 * The answers to a `token` refresh, in the order they were sent: taken (`tokenExpiresAt` absent
 * when the new token does not expire), or refused (the previous one stays in force).
 */
export type TokenRefused = {
    type: "token.refused";
    code: "unauthorized" | "forbidden";
    message: string;
};
export type ServerMessage = Welcome | Committed | Noop | Rejected | PeerJoined | PeerLeft | Peers | PeersPage | DragStarted | DragMoved | DragCleared | DragBatch | CompactDragBatch | EditingMark | ErrorMessage | Pong | TokenAccepted | TokenRefused;
