// @ts-check
// Why a page's socket never opens, when the reason is the page's own origin: a server started
// with --allowed-origins answers the handshake of an unlisted origin 403, and a browser tells
// the page only that the connection failed. The server's GET /api (readable by any origin)
// says whether this origin is allowed (docs/protocol.md#8-http-api).

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
export async function originRefusal(socketUrl, origin, fetcher) {
  if (!fetcher || !origin) return null;
  try {
    const info = new URL("/api", socketUrl.replace(/^ws/, "http"));
    const response = await fetcher(info.href);
    if (!response.ok) return null;
    const body = /** @type {{ originAllowed?: unknown }} */ (await response.json());
    if (body.originAllowed !== false) return null;
    return {
      code: "forbidden",
      message: `This page's origin (${origin}) may not use the Corkboard server at ${info.origin}: add it to the server's --allowed-origins.`,
    };
  } catch {
    return null;
  }
}
