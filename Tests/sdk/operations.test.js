// Pending operations: shown at once, settled by their answer, rolled back when refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp, labelsOf } from "./harness.js";
import { CorkboardRejection } from "../../web/sdk/corkboard.js";

const move = (sources, collection, before = null) => ({ type: "move", sources, destination: { collection, before } });

test("a move shows at once, goes out with opId and baseSeq, and resolves when committed", async () => {
  const { live, socket, join, events } = setUp();
  assert.equal(socket().url, "ws://127.0.0.1:1/ws?board=b");
  join();
  assert.equal(live.state, "live");
  assert.deepEqual(socket().sent[0], { type: "hello", board: "b", name: "Ada", presence: "compact" });
  const done = live.move(["a"], { collection: "done", before: null });
  assert.deepEqual(labelsOf(live.board, "done"), ["a"]);
  assert.deepEqual(labelsOf(live.confirmed, "done"), []);
  assert.equal(live.pending, 1);
  const sent = socket().sentOfType("move")[0];
  assert.equal(sent.baseSeq, 0);
  socket().receive({ type: "committed", seq: 1, opId: sent.opId, client: "me", adjusted: false, op: move(["a"], "done") });
  assert.deepEqual(await done, { status: "committed", seq: 1, adjusted: false });
  assert.equal(live.pending, 0);
  assert.equal(live.board.seq, 1);
  assert.deepEqual(labelsOf(live.confirmed, "done"), ["a"]);
  const causes = events.filter((e) => e.type === "board").map((e) => e.detail.cause);
  assert.deepEqual(causes, ["welcome", "local", "committed"]);
  assert.equal(events.filter((e) => e.type === "committed").length, 1);
});

test("someone else's event lands under our pending move, which stays on top", () => {
  const { live, socket, join } = setUp();
  join();
  live.move(["a"], { collection: "done", before: null });
  socket().receive({ type: "committed", seq: 1, opId: "x-1", client: "bob", adjusted: false, op: move(["c"], "done") });
  assert.deepEqual(labelsOf(live.confirmed, "done"), ["c"]);
  assert.deepEqual(labelsOf(live.board, "done"), ["c", "a"]);
  assert.equal(live.pending, 1);
});

test("a refusal rolls the operation back, rejects its promise and tells the page", async () => {
  const { live, socket, join, events } = setUp();
  join();
  const done = live.delete(["a"]);
  assert.deepEqual(labelsOf(live.board, "todo"), ["b", "c"]);
  const { opId } = socket().sentOfType("delete")[0];
  socket().receive({ type: "rejected", opId, code: "locked", message: "the board is locked" });
  await assert.rejects(done, (error) => error instanceof CorkboardRejection && error.code === "locked" && error.op.type === "delete");
  assert.deepEqual(labelsOf(live.board, "todo"), ["a", "b", "c"]);
  assert.equal(live.pending, 0);
  const rejected = events.find((e) => e.type === "rejected");
  assert.deepEqual(rejected.detail, { code: "locked", message: "the board is locked", op: { type: "delete", items: ["a"] } });
  assert.equal(events.filter((e) => e.type === "board").at(-1).detail.cause, "rollback");
});

test("rate-limited is retried with the same opId, then given up after four tries", async () => {
  const { live, socket, join, timers } = setUp();
  join();
  const done = live.lock(true);
  const { opId } = socket().sentOfType("lock")[0];
  for (let attempt = 1; attempt <= 4; attempt++) {
    socket().receive({ type: "rejected", opId, code: "rate-limited" });
    timers.advance(500 * attempt);
    assert.equal(socket().sentOfType("lock").length, attempt + 1);
    assert.equal(socket().sentOfType("lock").at(-1).opId, opId);
  }
  socket().receive({ type: "rejected", opId, code: "rate-limited" });
  await assert.rejects(done, (error) => error.code === "rate-limited");
});

test("a noop answer resolves as noop", async () => {
  const { live, socket, join } = setUp();
  join();
  const done = live.move(["a"], { collection: "todo", before: "b" });
  const { opId } = socket().sentOfType("move")[0];
  socket().receive({ type: "committed", noop: true, opId, seq: 0 });
  assert.deepEqual(await done, { status: "noop" });
  assert.equal(live.pending, 0);
});

test("every operation method sends the protocol's shape", () => {
  const { live, socket, join } = setUp();
  join();
  live.insert([{ id: "n", label: "New" }], { collection: "todo", before: "a" });
  live.update("a", { label: "A2", data: null });
  live.addCollection("later", "Later");
  live.renameCollection("done", "Finished");
  live.removeCollection("later");
  live.lock(true);
  const sent = socket().sent.slice(1).map(({ opId, ...rest }) => (assert.match(opId, /^[a-z0-9]+-\d+$/), rest));
  assert.deepEqual(sent, [
    { type: "insert", items: [{ id: "n", label: "New" }], destination: { collection: "todo", before: "a" }, baseSeq: 0 },
    { type: "update", item: "a", label: "A2", data: null, baseSeq: 0 },
    { type: "collection.add", collection: { id: "later", title: "Later" }, before: null },
    { type: "update", collection: "done", title: "Finished" },
    { type: "collection.remove", collection: "later" },
    { type: "lock", locked: true },
  ]);
  assert.deepEqual(labelsOf(live.board, "todo"), ["n", "a", "b", "c"]);
  assert.equal(live.board.collections.find((c) => c.id === "done").title, "Finished");
  assert.equal(live.board.locked, true);
});

