// @ts-check
// The admin page's requests: JSON in and out, with the page's token. The page asks
// `GET /api/admin/access` first and makes the owner-only requests only for an owner's token,
// so none of them is refused with the 401 or 403 a browser would log as an error.

import { withToken } from "./people.js";

/**
 * An answer: its status and its JSON body (null when it has none).
 * @typedef {{ status: number, ok: boolean, body: any }} Answer
 */

/**
 * Sends `method path` with the token and `body` as JSON.
 * @param {string | null} token
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<Answer>}
 */
export async function request(token, method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers: withToken(headers, token), body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, ok: response.ok, body: parsed };
}

/**
 * The message of a failed answer: the server's own words (`{"error", "message"}`), or its status.
 * @param {Answer} answer
 * @returns {string}
 */
export function failure(answer) {
  const message = answer.body && typeof answer.body.message === "string" ? answer.body.message : "";
  return message ? `${message} (HTTP ${answer.status})` : `the server answered HTTP ${answer.status}`;
}
