// The SDK's undo rules (web/sdk/undo.js) against the fixtures the Swift client's undo reads
// too (Tests/Fixtures/undo), and the history's stacks. Run: node --test Tests/sdk/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { UndoHistory, resolveStep, stepFor } from "../../web/sdk/undo.js";

const fixtures = fileURLToPath(new URL("../Fixtures/undo/", import.meta.url));

/**
 * A fixture's compact board as the wire has it; a column with `folder: true` is the contents
 * of the folder of that id.
 * @param {{ id: string, title?: string, folder?: boolean, items: (string | { id: string, label: string, data?: object })[] }[]} columns
 */
function board(columns) {
  const items = (/** @type {any} */ c) => c.items.map((i) => (typeof i === "string" ? { id: i, label: i } : i));
  const folders = columns.filter((c) => c.folder);
  return {
    id: "b",
    title: "B",
    locked: false,
    collections: columns.filter((c) => !c.folder).map((c) => ({ id: c.id, title: c.title ?? c.id, items: items(c) })),
    ...(folders.length > 0 ? { folders: Object.fromEntries(folders.map((c) => [c.id, items(c)])) } : {}),
  };
}

/** @param {any} resolution */
function outcome(resolution) {
  return "refused" in resolution ? { refused: resolution.refused.code } : { ops: resolution.ops };
}

const files = readdirSync(fixtures).filter((name) => name.endsWith(".json"));
test("the fixtures are there", () => assert.ok(files.length >= 5, `only ${files.length} fixture files`));

for (const file of files) {
  for (const fixture of JSON.parse(readFileSync(join(fixtures, file), "utf8"))) {
    test(`${file}: ${fixture.name}`, () => {
      const step = stepFor(board(fixture.before), fixture.ops);
      if (fixture.undo === null) return assert.equal(step, null);
      assert.ok(step, "a step to undo");
      // Steps are kept in storage and sent between tabs as JSON: they must survive it.
      const stored = JSON.parse(JSON.stringify(step));
      const undone = resolveStep(stored, board(fixture.now));
      assert.deepEqual(outcome(undone), fixture.undo);
      if (!fixture.redo) return undefined;
      assert.ok("ops" in undone);
      const redoStep = stepFor(board(fixture.now), undone.ops);
      assert.ok(redoStep, "a step to redo");
      return assert.deepEqual(outcome(resolveStep(redoStep, board(fixture.redo.now))), fixture.redo.ops ? { ops: fixture.redo.ops } : { refused: fixture.redo.refused });
    });
  }
}

const start = board([{ id: "todo", items: ["a", "b", "c"] }, { id: "done", items: [] }]);
const moved = board([{ id: "todo", items: ["a", "c"] }, { id: "done", items: ["b"] }]);
const moveB = { type: "move", sources: ["b"], destination: { collection: "done", before: null } };

test("undo moves the step to redo, redo moves it back", () => {
  const history = new UndoHistory();
  history.record(start, [moveB]);
  assert.equal(history.canUndo, true);
  assert.equal(history.canRedo, false);
  const undo = history.undo(moved);
  assert.deepEqual(undo && "ops" in undo && undo.ops, [{ type: "move", sources: ["b"], destination: { collection: "todo", before: "c" } }]);
  assert.equal(history.canUndo, false);
  assert.equal(history.canRedo, true);
  const redo = history.redo(start);
  assert.deepEqual(redo && "ops" in redo && redo.ops, [moveB]);
  assert.equal(history.canUndo, true);
  assert.equal(history.canRedo, false);
});

test("a new step clears what could be redone", () => {
  const history = new UndoHistory();
  history.record(start, [moveB]);
  history.undo(moved);
  assert.equal(history.canRedo, true);
  history.record(start, [{ type: "delete", items: ["a"] }]);
  assert.equal(history.canRedo, false);
  assert.equal(history.redo(start), null);
});

test("a lock records nothing and leaves the stacks alone", () => {
  const history = new UndoHistory();
  history.record(start, [moveB]);
  history.undo(moved);
  assert.equal(history.record(start, [{ type: "lock", locked: true }]), null);
  assert.equal(history.canRedo, true);
});

test("a refused undo drops the step and pushes nothing to redo", () => {
  const history = new UndoHistory();
  history.record(start, [moveB]);
  const gone = board([{ id: "todo", items: ["a", "c"] }, { id: "done", items: [] }]);
  const attempt = history.undo(gone);
  assert.ok(attempt && "refused" in attempt);
  assert.equal(attempt.refused.code, "gone");
  assert.equal(history.canUndo, false);
  assert.equal(history.canRedo, false);
});

test("an undo the server refused for a passing reason can be tried again", () => {
  const history = new UndoHistory();
  history.record(start, [moveB]);
  const attempt = history.undo(moved);
  assert.ok(attempt && "ops" in attempt);
  history.failed(attempt);
  assert.equal(history.canUndo, true);
  assert.equal(history.canRedo, false);
  const again = history.undo(moved);
  assert.deepEqual(again && "ops" in again && again.ops, attempt.ops);
});

test("at most `limit` steps are kept, the oldest dropped", () => {
  const history = new UndoHistory({ limit: 2 });
  for (const id of ["a", "b", "c"]) history.record(start, [{ type: "delete", items: [id] }]);
  const restored = [];
  for (let i = 0; i < 3; i++) {
    const attempt = history.undo(board([{ id: "todo", items: [] }, { id: "done", items: [] }]));
    if (attempt && "ops" in attempt) restored.push(...attempt.ops.flatMap((op) => (op.type === "insert" ? op.items.map((item) => item.id) : [])));
  }
  assert.deepEqual(restored, ["c", "b"]);
});

test("undo with nothing to undo gives null", () => {
  const history = new UndoHistory();
  assert.equal(history.undo(start), null);
  assert.equal(history.redo(start), null);
});
