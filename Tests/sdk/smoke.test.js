import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp, labelsOf } from "./harness.js";

test("a move shows at once, goes out with opId and baseSeq, and resolves when committed", async () => {
  const { live, socket, join } = setUp();
  assert.equal(socket().url, "ws://127.0.0.1:1/ws");
  join();
  assert.equal(live.state, "live");
  assert.deepEqual(socket().sent[0], { type: "hello", board: "b", name: "Ada" });
  const done = live.move(["a"], { collection: "done", before: null });
  assert.deepEqual(labelsOf(live.board, "done"), ["a"]);
  assert.equal(live.pending, 1);
  const sent = socket().sentOfType("move")[0];
  assert.equal(sent.baseSeq, 0);
  socket().receive({ type: "committed", seq: 1, opId: sent.opId, client: "me", adjusted: false, op: { type: "move", sources: ["a"], destination: { collection: "done", before: null } } });
  assert.deepEqual(await done, { status: "committed", seq: 1, adjusted: false });
  assert.equal(live.pending, 0);
  assert.equal(live.board.seq, 1);
});