test("a column move shows at once, goes out with baseSeq, and undo puts the column back", async () => {
  const { live, socket, join } = setUp();
  join();
  const ids = (board) => board.collections.map((c) => c.id);
  const before = ids(live.board);
  const [first, ...rest] = before;
  const done = live.moveCollections([first]);
  assert.deepEqual(ids(live.board), [...rest, first]);
  assert.deepEqual(ids(live.confirmed), before);
  const sent = socket().sentOfType("collection.move")[0];
  assert.deepEqual({ ...sent, opId: undefined }, { type: "collection.move", collections: [first], before: null, baseSeq: 0, opId: undefined });
  socket().receive({ type: "committed", seq: 1, opId: sent.opId, client: "me", adjusted: false, op: { type: "collection.move", collections: [first], before: null } });
  assert.deepEqual(await done, { status: "committed", seq: 1, adjusted: false });
  assert.equal(live.canUndo, true);
  live.undo().catch(() => {});
  const undo = socket().sentOfType("collection.move")[1];
  assert.deepEqual([undo.collections, undo.before, undo.baseSeq], [[first], rest[0], 1]);
  assert.deepEqual(ids(live.board), before);
  // A move naming a column that does not exist shows at once as the move of those that do.
  live.moveCollections(["nowhere", rest[0]], first);
  assert.deepEqual(ids(live.board)[0], rest[0]);
});

test("an event that skips a seq starts over from a fresh snapshot", () => {
  const { live, socket, join, sockets, timers } = setUp();
  join();
  socket().receive({ type: "committed", seq: 3, opId: "x", client: "bob", adjusted: false, op: move(["a"], "done") });
  assert.equal(live.confirmed, null);
  timers.advance(10000);
  assert.equal(sockets.length, 2);
  socket().open();
  assert.equal(socket().sent[0].resume, undefined, "no resume without a confirmed board");
  socket().receive({ type: "welcome", client: "me", role: "editor", epoch: "e1", seq: 3, peers: [], resumed: false, board: { id: "b", title: "B", locked: false, collections: [] } });
  assert.equal(live.seq, 3);
});

test("drag.over is sent at most every 50 ms, the latest always", () => {
  const { live, socket, join, timers } = setUp();
  join();
  live.startDrag(["a"]);
  live.dragOver("todo", 0);
  live.dragOver("todo", 1);
  live.dragOver("done", 0);
  assert.deepEqual(socket().sentOfType("drag.over"), [{ type: "drag.over", collection: "todo", index: 0 }]);
  timers.advance(50);
  assert.deepEqual(socket().sentOfType("drag.over").at(-1), { type: "drag.over", collection: "done", index: 0 });
  assert.equal(socket().sentOfType("drag.over").length, 2);
  live.dragOver("done", 1);
  live.endDrag();
  timers.advance(100);
  assert.equal(socket().sentOfType("drag.over").length, 2, "an end drops the placeholder still waiting");
  assert.deepEqual(socket().sent.at(-1), { type: "drag.end" });
});

test("presence: peers join, drag and leave", () => {
  const { live, socket, join } = setUp();
  join({ peers: [{ client: "bob", name: "Bob" }] });
  socket().receive({ type: "drag", client: "bob", name: "Bob", items: ["a"], over: null });
  assert.deepEqual(live.peers.get("bob").drag, { items: ["a"], over: null });
  assert.equal(live.holderOf("a").name, "Bob");
  socket().receive({ type: "drag.over", client: "bob", over: { collection: "done", index: 0, before: null } });
  assert.deepEqual(live.peers.get("bob").drag.over, { collection: "done", index: 0, before: null });
  socket().receive({ type: "drag.cleared", client: "bob", reason: "cancel" });
  assert.equal(live.peers.get("bob").drag, null);
  socket().receive({ type: "drag", client: "eve", name: "Eve", items: ["b"] });
  assert.equal(live.peers.get("eve").elsewhere, true);
  socket().receive({ type: "drag.cleared", client: "eve", reason: "drop" });
  assert.equal(live.peers.has("eve"), false);
  socket().receive({ type: "peer.left", client: "bob" });
  assert.equal(live.peers.size, 0);
});

test("presence: a drags batch is taken change by change, in order, with one presence event", () => {
  const { live, socket, join } = setUp();
  join({ peers: [{ client: "bob", name: "Bob" }, { client: "cy", name: "Cy" }] });
  let presence = 0;
  live.addEventListener("presence", () => presence++);
  const over = { collection: "done", index: 0, before: null };
  socket().receive({
    type: "drags",
    changes: [
      { type: "drag", client: "bob", name: "Bob", items: ["a"], over: null },
      { type: "drag.over", client: "bob", over },
      { type: "drag", client: "cy", name: "Cy", items: ["b"], over: null },
      { type: "drag.cleared", client: "cy", reason: "cancel" },
    ],
  });
  assert.deepEqual(live.peers.get("bob").drag, { items: ["a"], over });
  assert.equal(live.peers.get("cy").drag, null, "the clear that followed the start in the same tick ends it");
  assert.equal(presence, 1);
  let ended = null;
  live.addEventListener("drag-ended", (event) => (ended = event.detail));
  socket().receive({ type: "drags", changes: [{ type: "drag.cleared", client: live.me.client, reason: "expired" }] });
  assert.equal(ended?.reason, "expired", "our own expired drag is told to us in a batch too");
});
