// @ts-check
// Who you are on a board (a display name, a token) and the colour everyone sees for a person.

const NAME_KEY = "corkboard.name";
const HUE_KEY = "corkboard.hue";
const TOKEN_KEY = "corkboard.token";

/** The server refuses a name over 256 bytes of UTF-8 (docs/protocol.md#3-joining). */
export const MAX_NAME_BYTES = 256;

/**
 * `?name=` wins (and is not stored); then the stored name; then a new guest name, stored.
 * A name over the server's cap is cut to it (on a character's boundary), never refused.
 * @param {URLSearchParams} params
 * @returns {string}
 */
export function displayName(params) {
  const asked = params.get("name")?.trim();
  if (asked) return fitName(asked);
  const stored = localStorage.getItem(NAME_KEY)?.trim();
  if (stored) return fitName(stored);
  const guest = `Guest ${Math.floor(1000 + Math.random() * 9000)}`;
  localStorage.setItem(NAME_KEY, guest);
  return guest;
}

/**
 * Keeps `name` as this browser's name for every board (`?name=` still wins on a page that has it).
 * @param {string} name
 */
export function rememberName(name) {
  localStorage.setItem(NAME_KEY, name);
}

/**
 * The colour this browser chose for its person, as a hue (docs/protocol.md#colours); null:
 * none, the colour comes from the name. A stored value that is not a hue counts as none.
 * @returns {number | null}
 */
export function chosenHue() {
  const stored = localStorage.getItem(HUE_KEY);
  if (stored === null || !/^\d{1,3}$/.test(stored)) return null;
  const hue = Number(stored);
  return hue <= 359 ? hue : null;
}

/**
 * Keeps `hue` (null: none, the colour from the name) beside the name, for every board.
 * @param {number | null} hue
 */
export function rememberHue(hue) {
  if (hue === null) localStorage.removeItem(HUE_KEY);
  else localStorage.setItem(HUE_KEY, String(hue));
}

/**
 * The hues the name dialog offers, every 30°, with the names its radio buttons are read by.
 * @type {{ hue: number, label: string }[]}
 */
export const HUE_CHOICES = [
  { hue: 0, label: "Red" },
  { hue: 30, label: "Orange" },
  { hue: 60, label: "Olive" },
  { hue: 90, label: "Lime green" },
  { hue: 120, label: "Green" },
  { hue: 150, label: "Sea green" },
  { hue: 180, label: "Teal" },
  { hue: 210, label: "Sky blue" },
  { hue: 240, label: "Blue" },
  { hue: 270, label: "Violet" },
  { hue: 300, label: "Magenta" },
  { hue: 330, label: "Pink" },
];

/**
 * Why the server would refuse `name` as a name, in words for the person typing it; null when
 * it would take it.
 * @param {string} name
 * @returns {string | null}
 */
export function nameProblem(name) {
  if (!name.trim()) return "A name cannot be empty.";
  if (name.includes("\0")) return "A name cannot hold a NUL character.";
  const bytes = new TextEncoder().encode(name).length;
  if (bytes > MAX_NAME_BYTES) return `A name is at most ${MAX_NAME_BYTES} bytes; this one is ${bytes}. Make it shorter.`;
  return null;
}

/**
 * `name` cut to the server's cap, whole characters only.
 * @param {string} name
 * @returns {string}
 */
function fitName(name) {
  const encoder = new TextEncoder();
  let fitted = "";
  let bytes = 0;
  for (const char of name) {
    bytes += encoder.encode(char).length;
    if (bytes > MAX_NAME_BYTES) break;
    fitted += char;
  }
  return fitted;
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
 * A stable, readable colour per person: everyone sees the same person in the same colour. The
 * hue they chose when they chose one, else one derived from the name; the saturation and
 * lightness are always the page's, so that ink.js keeps the badge's text at 4.5:1 on any hue.
 * @param {string} name
 * @param {number | null} [hue] 0…359
 * @returns {string} a CSS colour
 */
export function colorFor(name, hue = null) {
  if (typeof hue === "number") return `hsl(${hue} 70% 42%)`;
  let hash = 0;
  // for…of walks a string by code points, so each `char` has one.
  for (const char of name) hash = (hash * 31 + /** @type {number} */ (char.codePointAt(0))) >>> 0;
  return `hsl(${hash % 360} 70% 42%)`;
}

/**
 * A peer's colour: their chosen hue's, or their name's.
 * @param {{ name: string, hue?: number | null }} person
 * @returns {string}
 */
export function colourOf(person) {
  return colorFor(person.name, person.hue ?? null);
}
