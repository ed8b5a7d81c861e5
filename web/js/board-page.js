// @ts-check
// The board page (`/b/{id}`): wires the SDK's live board (the server, ../sdk/), the view
// (the DOM), pointer and keyboard moves, drops from outside the board, editing, presence,
// the connection badge and the read-only banner.

import { connect } from "../sdk/corkboard.js";
import { BoardView } from "./view.js";
import { BoardDrag } from "./board-drag.js";
import { ColumnDrag } from "./column-drag.js";
import { RemoteColumns } from "./remote-columns.js";
import { ColumnMenu } from "./column-menu.js";
import { Editing } from "./editing.js";
import { UndoControls } from "./undo-controls.js";
import { Announcer, Notices } from "./feedback.js";
import { accessToken, chosenHue, displayName, forgetToken, tokenAdvice } from "./people.js";
import { namesOnTap, showPeople as drawPeople } from "./presence-list.js";
import { NameEditor } from "./name-editor.js";
import { EditingMarks } from "./editing-marks.js";
import { CardSelection } from "./selection.js";
import { LockControl } from "./lock.js";
import { OutsideDrop } from "./outside-drop.js";
import { DragOut } from "./drag-out.js";
import { Transfers } from "./transfers.js";
import { showLinkedCard } from "./card-link.js";
import { enclosingFolders, findCollection, findItem } from "../sdk/replica.js";
import { OpenFolders, listName } from "./folders.js";

/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {import("../sdk/replica.js").MoveOperation} MoveOperation */
/** @typedef {import("../sdk/live.js").LiveBoard} LiveBoard */
/** @typedef {import("../sdk/live.js").BoardChange} BoardChange */
/** @typedef {import("../sdk/wire.js").Committed} Committed */
/** @typedef {import("../sdk/wire.js").Rejected} Rejected */
/**
 * What the ways of changing the board (pointer, keyboard, editing) share: the live board
 * (`session`), the view, the two voices of the page, and how to name cards in what they say.
 * @typedef {{ session: LiveBoard, view: BoardView, announcer: Announcer, notices: Notices,
 *   describe: (items: string[]) => string }} PageParts
 */

