// @ts-check
// The admin page's webhooks section: each webhook the server delivers to, its backlog and its
// last attempt, from `GET /api/webhooks` (docs/protocol.md#webhooks).

/**
 * A webhook as `GET /api/webhooks` lists it: `boards` absent means every board; the attempt
 * fields are absent until one was made, `nextAttemptAt` while nothing waits for a retry.
 * @typedef {{
 *   id: string, url: string, boards?: string[], source: "file" | "api", backlog: number, failures: number,
 *   lastAttemptAt?: number, lastStatus?: number, lastError?: string, nextAttemptAt?: number
 * }} Webhook
 */

/**
 * A moment as people read it, relative to `now` when it is near.
 * @param {number} at milliseconds since 1970
 * @param {number} now
 * @returns {string}
 */
export function when(at, now) {
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 60) return seconds >= 0 ? `in ${seconds} s` : `${-seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return minutes >= 0 ? `in ${minutes} min` : `${-minutes} min ago`;
  return new Date(at).toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/**
 * One webhook as the table's cells: where it delivers, for which boards, from where it was
 * configured, what waits, how the last attempt went and when the next one is.
 * @param {Webhook} hook
 * @param {number} now milliseconds since 1970
 * @returns {{ url: string, boards: string, source: string, backlog: string, lastAttempt: string, nextRetry: string, failing: boolean }}
 */
export function webhookCells(hook, now) {
  let lastAttempt = "never";
  if (hook.lastAttemptAt !== undefined) {
    const outcome = hook.lastError ?? (hook.lastStatus === undefined ? "no answer" : `HTTP ${hook.lastStatus}`);
    lastAttempt = `${outcome}, ${when(hook.lastAttemptAt, now)}`;
  }
  return {
    url: hook.url,
    boards: hook.boards === undefined ? "every board" : hook.boards.join(", "),
    source: hook.source === "file" ? "the webhooks file" : "the API",
    backlog: `${hook.backlog} event${hook.backlog === 1 ? "" : "s"} waiting`,
    lastAttempt,
    nextRetry: hook.nextAttemptAt === undefined ? "—" : when(hook.nextAttemptAt, now),
    // Failed attempts in a row: the server counts them, the page only shows them.
    failing: hook.failures > 0,
  };
}

const COLUMNS = /** @type {const} */ ([
  ["url", "Delivers to"], ["boards", "Boards"], ["source", "Configured in"], ["backlog", "Backlog"],
  ["lastAttempt", "Last attempt"], ["nextRetry", "Next retry"],
]);

/**
 * Shows `webhooks` in `container` (a table, or a line saying there are none).
 * @param {HTMLElement} container
 * @param {Webhook[]} webhooks
 * @param {number} now
 */
export function showWebhooks(container, webhooks, now) {
  const document = container.ownerDocument;
  if (webhooks.length === 0) {
    container.replaceChildren(Object.assign(document.createElement("p"), { textContent: "No webhooks are configured." }));
    return;
  }
  const table = document.createElement("table");
  table.className = "admin-table";
  const caption = Object.assign(document.createElement("caption"), { className: "visually-hidden", textContent: "Webhooks" });
  const head = document.createElement("tr");
  for (const [, title] of COLUMNS) head.append(Object.assign(document.createElement("th"), { scope: "col", textContent: title }));
  const body = document.createElement("tbody");
  for (const hook of webhooks) {
    const cells = webhookCells(hook, now);
    const row = document.createElement("tr");
    row.dataset.webhook = hook.id;
    if (cells.failing) row.dataset.failing = "true";
    for (const [key] of COLUMNS) row.append(Object.assign(document.createElement("td"), { textContent: cells[key] }));
    body.append(row);
  }
  table.append(caption);
  table.createTHead().append(head);
  table.append(body);
  const wrap = Object.assign(document.createElement("div"), { className: "admin-table-wrap" });
  wrap.append(table);
  container.replaceChildren(wrap);
}
