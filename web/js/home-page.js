// @ts-check
// The board list (`/`): every board with its title, and a form that creates one with the
// usual three columns and opens it. With a token (`?token=`, kept in this browser), both send
// it; without one on a server that asks for one, the page says how to get in.

import { accessToken, forgetToken, tokenAdvice, withToken } from "./people.js";

/**
 * A board as `GET /api/boards` lists it (docs/protocol.md#8-http-api).
 * @typedef {{ id: string, title: string, seq: number }} BoardSummary
 */

// index.html has every element this module looks up.
const list = /** @type {HTMLElement} */ (document.getElementById("board-list"));
const form = /** @type {HTMLFormElement} */ (document.getElementById("new-board-form"));
const error = /** @type {HTMLElement} */ (document.getElementById("form-error"));
const titleField = /** @type {HTMLInputElement} */ (form.elements.namedItem("title"));
const idField = /** @type {HTMLInputElement} */ (form.elements.namedItem("id"));

const token = accessToken(new URLSearchParams(location.search));

/**
 * The advice for a 401 or 403 answer (forgetting a refused token), or null for other answers.
 * @param {Response} response
 * @returns {Promise<string | null>}
 */
async function refusal(response) {
  if (response.status !== 401 && response.status !== 403) return null;
  /** @type {{ message?: string }} */
  const answer = await response.json().catch(() => ({}));
  if (response.status === 401 && token) forgetToken();
  return tokenAdvice(response.status === 401 ? "unauthorized" : "forbidden", token !== null, answer.message);
}

/**
 * Whether the server refuses a request without a token (`GET /api`'s `tokenRequired`); false
 * when it does not say (an older server: the list's own 401 then tells).
 * @returns {Promise<boolean>}
 */
async function tokenRequired() {
  const response = await fetch("/api", { headers: { Accept: "application/json" } });
  if (!response.ok) return false;
  /** @type {{ tokenRequired?: boolean }} */
  const info = await response.json().catch(() => ({}));
  return info.tokenRequired === true;
}

/** @param {string} text */
function showListNote(text) {
  list.replaceChildren(Object.assign(document.createElement("li"), { className: "empty token-needed", textContent: text }));
}

async function showBoards() {
  try {
    // Without a token, ask first whether one is needed: the list's 401 would say it too, but a
    // browser logs every 401 as an error in the console.
    if (!token && (await tokenRequired())) {
      showListNote(tokenAdvice("unauthorized", false));
      return;
    }
    // Every board, page after page (docs/protocol.md#conventions): a server with more boards
    // than a page holds shows them all, never a silently cut list.
    /** @type {BoardSummary[]} */
    const boards = [];
    /** @type {string | undefined} */
    let cursor;
    do {
      const query = cursor === undefined ? "" : `?${new URLSearchParams({ cursor })}`;
      const response = await fetch(`/api/boards${query}`, { headers: withToken({ Accept: "application/json" }, token) });
      const advice = await refusal(response);
      if (advice) {
        showListNote(advice);
        return;
      }
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      /** @type {{ boards: BoardSummary[], next?: string }} */
      const page = await response.json();
      boards.push(...page.boards);
      cursor = page.next;
    } while (cursor !== undefined);
    list.replaceChildren(
      ...boards.map((board) => {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = `/b/${encodeURIComponent(board.id)}`;
        link.textContent = board.title;
        const id = document.createElement("span");
        id.className = "board-id";
        id.textContent = `${board.id} · ${board.seq} change${board.seq === 1 ? "" : "s"}`;
        link.append(id);
        item.append(link);
        return item;
      }),
    );
    if (boards.length === 0) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = "No boards yet: create the first one below.";
      list.append(empty);
    }
  } catch (failure) {
    list.replaceChildren(Object.assign(document.createElement("li"), { className: "empty", textContent: `Boards cannot be listed: ${/** @type {Error} */ (failure).message}.` }));
  } finally {
    list.setAttribute("aria-busy", "false");
    document.body.dataset.ready = "true";
  }
}

/** The id follows the title until someone types an id of their own. */
let idEdited = false;
idField.addEventListener("input", () => { idEdited = idField.value !== ""; });
titleField.addEventListener("input", () => {
  if (idEdited) return;
  idField.value = titleField.value.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 64);
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  // Ids are NFC on the server (docs/protocol.md#1-the-model): what a keyboard or a paste
  // gives in another form is the same text, sent the way the server takes it.
  const id = idField.value.trim().normalize("NFC");
  const title = titleField.value.trim();
  const body = {
    id,
    title,
    collections: [
      { id: "todo", title: "To do", items: [] },
      { id: "doing", title: "Doing", items: [] },
      { id: "done", title: "Done", items: [] },
    ],
  };
  try {
    const response = await fetch("/api/boards", {
      method: "POST",
      headers: withToken({ "Content-Type": "application/json", Accept: "application/json" }, token),
      body: JSON.stringify(body),
    });
    if (response.status === 201) {
      location.assign(`/b/${encodeURIComponent(id)}`);
      return;
    }
    const advice = await refusal(response);
    if (advice) {
      error.textContent = advice;
      return;
    }
    const answer = await response.json().catch(() => ({}));
    error.textContent = response.status === 409 ? `There is already a board “${id}”.` : answer.message ?? `The server answered ${response.status}.`;
  } catch (failure) {
    error.textContent = `The board could not be created: ${/** @type {Error} */ (failure).message}.`;
  }
});

showBoards();
