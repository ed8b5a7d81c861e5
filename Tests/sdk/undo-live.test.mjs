// live.undo() and live.redo() over the fakes: what goes out on the wire, and the stacks
// after commits, refusals and rejections. The rules themselves: undo.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp, labelsOf } from "./harness.js";
import { CorkboardRejection } from "../../web/sdk/corkboard.js";

/** Commits the last operation of `type` the client sent, as the server would. */
function commitLast(socket, type, seq, client = "me") {
  const sent = socket.sentOfType(type).at(-1);
  const { opId, baseSeq, ...op } = sent;
  socket.receive({ type: "committed", seq, opId, client, adjusted: false, op });
  return sent;
}

const restored = { id: "b", label: "B", data: { color: "red" } };

test("a delete is undone by inserting the card with its id, label and data before its neighbour, and redone", async () => {
  const { live, socket, join } = setUp();
  join({ board: { id: "b", title: "Board", locked: false, collections: [{ id: "todo", title: "To do", items: [{ id: "a", label: "A" }, restored, { id: "c", label: "C" }] }] } });
  assert.equal(live.canUndo, false);
  const deleted = live.delete(["b"]);
  commitLast(socket(), "delete", 1);
  await deleted;
  assert.equal(live.canUndo, true);

  const undone = live.undo();
  assert.deepEqual(labelsOf(live.board, "todo"), ["a", "b", "c"], "shown at once");
  const insert = commitLast(socket(), "insert", 2);
  assert.deepEqual(insert.items, [restored]);
  assert.deepEqual(insert.destination, { collection: "todo", before: "c" });
  assert.equal(insert.baseSeq, 1);
  assert.deepEqual(await undone, { status: "committed", seq: 2, adjusted: false });
  assert.equal(live.canUndo, false);
  assert.equal(live.canRedo, true);

  const redone = live.redo();
  assert.deepEqual(commitLast(socket(), "delete", 3).items, ["b"]);
  await redone;
  assert.deepEqual(labelsOf(live.board, "todo"), ["a", "c"]);
  assert.equal(live.canUndo, true);
  assert.equal(live.canRedo, false);
});

test("a move is undone against the board as it is now, after someone else's change", async () => {
  const { live, socket, join } = setUp();
  join();
  const moved = live.move(["b"], { collection: "done", before: null });
  commitLast(socket(), "move", 1);
  await moved;
  // Someone else moves c (b's later neighbour) to the top.
  socket().receive({ type: "committed", seq: 2, opId: "x-1", client: "bob", adjusted: false, op: { type: "move", sources: ["c"], destination: { collection: "todo", before: "a" } } });
  const undone = live.undo();
  const sent = socket().sentOfType("move").at(-1);
  assert.deepEqual(sent.destination, { collection: "todo", before: "c" });
  assert.deepEqual(labelsOf(live.board, "todo"), ["b", "c", "a"]);
  commitLast(socket(), "move", 3);
  await undone;
});

test("an undo whose card is gone is refused with a reason, and nothing is sent", async () => {
  const { live, socket, join, events } = setUp();
  join();
  const edited = live.update("a", { label: "A2" });
  commitLast(socket(), "update", 1);
  await edited;
  socket().receive({ type: "committed", seq: 2, opId: "x-1", client: "bob", adjusted: false, op: { type: "delete", items: ["a"] } });
  const before = socket().sent.length;
  await assert.rejects(live.undo(), (error) => error instanceof CorkboardRejection && error.code === "gone" && error.op === null);
  assert.equal(socket().sent.length, before);
  assert.equal(events.filter((e) => e.type === "rejected").at(-1).detail.code, "gone");
  assert.equal(live.canUndo, false);
  assert.equal(live.canRedo, false);
});

test("an operation the server refused is no step to undo", async () => {
  const { live, socket, join } = setUp();
  join();
  const moved = live.move(["a"], { collection: "done", before: null });
  const sent = socket().sentOfType("move")[0];
  socket().receive({ type: "rejected", code: "locked", opId: sent.opId, message: "the board is locked" });
  await assert.rejects(moved);
  assert.equal(live.canUndo, false);
});

test("an undo refused busy (someone holds the card) can be tried again", async () => {
  const { live, socket, join } = setUp();
  join();
  const moved = live.move(["a"], { collection: "done", before: null });
  commitLast(socket(), "move", 1);
  await moved;
  const undone = live.undo();
  const sent = socket().sentOfType("move").at(-1);
  socket().receive({ type: "rejected", code: "busy", opId: sent.opId, message: "held by Bob" });
  await assert.rejects(undone, (error) => error.code === "busy");
  assert.equal(live.canUndo, true);
  assert.equal(live.canRedo, false);
  const again = live.undo();
  assert.deepEqual(socket().sentOfType("move").at(-1).destination, { collection: "todo", before: "b" });
  commitLast(socket(), "move", 2);
  await again;
  assert.deepEqual(labelsOf(live.board, "todo"), ["a", "b", "c"]);
});

test("what undo sends is not a step of its own: redo survives it, a new change clears it", async () => {
  const { live, socket, join } = setUp();
  join();
  const inserted = live.insert([{ id: "n", label: "New" }], { collection: "done", before: null });
  commitLast(socket(), "insert", 1);
  await inserted;
  const undone = live.undo();
  commitLast(socket(), "delete", 2);
  await undone;
  assert.equal(live.canRedo, true);
  assert.equal(live.canUndo, false);
  const renamed = live.renameCollection("done", "Finished");
  assert.equal(live.canRedo, false);
  assert.equal(live.canUndo, true);
  commitLast(socket(), "update", 3);
  await renamed;
  assert.deepEqual(await live.redo(), { status: "noop" });
});
