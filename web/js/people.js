// @ts-check
// Who you are on a board (a display name, a token) and the colour everyone sees for a person.

const NAME_KEY = "corkboard.name";
const TOKEN_KEY = "corkboard.token";

/**
 * The server refuses a name over 256 bytes of UTF-8 (docs/protocol.md#3-joining); 64 UTF-16
 * code units are at most 192.
 */
const MAX_NAME_LENGTH = 64;

/**
 * `?name=` wins (and is not stored); then the stored name; then a new guest name, stored.
 * @param {URLSearchParams} params
 * @returns {string}
 */
export function displayName(params) {
  const asked = params.get("name")?.trim();
  if (asked) return asked.slice(0, MAX_NAME_LENGTH);
  const stored = localStorage.getItem(NAME_KEY);
  if (stored) return stored.slice(0, MAX_NAME_LENGTH);
  const guest = `Guest ${Math.floor(1000 + Math.random() * 9000)}`;
  localStorage.setItem(NAME_KEY, guest);
  return guest;
}

/**
 * `?token=` (stored for next time, and taken out of the address so that a copied link does not
 * carry it) or the stored token; null in open mode.
 * @param {URLSearchParams} params
 * @returns {string | null}
 */
export function accessToken(params) {
  const asked = params.get("token");
  if (asked) {
    localStorage.setItem(TOKEN_KEY, asked);
    const rest = new URLSearchParams(params);
    rest.delete("token");
    const query = rest.toString();
    history.replaceState(history.state, "", location.pathname + (query ? `?${query}` : "") + location.hash);
    return asked;
  }
  return localStorage.getItem(TOKEN_KEY);
}

/**
 * A request's headers, with `Authorization: Bearer <token>` when there is a token.
 * @param {Record<string, string>} headers
 * @param {string | null} token
 * @returns {Record<string, string>}
 */
export function withToken(headers, token) {
  return token ? { ...headers, Authorization: `Bearer ${token}` } : headers;
}

/** Forgets the stored token (the server refused it: expired, revoked, or mistyped). */
export function forgetToken() {
  localStorage.removeItem(TOKEN_KEY);
}

/**
 * What to tell a person whose token the server refused or who has none, by the HTTP status or
 * the `error` code of a refused `hello`.
 * @param {"unauthorized" | "forbidden"} why
 * @param {boolean} hadToken
 * @param {string} [detail] the server's own words
 * @returns {string}
 */
export function tokenAdvice(why, hadToken, detail) {
  const open = "Open this page with ?token=… added to its address, with the token you were given (this browser keeps it).";
  if (why === "forbidden") return `Your token does not give you this${detail ? ` (${detail})` : ""}. ${open}`;
  if (!hadToken) return `This server asks for a token. ${open}`;
  return `Your token was refused${detail ? ` (${detail})` : ""}. ${open}`;
}

/**
 * A stable, readable colour per name: everyone sees the same person in the same colour.
 * @param {string} name
 * @returns {string} a CSS colour
 */
export function colorFor(name) {
  let hash = 0;
  // for…of walks a string by code points, so each `char` has one.
  for (const char of name) hash = (hash * 31 + /** @type {number} */ (char.codePointAt(0))) >>> 0;
  return `hsl(${hash % 360} 70% 42%)`;
}
