// Who is on the board at any size (docs/protocol.md#peers): the welcome's count, a tick's
// `peers` as set changes, `peers.list` pages, and `memberCount`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp } from "./harness.js";

test("the welcome's count and peers; peer.joined and peer.left move the count by one", () => {
  const { live, socket, join } = setUp();
  join({ peers: [{ client: "c1", name: "Bob", drag: null }], count: 2 });
  assert.equal(live.memberCount, 2);
  assert.deepEqual([...live.peers.keys()], ["c1"]);
  socket().receive({ type: "peer.joined", client: "c3", name: "Cy" });
  assert.equal(live.memberCount, 3);
  socket().receive({ type: "peer.left", client: "c1" });
  assert.equal(live.memberCount, 2);
  assert.deepEqual([...live.peers.keys()], ["c3"]);
});

test("a tick's peers message is applied as set changes, ourselves and known peers skipped", () => {
  const { live, socket, join } = setUp();
  join({ client: "me", peers: [{ client: "c1", name: "Bob", drag: { items: ["a"], over: null } }], count: 80 });
  const events = [];
  live.addEventListener("presence", (event) => events.push(/** @type {CustomEvent} */ (event).detail));
  socket().receive({
    type: "peers", count: 81, truncated: false, left: ["c9", "c1-unknown"],
    joined: [{ client: "me", name: "Ada" }, { client: "c1", name: "Bob" }, { client: "c2", name: "Dee" }],
  });
  assert.equal(live.memberCount, 81);
  assert.deepEqual([...live.peers.keys()], ["c1", "c2"]);
  assert.deepEqual(live.peers.get("c1")?.drag, { items: ["a"], over: null }, "a known peer keeps its drag");
  socket().receive({ type: "peers", count: 80, truncated: true, joined: [], left: ["c2"] });
  assert.equal(live.memberCount, 80);
  assert.deepEqual([...live.peers.keys()], ["c1"]);
  assert.deepEqual(events, [{ truncated: false }, { truncated: true }]);
});

test("listPeers asks for a page; its peers join the known ones and the cursor comes with the event", () => {
  const { live, socket, join } = setUp();
  assert.equal(live.listPeers(), false, "nothing goes out before the welcome");
  join({ count: 300 });
  assert.equal(live.listPeers(), true);
  assert.equal(live.listPeers(57, 200), true);
  assert.deepEqual(socket().sentOfType("peers.list"), [{ type: "peers.list", limit: 100 }, { type: "peers.list", after: 57, limit: 200 }]);
  let next;
  live.addEventListener("presence", (event) => (next = /** @type {CustomEvent} */ (event).detail.next));
  socket().receive({ type: "peers.page", count: 299, next: 4, peers: [{ client: "c4", name: "Eve", drag: null }] });
  assert.equal(next, 4);
  assert.equal(live.memberCount, 299);
  assert.deepEqual([...live.peers.keys()], ["c4"]);
});

test("after a truncated tick a small board is named again from a page, a big one keeps no more names than people", () => {
  const { live, socket, join } = setUp();
  const named = Array.from({ length: 50 }, (_, i) => ({ client: `n${i + 1}`, name: `N${i + 1}`, drag: null }));
  join({ client: "me", peers: named, count: 500 });
  // Still big, and fewer names than people: kept, and nothing asked.
  const joined = Array.from({ length: 50 }, (_, i) => ({ client: `j${i + 1}`, name: `J${i + 1}` }));
  socket().receive({ type: "peers", count: 800, truncated: true, joined, left: [] });
  assert.equal(live.peers.size, 100);
  // 90 names left for 69 people: only the tick's (none) are kept.
  socket().receive({ type: "peers", count: 70, truncated: true, joined: [], left: ["n1", "n2"] });
  assert.equal(live.peers.size, 0);
  assert.deepEqual(socket().sentOfType("peers.list"), []);
  // Small now: the names go, and the one page that holds everyone is asked for.
  socket().receive({ type: "peers", count: 3, truncated: true, joined: [], left: ["j1"] });
  assert.deepEqual(socket().sentOfType("peers.list"), [{ type: "peers.list", limit: 200 }]);
  const page = [{ client: "me", name: "Me", drag: null }, { client: "j7", name: "J7", drag: { items: ["a"], over: null } }, { client: "j9", name: "J9", drag: null }];
  // A page cut short by its bytes (a drag of many items): the SDK asks for the rest.
  socket().receive({ type: "peers.page", count: 3, next: 7, peers: page.slice(0, 2) });
  assert.deepEqual(socket().sentOfType("peers.list"), [{ type: "peers.list", limit: 200 }, { type: "peers.list", after: 7, limit: 200 }]);
  socket().receive({ type: "peers.page", count: 3, next: null, peers: page.slice(2) });
  assert.deepEqual([...live.peers.keys()], ["j7", "j9"]);
  assert.deepEqual(live.peers.get("j7")?.drag, { items: ["a"], over: null });
  assert.equal(live.memberCount, 3);
});

test("a dropped socket forgets the people and their count", () => {
  const { live, socket, join } = setUp();
  join({ peers: [{ client: "c1", name: "Bob", drag: null }], count: 2 });
  socket().serverClose(1006);
  assert.equal(live.memberCount, 0);
  assert.equal(live.peers.size, 0);
});

test("a small board's welcome cut short by its bytes is completed from pages", () => {
  const { live, socket, join } = setUp();
  const dragger = { client: "c1", name: "Bob", drag: { items: ["a"], over: null } };
  join({ client: "me", peers: [dragger], count: 4 });
  assert.deepEqual(socket().sentOfType("peers.list"), [{ type: "peers.list", limit: 200 }]);
  socket().receive({ type: "peers.page", count: 4, next: 9, peers: [{ client: "me", name: "Me", drag: null }, { client: "c2", name: "Cy", drag: null }] });
  socket().receive({ type: "peers.page", count: 4, next: null, peers: [{ client: "c3", name: "Dee", drag: null }] });
  assert.deepEqual(socket().sentOfType("peers.list"), [{ type: "peers.list", limit: 200 }, { type: "peers.list", after: 9, limit: 200 }]);
  assert.deepEqual([...live.peers.keys()], ["c1", "c2", "c3"]);
  assert.deepEqual(live.peers.get("c1")?.drag, { items: ["a"], over: null });
});

test("a welcome that names everyone asks for nothing", () => {
  const { socket, join } = setUp();
  join({ client: "me", peers: [{ client: "c1", name: "Bob", drag: null }], count: 2 });
  assert.deepEqual(socket().sentOfType("peers.list"), []);
});
