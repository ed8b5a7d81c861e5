/** @typedef {(url: string) => Promise<{ ok: boolean, json: () => Promise<unknown> }>} Fetcher */
/**
 * The refusal to report when the server at `socketUrl` does not allow this page's `origin`;
 * null when it does, or when that cannot be learnt (no fetch, the server unreachable, an older
 * server without `GET /api`).
 * @param {string} socketUrl the board's WebSocket URL (ws: or wss:)
 * @param {string | null} origin the page's origin
 * @param {Fetcher | null} fetcher
 * @returns {Promise<{ code: string, message: string } | null>}
 */
export function originRefusal(socketUrl: string, origin: string | null, fetcher: Fetcher | null): Promise<{
    code: string;
    message: string;
} | null>;
export type Fetcher = (url: string) => Promise<{
    ok: boolean;
    json: () => Promise<unknown>;
}>;
