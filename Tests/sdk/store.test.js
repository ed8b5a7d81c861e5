// The store API: subscribe → unsubscribe, and getSnapshot's immutable snapshot, whose identity
// changes only when something changed (React's useSyncExternalStore, Vue's shallowRef).
import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp } from "./harness.js";

test("the snapshot stays the same object until something changes, and is frozen", () => {
  const { live, join } = setUp();
  const before = live.getSnapshot();
  assert.equal(live.getSnapshot(), before, "asked twice, nothing changed: the same object");
  assert.equal(before.state, "connecting");
  assert.equal(before.board, null);
  join({ seq: 3 });
  const joined = live.getSnapshot();
  assert.notEqual(joined, before);
  assert.equal(joined.state, "live");
  assert.equal(joined.board, live.board);
  assert.equal(joined.seq, 3);
  assert.deepEqual(joined.me, { client: "me", name: "Ada", role: "editor" });
  assert.equal(joined.canEdit, true);
  assert.ok(Object.isFrozen(joined) && Object.isFrozen(joined.peers));
  assert.throws(() => {
    /** @type {any} */ (joined).state = "closed";
  }, TypeError);
  assert.equal(live.getSnapshot(), joined);
});

test("subscribers hear every change until they unsubscribe; the methods work unbound", () => {
  const { live, join } = setUp();
  const { subscribe, getSnapshot } = live;
  let calls = 0;
  const unsubscribe = subscribe(() => {
    calls += 1;
  });
  join();
  assert.ok(calls >= 2, "state, board and presence changed");
  const seen = calls;
  const snapshot = getSnapshot();
  live.move(["a"], { collection: "done", before: null });
  assert.ok(calls > seen);
  assert.notEqual(getSnapshot(), snapshot);
  assert.equal(getSnapshot().pending, 1);
  assert.deepEqual(getSnapshot().board?.collections[1].items.map((i) => i.id), ["a"]);
  unsubscribe();
  const after = calls;
  live.move(["b"], { collection: "done", before: null });
  assert.equal(calls, after, "no call after unsubscribe");
});

test("an event that changed nothing in the snapshot keeps its identity", () => {
  const { live, join, socket } = setUp();
  join();
  const snapshot = live.getSnapshot();
  let calls = 0;
  live.subscribe(() => (calls += 1));
  // A refused drag.start changes nothing the snapshot holds.
  socket().receive({ type: "rejected", code: "busy", ref: "drag.start", holder: "x" });
  assert.equal(calls, 1);
  assert.equal(live.getSnapshot(), snapshot);
});

test("peers are copied: a drag that moves on makes a new snapshot and leaves the old one as it was", () => {
  const { live, join, socket } = setUp();
  join({ peers: [{ client: "p", name: "Bo" }], count: 2 });
  socket().receive({ type: "drag", client: "p", name: "Bo", items: ["a"], over: { collection: "todo", index: 0 } });
  const first = live.getSnapshot();
  assert.deepEqual(first.peers.map((p) => p.drag?.over?.index), [0]);
  socket().receive({ type: "drag.over", client: "p", over: { collection: "todo", index: 2 } });
  const second = live.getSnapshot();
  assert.notEqual(second, first);
  assert.equal(second.peers[0].drag?.over?.index, 2);
  assert.equal(first.peers[0].drag?.over?.index, 0, "the earlier snapshot did not change");
  assert.equal(second.memberCount, 2);
});

test("a refused board's snapshot says why", () => {
  const { live, socket } = setUp();
  assert.equal(live.getSnapshot().refusal, null);
  socket().open();
  socket().receive({ type: "error", code: "not-found", message: "no board \"b\"" });
  socket().serverClose(1008);
  const snapshot = live.getSnapshot();
  assert.equal(snapshot.state, "refused");
  assert.deepEqual(snapshot.refusal, { code: "not-found", message: "no board \"b\"" });
});
