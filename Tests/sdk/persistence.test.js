// Operations without an answer survive the page: kept per board, resent with their opIds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp, labelsOf } from "./harness.js";
import { MemoryStorage } from "./fakes.js";

test("a pending move is kept in storage until its answer", () => {
  const { live, socket, join, storage } = setUp();
  join();
  live.move(["a"], { collection: "done", before: null });
  const stored = JSON.parse(storage.getItem("corkboard.pending.b"));
  assert.equal(stored.length, 1);
  assert.equal(stored[0].epoch, "e1");
  assert.deepEqual(stored[0].request.sources, ["a"]);
  socket().receive({ type: "committed", seq: 1, opId: stored[0].request.opId, client: "me", adjusted: false, op: { type: "move", sources: ["a"], destination: { collection: "done", before: null } } });
  assert.equal(storage.getItem("corkboard.pending.b"), null);
});

test("a reload sends what the last page left, with the same opIds, based on the new snapshot", () => {
  const storage = new MemoryStorage();
  const first = setUp({ storage });
  // Offline from the start: never welcomed, the move is only shown and stored.
  first.live.move(["a"], { collection: "done", before: null });
  assert.equal(first.live.pending, 1);
  const [{ request: kept }] = JSON.parse(storage.getItem("corkboard.pending.b"));
  first.live.close();

  const second = setUp({ storage });
  assert.equal(second.live.pending, 1, "restored before any welcome");
  second.join({ seq: 7 });
  const [resent] = second.socket().sentOfType("move");
  assert.equal(resent.opId, kept.opId);
  assert.equal(resent.baseSeq, 7);
  assert.deepEqual(labelsOf(second.live.board, "done"), ["a"]);
  second.socket().receive({ type: "committed", seq: 8, opId: kept.opId, client: "me", adjusted: false, op: { type: "move", sources: ["a"], destination: { collection: "done", before: null } } });
  assert.equal(second.live.pending, 0);
  assert.equal(storage.getItem("corkboard.pending.b"), null);
  assert.equal(second.events.find((e) => e.type === "board" && e.detail.cause === "committed").detail.own, true);
});

test("a restored operation the server already committed is settled by its repeated answer", () => {
  const storage = new MemoryStorage();
  storage.setItem("corkboard.pending.b", JSON.stringify([{ epoch: "e1", request: { type: "lock", locked: true, opId: "old-1" } }]));
  const { live, socket, join } = setUp({ storage });
  join({ seq: 5 });
  assert.equal(socket().sentOfType("lock")[0].opId, "old-1");
  socket().receive({ type: "committed", seq: 3, opId: "old-1", client: "me", adjusted: false, op: { type: "lock", locked: true } });
  assert.equal(live.pending, 0);
  assert.equal(storage.getItem("corkboard.pending.b"), null);
});

test("boards keep their operations apart, and unreadable storage is dropped, not sent", () => {
  const storage = new MemoryStorage();
  storage.setItem("corkboard.pending.other", JSON.stringify([{ epoch: "e1", request: { type: "lock", locked: true, opId: "o-1" } }]));
  storage.setItem("corkboard.pending.b", "{not json");
  const { live, socket, join } = setUp({ storage });
  assert.equal(live.pending, 0);
  join();
  assert.equal(socket().sentOfType("lock").length, 0);
  assert.equal(storage.getItem("corkboard.pending.b"), null);
  assert.notEqual(storage.getItem("corkboard.pending.other"), null);
});

test("storage: null keeps nothing; a throwing storage works as none", () => {
  const none = setUp({ storage: null });
  none.join();
  none.live.lock(true);
  assert.equal(none.live.pending, 1);
  const throwing = { getItem() { throw new Error("denied"); }, setItem() { throw new Error("full"); }, removeItem() { throw new Error("denied"); } };
  const broken = setUp({ storage: throwing });
  broken.join();
  broken.live.lock(true);
  assert.equal(broken.live.pending, 1);
});

test("two tabs on one board keep each other's waiting operations", () => {
  const storage = new MemoryStorage();
  const first = setUp({ storage });
  const second = setUp({ storage });
  first.join();
  second.join();
  first.live.lock(true);
  second.live.delete(["a"]);
  const stored = () => JSON.parse(storage.getItem("corkboard.pending.b") ?? "[]").map((e) => e.request.type).sort();
  assert.deepEqual(stored(), ["delete", "lock"]);
  const { opId } = second.socket().sentOfType("delete")[0];
  second.socket().receive({ type: "committed", seq: 1, opId, client: "me", adjusted: false, op: { type: "delete", items: ["a"] } });
  assert.deepEqual(stored(), ["lock"], "the first tab's lock is still kept");
});

test("a restored operation keeps its baseSeq in the same epoch and is rebased in another", () => {
  const storage = new MemoryStorage();
  const move = (opId) => ({ type: "move", opId, baseSeq: 2, sources: ["a"], destination: { collection: "done", before: null } });
  storage.setItem("corkboard.pending.b", JSON.stringify([{ epoch: "e1", request: move("same-1") }, { epoch: "e0", request: move("other-1") }]));
  const { socket, join } = setUp({ storage });
  join({ epoch: "e1", seq: 5 });
  const sent = Object.fromEntries(socket().sentOfType("move").map((m) => [m.opId, m.baseSeq]));
  assert.deepEqual(sent, { "same-1": 2, "other-1": 5 });
  const kept = JSON.parse(storage.getItem("corkboard.pending.b"));
  assert.deepEqual(kept.map((e) => [e.epoch, e.request.baseSeq]), [["e1", 2], ["e1", 5]]);
});
