// Drags of columns (docs/protocol.md#6-presence-drag-state): the SDK starts, moves and ends
// one like a drag of items, and its presence state shows the others' — who, which columns,
// the placeholder's index among the columns — from single messages, batches of both forms and
// a welcome.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp } from "./harness.js";

test("a drag of columns goes out with collections, its placeholder without a collection, paced", () => {
  const { live, socket, join, timers } = setUp();
  join();
  live.startColumnDrag(["todo"]);
  assert.deepEqual(socket().sent.at(-1), { type: "drag.start", collections: ["todo"] });
  live.columnDragOver(1);
  live.columnDragOver(2);
  assert.deepEqual(socket().sentOfType("drag.over"), [{ type: "drag.over", index: 1 }]);
  timers.advance(50);
  assert.deepEqual(socket().sentOfType("drag.over").at(-1), { type: "drag.over", index: 2 });
  live.endDrag();
  assert.deepEqual(socket().sent.at(-1), { type: "drag.end" });
});

test("presence: another's drag of columns shows who holds which columns and where its placeholder is", () => {
  const { live, socket, join } = setUp();
  join({ peers: [{ client: "bob", name: "Bob" }] });
  socket().receive({ type: "drag", client: "bob", name: "Bob", collections: ["todo"], over: null });
  assert.deepEqual(live.peers.get("bob").drag, { items: [], collections: ["todo"], over: null });
  assert.equal(live.columnHolderOf("todo").name, "Bob");
  assert.equal(live.holderOf("todo"), null, "a column's id is no card's");
  assert.deepEqual(live.columnDrags.map(({ peer, collections, index, before }) => [peer.name, collections, index, before]), [["Bob", ["todo"], null, null]]);
  socket().receive({ type: "drag.over", client: "bob", over: { index: 2, before: "done" } });
  assert.deepEqual(live.columnDrags.map(({ index, before }) => [index, before]), [[2, "done"]]);
  socket().receive({ type: "drag.cleared", client: "bob", reason: "drop" });
  assert.equal(live.columnHolderOf("todo"), null);
  assert.deepEqual(live.columnDrags, []);
});

test("presence: a drag of columns in a welcome and in a compact batch", () => {
  const { live, socket, join } = setUp();
  join({ peers: [{ client: "bob", name: "Bob", drag: { collections: ["a", "b"], over: { index: 0, before: "c" } } }, { client: "cy", name: "Cy" }] });
  assert.deepEqual(live.peers.get("bob").drag, { items: [], collections: ["a", "b"], over: { index: 0, before: "c" } });
  socket().receive({ type: "drags.compact", changes: [["cy", "Cy", ["c"], null, null], ["cy", 1, null], ["bob", "drop"]] });
  assert.deepEqual(live.columnDrags.map(({ peer, collections, index, before }) => [peer.name, collections, index, before]), [["Cy", ["c"], 1, null]]);
  assert.equal(live.peers.get("bob").drag, null);
});
