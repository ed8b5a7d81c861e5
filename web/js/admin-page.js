// @ts-check
// The operator's page (`/admin`, docs/security.md#the-admin-page): this node and its drain,
// the boards open here with who is on them, revoked users, and the webhooks. For an owner of
// every board only: the page asks `GET /api/admin/access` first and, for any other token (or
// none), says so and asks nothing else. The token comes as on the other pages (`?token=`,
// kept in this browser).

import { failure, request } from "./admin-api.js";
import { showWebhooks } from "./admin-webhooks.js";
import { accessToken } from "./people.js";

/** How often the boards and their members are read again while the page is shown, in ms. */
const REFRESH_MS = 3_000;

/**
 * @typedef {{ id: string, version: string, store: string, startedAt: number, uptimeSeconds: number, draining: boolean, shuttingDown: boolean }} NodeFacts
 * @typedef {{ client: string, name: string, user?: string, role?: string, node: string, observes: boolean }} OnlineMember
 * @typedef {{ id: string, memberCount: number, members: OnlineMember[] }} OnlineBoard
 * @typedef {{ sub?: string, jti?: string, revokedAt: number, issuedBefore?: number }} Revocation
 */

// admin.html has every element this module looks up.
/** @param {string} id */
const element = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const status = element("admin-status");
const errorLine = element("admin-error");
const sections = element("admin-sections");
const nodeFacts = element("node-facts");
const drainButton = /** @type {HTMLButtonElement} */ (element("drain-button"));
const undrainButton = /** @type {HTMLButtonElement} */ (element("undrain-button"));
const otherNodes = element("other-nodes");
const boardsContainer = element("online-boards");
const moreBoards = /** @type {HTMLButtonElement} */ (element("more-boards"));
const revokeForm = /** @type {HTMLFormElement} */ (element("revoke-form"));
const revocationList = element("revocation-list");
const webhookList = element("webhook-list");

const token = accessToken(new URLSearchParams(location.search));

/** How many pages of boards are shown (More boards adds one). */
let boardPages = 1;
/** The boards last drawn, as JSON. */
let lastBoards = "";

/** @param {string} text */
function showError(text) {
  errorLine.textContent = text;
}

/**
 * @param {string} tag
 * @param {string} text
 * @returns {HTMLElement}
 */
function make(tag, text) {
  return Object.assign(document.createElement(tag), { textContent: text });
}

/** @param {NodeFacts} node */
function showNode(node) {
  const uptime = node.uptimeSeconds < 3600
    ? `${Math.floor(node.uptimeSeconds / 60)} min ${node.uptimeSeconds % 60} s`
    : `${Math.floor(node.uptimeSeconds / 3600)} h ${Math.floor((node.uptimeSeconds % 3600) / 60)} min`;
  const state = node.shuttingDown ? "shutting down" : node.draining ? "draining (/readyz answers 503)" : "serving";
  /** @type {[string, string][]} */
  const facts = [["Node", node.id], ["Version", node.version], ["Store", node.store], ["Up for", uptime], ["State", state]];
  nodeFacts.replaceChildren(...facts.flatMap(([term, value]) => [make("dt", term), make("dd", value)]));
  nodeFacts.dataset.draining = String(node.draining);
  drainButton.disabled = node.draining;
  undrainButton.disabled = !node.draining || node.shuttingDown;
}

/** @param {OnlineBoard} board */
function boardView(board) {
  const view = document.createElement("section");
  view.className = "online-board";
  view.dataset.board = board.id;
  view.setAttribute("aria-label", `Board ${board.id}`);
  const heading = document.createElement("h3");
  const link = Object.assign(document.createElement("a"), { href: `/b/${encodeURIComponent(board.id)}`, textContent: board.id });
  heading.append(link, ` · ${board.memberCount} online`);
  view.append(heading);
  if (board.members.length === 0) {
    view.append(make("p", "Nobody is on this board now."));
    return view;
  }
  const table = document.createElement("table");
  table.className = "admin-table";
  table.append(Object.assign(make("caption", `Who is on board ${board.id}`), { className: "visually-hidden" }));
  const head = document.createElement("tr");
  for (const title of ["Name", "User", "Role", "Node"]) head.append(Object.assign(make("th", title), { scope: "col" }));
  table.createTHead().append(head);
  const body = table.createTBody();
  for (const member of board.members) {
    const row = document.createElement("tr");
    row.dataset.member = member.client;
    if (member.user) row.dataset.user = member.user;
    const role = member.role ? member.role + (member.observes ? " (following)" : "") : "—";
    for (const text of [member.name, member.user ?? "—", role, member.node]) row.append(make("td", text));
    body.append(row);
  }
  const wrap = Object.assign(document.createElement("div"), { className: "admin-table-wrap" });
  wrap.append(table);
  view.append(wrap);
  return view;
}

