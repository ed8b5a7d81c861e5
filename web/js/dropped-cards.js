// @ts-check
// What a drop from outside the board (another app, another tab) becomes: card drafts read
// from the dragged data, the first kind present winning, because a link dragged from a tab
// also carries its URL as text/plain, and a file from some file managers its file:// URL:
// - files: one card per file, named after it (nothing is uploaded);
// - links (`text/uri-list`): one card per URL, labelled with its title (the anchor's text in
//   the `text/html`, or Firefox's `text/x-moz-url`), else the URL made short (its host and
//   path, at most SHORT_LABEL characters); a web link (http or https) goes in the card's
//   `data` as `{ url }`, which the card shows as a link to its host. Any other scheme
//   (javascript:, data:, file:) is only text: the card is labelled with it and keeps no URL;
// - text (`text/plain`): one card per non-empty line, trimmed. A list copied from a note or a
//   spreadsheet column then becomes one card per entry, as if typed one by one; a paragraph
//   is one line, so it stays one card.
// Labels are cut to the server's limit for a label (16 KiB of UTF-8, docs/protocol.md's
// `invalid`), at a character's boundary. A drop makes at most MAX_DROPPED_CARDS cards and
// MAX_DROPPED_BYTES of text, so that its one `insert` stays well inside the server's largest
// message (1 MiB) and a pasted log does not bury the board; what is left out is counted.
// Pure (no DOM): the page reads the DataTransfer (and parses its HTML) into DroppedData.

import { webLink } from "./web-link.js";

/** The server's limit for a label, and for a URL kept in `data` (a cut URL would be a wrong one). */
export const MAX_LABEL_BYTES = 16_384;
export const MAX_DROPPED_CARDS = 100;
export const MAX_DROPPED_BYTES = 256 * 1024;
/** The longest label made from an untitled link (the whole URL stays in `data`). */
export const SHORT_LABEL = 80;

/** The DataTransfer types a drop can make cards of ("Files" is how a file drag shows). */
const CARD_TYPES = new Set(["Files", "text/uri-list", "text/plain"]);

/**
 * What the page read from a drop's DataTransfer.
 * @typedef {{ files?: string[], uriList?: string, mozUrl?: string, anchors?: { href: string, text: string }[],
 *   text?: string }} DroppedData
 */
/** @typedef {{ label: string, data?: { url: string } }} CardDraft */

/**
 * Whether a drag carrying these types (readable during dragover, unlike the data) can become
 * cards: the board shows a placeholder only for those.
 * @param {Iterable<string>} types
 */
export function carriesCards(types) {
  for (const type of types) if (CARD_TYPES.has(type)) return true;
  return false;
}

/**
 * The cards a drop makes, in the order dropped, and how many it leaves out (over the caps).
 * @param {DroppedData} dropped
 * @returns {{ drafts: CardDraft[], leftOut: number }}
 */
export function cardDrafts(dropped) {
  /** @type {CardDraft[]} */
  let all = [];
  if (dropped.files?.length) all = dropped.files.map((name) => ({ label: name.trim() })).filter((d) => d.label);
  else if (dropped.uriList?.trim()) all = linkDrafts(dropped);
  else if (dropped.text) all = dropped.text.split(/\r\n|\r|\n/).map((line) => ({ label: line.trim() })).filter((d) => d.label);
  /** @type {CardDraft[]} */
  const drafts = [];
  let bytes = 0;
  for (const draft of all) {
    const card = capped(draft);
    bytes += utf8Length(card.label) + utf8Length(card.data?.url ?? "");
    if (drafts.length === MAX_DROPPED_CARDS || (drafts.length > 0 && bytes > MAX_DROPPED_BYTES)) break;
    drafts.push(card);
  }
  return { drafts, leftOut: all.length - drafts.length };
}

/**
 * One draft per URL of the uri-list, titled from the HTML's anchors or the moz-url pairs.
 * @param {DroppedData} dropped
 * @returns {CardDraft[]}
 */
function linkDrafts(dropped) {
  const urls = uriListURLs(dropped.uriList ?? "");
  /** @type {Map<string, string>} */
  const titles = new Map();
  // text/x-moz-url: a URL line, then its title line, for each link.
  const moz = (dropped.mozUrl ?? "").split(/\r\n|\r|\n/);
  for (let at = 0; at + 1 < moz.length; at += 2) addTitle(titles, moz[at].trim(), moz[at + 1]);
  const anchors = (dropped.anchors ?? []).filter((a) => oneLine(a.text));
  for (const anchor of anchors) addTitle(titles, anchor.href.trim(), anchor.text);
  // One link and one titled anchor whose href is written otherwise (relative, escaped): they are the same link.
  if (urls.length === 1 && !titles.has(urls[0]) && anchors.length === 1) addTitle(titles, urls[0], anchors[0].text);
  return urls.map((url) => {
    const title = titles.get(url);
    if (!webLink(url)) return { label: title ?? url };
    return { label: title ?? shortLabel(url), data: { url } };
  });
}

/**
 * An untitled link's label: its host and path (no scheme, no trailing slash), then the query
 * cut short, at most SHORT_LABEL characters, ending in "…" when cut.
 * @param {string} url
 */
export function shortLabel(url) {
  const parsed = new URL(url);
  let path = parsed.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // An escape that decodes to nothing readable: shown as written.
  }
  const text = `${parsed.host}${path === "/" ? "" : path}${parsed.search}`;
  return text.length <= SHORT_LABEL ? text : `${text.slice(0, SHORT_LABEL - 1)}…`;
}

/**
 * @param {Map<string, string>} titles
 * @param {string} url
 * @param {string} title
 */
function addTitle(titles, url, title) {
  const text = oneLine(title);
  if (url && text && !titles.has(url)) titles.set(url, text);
}

/**
 * The URLs of a text/uri-list (RFC 2483): one a line, `#` lines are comments.
 * @param {string} list
 */
export function uriListURLs(list) {
  return list
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
}

/**
 * Text as one line: an anchor's text keeps the HTML's line breaks and indentation.
 * @param {string} text
 */
function oneLine(text) {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The draft within the server's limits: the label cut, a URL too long to keep left out.
 * @param {CardDraft} draft
 * @returns {CardDraft}
 */
function capped(draft) {
  const label = cutToBytes(draft.label, MAX_LABEL_BYTES).trimEnd();
  const url = draft.data?.url;
  return url !== undefined && utf8Length(url) <= MAX_LABEL_BYTES ? { label, data: { url } } : { label };
}

/**
 * The longest start of `text` of at most `max` bytes of UTF-8, never half a character.
 * @param {string} text
 * @param {number} max
 */
export function cutToBytes(text, max) {
  if (utf8Length(text) <= max) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Length(char);
    if (bytes + size > max) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

const encoder = new TextEncoder();

/** @param {string} text */
function utf8Length(text) {
  return encoder.encode(text).length;
}
