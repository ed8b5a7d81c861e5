// A plain page, on its own origin, that embeds one collection of a Corkboard board as a
// playlist: the SDK comes from the Corkboard server (`/sdk/corkboard.js`, allowed for this
// origin by `corkboard serve --allowed-origins`), and liveList does the reordering.
//
// The query says where and what: ?server=http://127.0.0.1:8080&board=playlist&collection=songs
// (and &name=Ada, &token=… for a server in token mode, &handle=1 for drag handles).

const params = new URLSearchParams(location.search);
const server = params.get("server") ?? "http://localhost:8080";
const board = params.get("board") ?? "playlist";
const collection = params.get("collection") ?? "songs";
const token = params.get("token") ?? undefined;
const name = params.get("name") ?? `Listener ${Math.floor(100 + Math.random() * 900)}`;
// &handle=1: songs are picked up by their grip only (at once, on touch too) instead of anywhere (press-and-hold on touch).
const handle = params.has("handle") ? ".grip" : null;

const status = /** @type {HTMLElement} */ (document.querySelector("#status"));
const people = /** @type {HTMLElement} */ (document.querySelector("#people"));
const list = /** @type {HTMLOListElement} */ (document.querySelector("#playlist"));
const title = /** @type {HTMLElement} */ (document.querySelector("#title"));

const { connect, liveList } = await import(`${server}/sdk/corkboard.js`);
const live = connect({ url: server, board, name, token });

liveList(list, {
  live,
  collection,
  handle,
  // Each song's data may carry { artist, length }; the label is its title.
  render(item, li) {
    li.classList.add("song");
    const data = item.data ?? {};
    li.replaceChildren(
      ...(handle ? [element("span", "grip", "⠿")] : []),
      element("span", "number", ""),
      element("span", "title", item.label, element("span", "artist", String(data.artist ?? ""))),
      element("span", "length", String(data.length ?? "")),
    );
  },
});

const STATES = { connecting: "Connecting…", live: "Live", offline: "Offline", closed: "Closed", refused: "Refused" };
function showState() {
  const waiting = live.pending ? ` · ${live.pending} waiting` : "";
  status.dataset.state = live.state;
  status.textContent = `${STATES[live.state] ?? live.state}${waiting}`;
}
live.addEventListener("state", showState);
live.addEventListener("board", () => {
  showState();
  const songs = live.board?.collections.find((c) => c.id === collection);
  title.textContent = songs ? `${songs.title} · ${live.board.title}` : `No collection “${collection}” on this board`;
});
live.addEventListener("presence", () => {
  const others = [...live.peers.values()].map((peer) => peer.name);
  people.textContent = others.length ? `Also here: ${others.join(", ")}` : "Nobody else is here.";
});
live.addEventListener("rejected", (event) => {
  status.textContent = `Not moved: ${event.detail.message ?? event.detail.code}`;
});
live.addEventListener("fatal", (event) => {
  status.dataset.state = "refused";
  status.textContent = event.detail?.message ?? "The server refused this board.";
});
showState();

/**
 * @param {string} tag
 * @param {string} className
 * @param {string} text
 * @param {...Node} children
 */
function element(tag, className, text, ...children) {
  const node = document.createElement(tag);
  node.className = className;
  node.append(text, ...children);
  return node;
}