/** Reads the overview again (every page of boards shown so far) and shows it. */
async function refreshOverview() {
  /** @type {OnlineBoard[]} */
  const boards = [];
  /** @type {string | undefined} */
  let cursor;
  let more = false;
  for (let page = 0; page < boardPages; page += 1) {
    const answer = await request(token, "GET", "/api/admin/overview" + (cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""));
    if (!answer.ok) return showError(`The overview cannot be read: ${failure(answer)}.`);
    if (page === 0) {
      showNode(answer.body.node);
      /** @type {{ id: string }[]} */
      const nodes = answer.body.nodes;
      otherNodes.textContent = nodes.length === 0
        ? "No other node shares this node's store (or none is alive)."
        : `Other nodes alive: ${nodes.map((node) => node.id).join(", ")}. Each lists the boards open on it at its own /admin.`;
    }
    boards.push(...answer.body.boards);
    cursor = answer.body.next;
    more = cursor !== undefined;
    if (!more) break;
  }
  moreBoards.hidden = !more;
  // Drawn again only when something changed: a redraw every few seconds would take the
  // keyboard focus off a board's link.
  const drawn = JSON.stringify(boards);
  if (drawn === lastBoards) return;
  lastBoards = drawn;
  boardsContainer.replaceChildren(...(boards.length === 0 ? [make("p", "No board is open on this node.")] : boards.map(boardView)));
  boardsContainer.dataset.loaded = "true";
}

/** Reads the revocations again and lists them, each with its withdraw button. */
async function refreshRevocations() {
  const answer = await request(token, "GET", "/api/revocations");
  if (!answer.ok) return showError(`The revocations cannot be read: ${failure(answer)}.`);
  /** @type {Revocation[]} */
  const revocations = answer.body.revocations;
  revocationList.replaceChildren(
    ...revocations.map((revocation) => {
      const [kind, value] = revocation.sub !== undefined ? ["sub", revocation.sub] : ["jti", revocation.jti ?? ""];
      const item = document.createElement("li");
      item.dataset.revoked = value;
      const since = new Date(revocation.revokedAt).toISOString().replace("T", " ").slice(0, 19);
      item.append(make("span", `${kind === "sub" ? "User" : "Token"} ${value}, revoked ${since} UTC`));
      const withdraw = Object.assign(make("button", "Withdraw"), { type: "button", className: "ghost-button" });
      withdraw.setAttribute("aria-label", `Withdraw the revocation of ${value}`);
      withdraw.addEventListener("click", async () => {
        const done = await request(token, "DELETE", `/api/revocations?${kind}=${encodeURIComponent(value)}`);
        if (!done.ok && done.status !== 404) showError(`The revocation cannot be withdrawn: ${failure(done)}.`);
        await refreshRevocations();
      });
      item.append(withdraw);
      return item;
    }),
  );
  if (revocations.length === 0) revocationList.replaceChildren(make("li", "Nobody is revoked."));
  revocationList.dataset.loaded = "true";
}

/** Lists the webhooks, following `next` through the pages. */
async function refreshWebhooks() {
  const webhooks = [];
  /** @type {string | undefined} */
  let cursor;
  // Ten pages of the most a page holds are more webhooks than a server is given.
  for (let page = 0; page < 10; page += 1) {
    const answer = await request(token, "GET", "/api/webhooks?limit=1000" + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""));
    if (!answer.ok) return showError(`The webhooks cannot be read: ${failure(answer)}.`);
    webhooks.push(...answer.body.webhooks);
    cursor = answer.body.next;
    if (cursor === undefined) break;
  }
  showWebhooks(webhookList, webhooks, Date.now());
  webhookList.dataset.loaded = "true";
}

/** @param {"POST" | "DELETE"} method */
async function drain(method) {
  const answer = await request(token, method, "/api/admin/drain");
  if (!answer.ok) return showError(`The drain cannot be ${method === "POST" ? "started" : "taken back"}: ${failure(answer)}.`);
  showError("");
  showNode(answer.body);
  status.textContent = answer.body.draining
    ? "This node is draining: /readyz answers 503, and the people connected here are asked to reconnect elsewhere."
    : "This node takes traffic again.";
}

async function start() {
  const access = await request(token, "GET", "/api/admin/access");
  if (!access.ok || !access.body.administrator) {
    const why = access.ok ? access.body.message : failure(access);
    status.textContent = `This page is for an owner of every board, and ${token ? "your token is not one" : "you gave no token"}`
      + ` (${why}). Open /admin?token=… with an owner's token (this browser keeps it).`;
    status.dataset.refused = "true";
    document.body.dataset.ready = "true";
    return;
  }
  status.textContent = "Signed in as an owner of every board.";
  sections.hidden = false;
  drainButton.addEventListener("click", () => drain("POST"));
  undrainButton.addEventListener("click", () => drain("DELETE"));
  moreBoards.addEventListener("click", () => {
    boardPages += 1;
    refreshOverview();
  });
  revokeForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const field = /** @type {HTMLInputElement} */ (revokeForm.elements.namedItem("sub"));
    const sub = field.value.trim();
    if (!sub) return;
    const answer = await request(token, "POST", "/api/revocations", { sub });
    if (!answer.ok) return showError(`${sub} cannot be revoked: ${failure(answer)}.`);
    showError("");
    field.value = "";
    await Promise.all([refreshRevocations(), refreshOverview()]);
  });
  await Promise.all([refreshOverview(), refreshRevocations(), refreshWebhooks()]);
  document.body.dataset.ready = "true";
  setInterval(() => {
    // Who is on the boards and how far behind the webhooks are both change while one looks.
    if (document.visibilityState === "visible") Promise.all([refreshOverview(), refreshWebhooks()]);
  }, REFRESH_MS);
}

start().catch((error) => {
  status.textContent = `The admin page cannot reach the server: ${/** @type {Error} */ (error).message}.`;
  document.body.dataset.ready = "true";
});