const params = new URLSearchParams(location.search);
const boardId = decodeURIComponent(location.pathname.replace(/^\/b\//, "").replace(/\/$/, ""));
let name = displayName(params);

// Operations without an answer are kept in localStorage (the SDK's default) and sent again
// by the next page on this board: a reload or a crash loses nothing.
const session = connect({ board: boardId, name, hue: chosenHue(), token: accessToken(params) });
// board.html has every element this module looks up by id.
const view = new BoardView(/** @type {HTMLElement} */ (document.getElementById("board")));
const notices = new Notices(/** @type {HTMLElement} */ (document.getElementById("notice")));
const announcer = new Announcer(/** @type {HTMLElement} */ (document.getElementById("announcer")));
// Which folders this person keeps open on this board, as they left them last time.
const openFolders = new OpenFolders(browserStorage(), boardId, name);
view.isFolderOpen = (/** @type {string} */ id) => openFolders.isOpen(id);

/**
 * "Write a bot" or "3 cards": how announcements name what is moving.
 * @param {string[]} items
 * @returns {string}
 */
function describe(items) {
  if (items.length !== 1) return `${items.length} cards`;
  const found = session.board && findItem(session.board, items[0]);
  return found ? found.item.label : "the card";
}

/** @type {PageParts} */
const tools = { session, view, announcer, notices, describe };
// Cards moved by pointer and keyboard, on the SDK's drag engine.
const drag = new BoardDrag(tools);
const editing = new Editing(tools);
// Your name (your own chip opens the editor) and the others' "is editing" marks on cards.
const nameEditor = new NameEditor(session, (renamed) => {
  name = renamed;
  // `?name=` would win over the new name on the next load: it goes from the address.
  if (params.has("name")) {
    params.delete("name");
    const query = params.toString();
    history.replaceState(history.state, "", location.pathname + (query ? `?${query}` : "") + location.hash);
  }
  announcer.say(`You are ${renamed} now.`);
  showPeople();
});
const editingMarks = new EditingMarks(view, session);
editing.onToggleFolder = toggleFolder;
// Columns moved by their grip (pointer, touch, keyboard) and by their menu, which also removes them.
const columnDrag = new ColumnDrag(tools);
// The others' drags of columns in progress: the column held, and a ghost where it would land.
const remoteColumns = new RemoteColumns(view, session);
new ColumnMenu(tools, editing.deleteConfirm);
new UndoControls(tools, () => drag.active || columnDrag.active);
const selection = new CardSelection(view, announcer);
const lock = new LockControl(session);
// Text, links and files dragged in from other apps and tabs (HTML5 drag and drop); left
// alone while a card is in hand here.
// Cards dragged out by their grip (to another board, tab or app), and cards of another board
// dropped here (moved: an insert here, a delete there).
const transfers = new Transfers({ session, token: session.token, notices, announcer }, localStorage);
const outside = new OutsideDrop(tools, () => drag.active, transfers);
new DragOut(tools, boardId);

view.afterRender = () => {
  drag.restore();
  columnDrag.restore();
  outside.restore();
  view.showPresence([...session.peers.values()], session.board);
  remoteColumns.show();
  editingMarks.show();
};

// MARK: Server → page

session.addEventListener("board", (event) => {
  const { cause, event: committed, own } = /** @type {CustomEvent<BoardChange>} */ (event).detail;
  // A "board" event comes only once the session has a board to show.
  const board = /** @type {Board} */ (session.board);
  showText(/** @type {HTMLElement} */ (document.getElementById("board-title")), board.title);
  if (document.title !== `${board.title} · Corkboard`) document.title = `${board.title} · Corkboard`;
  view.root.dataset.seq = String(session.seq);
  view.render(board, { editable: session.canEdit });
  showAccess();
  showConnection();
  if ((cause === "welcome" || cause === "reset") && document.body.dataset.ready !== "true") {
    document.body.dataset.ready = "true";
    // A link to a card (`#card-ID`) shows it once the board is on screen.
    showLinkedCard(location.hash, linkedCards, announcer);
    // A move of cards to this board that an earlier page began and did not finish.
    transfers.resume();
  }
  if (cause === "committed" && committed && !own) announceRemoteChange(committed);
});

addEventListener("hashchange", () => showLinkedCard(location.hash, linkedCards, announcer));

session.addEventListener("presence", () => {
  view.showPresence([...session.peers.values()], session.board);
  remoteColumns.show();
  editingMarks.show();
  showPeople();
});

session.addEventListener("state", showConnection);

session.addEventListener("rejected", (event) => {
  const rejected = /** @type {CustomEvent<Rejected>} */ (event).detail;
  if (rejected.ref === "drag.start") {
    // The grab is over: a placeholder update still waiting to be sent would tell the others
    // of a drag the server never started.
    session.cancelDragOver();
    // `holder` comes with `busy` only; otherwise no one is found.
    const holder = session.peers.get(/** @type {string} */ (rejected.holder))?.name;
    if (!columnDrag.refused(holder)) drag.refused(holder);
    if (rejected.code !== "busy") notices.showRejection(rejected);
    return;
  }
  notices.showRejection(rejected);
  announcer.say(`Not done: ${rejected.message ?? rejected.code}.`);
  showConnection();
});

// The server let go of our drag (held longer than it allows): the card stays where the
// board has it, and we say why.
session.addEventListener("drag-ended", () => {
  if (columnDrag.letGo()) {
    const text = "You held the column for longer than this board allows, so it was let go for the others to move. You can pick it up again in a few seconds.";
    notices.show(text);
    announcer.say(text);
    return;
  }
  if (!drag.letGo()) return;
  const text = "You held the card for longer than this board allows, so it was let go for the others to move. You can pick it up again in a few seconds.";
  notices.show(text);
  announcer.say(text);
});

session.addEventListener("fatal", (event) => {
  const { message: reason, code } = /** @type {CustomEvent<{ message: string, code: string | null }>} */ (event).detail;
  view.root.replaceChildren();
  const message = document.createElement("p");
  message.className = "loading";
  // The header says it too: its badge and title stayed "Offline" and "…", which read as a
  // network trouble that waiting would end.
  const heading = code === "unauthorized" ? (session.token ? "Token refused" : "Token needed") : code === "forbidden" ? "No access to this board" : "Board not available";
  showText(/** @type {HTMLElement} */ (document.getElementById("board-title")), heading);
  document.title = `${heading} · Corkboard`;
  showConnection();
  // A refused or missing token: say how to get in (a refused one is forgotten).
  if (code === "unauthorized" || code === "forbidden") {
    if (code === "unauthorized" && session.token) forgetToken();
    message.classList.add("token-needed");
    message.append(`${tokenAdvice(code, session.token !== null, reason)} `);
  } else {
    message.append(`${reason} `);
  }
  // Refused operations are not lost: the SDK keeps them for a page that may open the board.
  const waiting = session.pending;
  if (waiting) message.append(`${waiting === 1 ? "Your change that was not sent is" : `Your ${waiting} changes that were not sent are`} kept in this browser. `);
  const home = document.createElement("a");
  home.href = "/";
  home.textContent = "See all boards";
  message.append(home);
  view.root.append(message);
  document.body.dataset.ready = "true";
});

/**
 * Tells a screen reader when someone else moves the card it is on.
 * @param {Committed} event
 */
function announceRemoteChange(event) {
  const focused = /** @type {HTMLElement | null | undefined} */ (document.activeElement?.closest?.("li.card"))?.dataset.itemId;
  if (!focused) return;
  const who = [...session.peers.values()].find((p) => p.client === event.client)?.name ?? "Someone";
  if (event.op.type === "move" && event.op.sources.includes(focused)) {
    const board = /** @type {Board} */ (session.board);
    const destination = /** @type {MoveOperation} */ (event.op).destination.collection;
    const column = findCollection(board, destination);
    const index = column ? column.items.findIndex((i) => i.id === focused) : -1;
    announcer.say(`${who} moved ${describe([focused])} to ${column ? listName(board, destination) : "another column"}, position ${index + 1}.`);
  } else if (event.op.type === "update" && event.op.item === focused) {
    announcer.say(`${who} edited this card: ${describe([focused])}.`);
  }
}

// MARK: Badges

/** @typedef {"connecting" | "connected" | "reconnecting" | "offline" | "refused"} BadgeState */
/** @type {Record<BadgeState, string>} */
const CONNECTION_TEXT = { connecting: "Connecting…", connected: "Live", reconnecting: "Reconnecting…", offline: "Offline", refused: "Not open" };

/**
 * The badge's state (`data-state`, styled by board.css): the SDK's state, with a
 * connection lost after a first welcome told apart as reconnecting.
 * @returns {BadgeState}
 */
function badgeState() {
  switch (session.state) {
    case "live":
      return "connected";
    case "connecting":
      return session.me ? "reconnecting" : "connecting";
    case "offline":
    case "closed":
      return "offline";
    // The server will not open the board for this page (the page says why): no retry ends it.
    case "refused":
      return "refused";
  }
}

/**
 * Writes `text` into `element` unless it already says it: these run on every change of the
 * board, and rewriting the same text would make the browser lay the header out again.
 * @param {HTMLElement} element
 * @param {string} text
 */
function showText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

function showConnection() {
  const badge = /** @type {HTMLElement} */ (document.getElementById("connection"));
  const state = badgeState();
  const waiting = session.pending;
  badge.dataset.state = state;
  badge.dataset.pending = String(waiting);
  showText(badge, CONNECTION_TEXT[state] + (state !== "connected" && waiting ? ` · ${waiting} waiting` : ""));
  badge.title =
    state === "connected" ? "Changes are shared live" : state === "refused" ? "The server did not open this board for you: see the page" : "Changes are kept and sent when the connection is back";
}

function showPeople() {
  const list = /** @type {HTMLElement} */ (document.getElementById("presence"));
  // The server's word on our name: a token that names us wins over the one we asked for.
  const shown = session.me?.name ?? name;
  const self = { client: session.me?.client ?? "me", name: shown, hue: session.hue, self: true };
  drawPeople(list, [self, ...session.peers.values()], session.memberCount, (button) =>
    nameEditor.open(button),
  );
}

function showAccess() {
  const banner = /** @type {HTMLElement} */ (document.getElementById("readonly"));
  const locked = session.confirmed?.locked;
  const viewer = session.me?.role === "viewer";
  banner.hidden = !locked && !viewer;
  showText(banner, viewer ? "View only: your access lets you watch this board" : lock.banner());
  document.body.classList.toggle("read-only", locked || viewer);
  const toggle = /** @type {HTMLElement} */ (document.getElementById("lock-toggle"));
  toggle.hidden = session.me?.role !== "owner";
  showText(toggle, locked ? "Unlock" : "Lock");
  toggle.setAttribute("aria-pressed", locked ? "true" : "false");
}

/** @type {HTMLElement} */ (document.getElementById("lock-toggle")).addEventListener("click", () => lock.toggle());

// MARK: Folders

/**
 * localStorage, or null where the page may not use it (then open folders last for this page).
 * @returns {Storage | null}
 */
function browserStorage() {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

/**
 * Opens a closed folder or closes an open one, remembers it, and shows it.
 * @param {string} id
 */
function toggleFolder(id) {
  const open = openFolders.toggle(id);
  view.redraw();
  announcer.say(`${describe([id])} ${open ? "opened" : "closed"}.`);
}

/**
 * A link to a card in a closed folder opens the folders around it first (and keeps them open:
 * the person asked to see it).
 */
const linkedCards = {
  /** @param {string} id */
  reveal(id) {
    const board = session.board;
    const place = board && findItem(board, id);
    if (board && place?.collection.folder && !view.cards.has(id)) {
      for (const folder of enclosingFolders(board, place.collection.id)) openFolders.toggle(folder, true);
      view.redraw();
    }
    return view.reveal(id);
  },
};

// MARK: Keys and selection on cards

view.root.addEventListener("keydown", (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const card = /** @type {HTMLElement | null | undefined} */ (target.closest?.("li.card"));
  // A key on a card's own button (focused by a click on it) is the button's.
  if (card && !target.isContentEditable && !target.closest("button")) {
    if (drag.key(event, card)) return event.preventDefault();
    if (drag.active) return undefined;
    if (event.key === "Enter") editing.editCard(card);
    else if (event.key === "Delete" || event.key === "Backspace") editing.deleteCard(card);
    else if (event.key === "ContextMenu" || (event.key === "F10" && event.shiftKey) || event.key === "m") {
      editing.openMenu(card, /** @type {HTMLElement} */ (card.querySelector(":scope > .card-menu")));
    } else if (event.key === "o" && card.classList.contains("folder")) {
      toggleFolder(/** @type {string} */ (card.dataset.itemId));
    } else if (event.key.startsWith("Arrow")) focusNeighbour(card, event.key);
    else return undefined;
    return event.preventDefault();
  }
  const title = /** @type {HTMLElement | null | undefined} */ (target.closest?.(".column-title"));
  if (!title || title.isContentEditable) return undefined;
  const column = /** @type {HTMLElement} */ (title.closest("section.column"));
  // Enter or Space (the title's activate keys) open its editor with the title selected.
  if (event.key === "Enter" || event.key === " ") editing.renameColumn(column);
  // Any other character typed on the focused title starts the new title with it: typing
  // "In progress" there keeps every letter (Space, typed after them, is text, not "activate").
  else if (typesText(event) && session.canEdit) editing.renameColumn(column, event.key);
  else return undefined;
  return event.preventDefault();
});

view.root.addEventListener("click", (event) => {
  const target = /** @type {Element} */ (event.target);
  const title = /** @type {HTMLElement | null} */ (target.closest(".column-title"));
  if (title && !title.isContentEditable && session.canEdit) return editing.renameColumn(/** @type {HTMLElement} */ (title.closest("section.column")));
  const toggle = target.closest(".folder-toggle");
  if (toggle) return toggleFolder(/** @type {string} */ (/** @type {HTMLElement} */ (toggle.closest("li.card")).dataset.itemId));
  const card = /** @type {HTMLElement | null} */ (target.closest("li.card"));
  if (!card || target.closest("button") || card.querySelector(":scope > .editing")) return undefined;
  // Only a card being written (a draft, which is `.editing` inside) has no id: it is not here.
  selection.clicked(event, card);
  return undefined;
});

/**
 * Whether the key types a character (not a shortcut, a named key or part of a composition).
 * AltGr comes as Ctrl+Alt on Windows, and Option (Alt) types characters on a Mac.
 * @param {KeyboardEvent} event
 */
function typesText(event) {
  return [...event.key].length === 1 && !event.isComposing && !event.metaKey && (!event.ctrlKey || event.altKey);
}

/**
 * Arrow keys without a card in hand walk the board.
 * @param {HTMLElement} card
 * @param {string} key
 */
function focusNeighbour(card, key) {
  // From the board's order: a long column draws only the cards near the screen.
  const next = view.neighbour(/** @type {string} */ (card.dataset.itemId), key);
  if (next) view.reveal(next)?.focus();
}

namesOnTap(/** @type {HTMLElement} */ (document.getElementById("presence")));
showConnection();
showPeople();
