// The events a live board dispatches: each a CustomEvent whose detail events.js types.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp } from "./harness.js";

test("every event is a CustomEvent with a detail; state's names the new state", () => {
  const { live, join, socket } = setUp();
  /** @type {Event[]} */
  const seen = [];
  for (const type of ["state", "board", "presence"]) live.addEventListener(type, (event) => seen.push(event));
  join();
  assert.ok(seen.length >= 3);
  for (const event of seen) assert.ok(event instanceof CustomEvent, `${event.type} is a CustomEvent`);
  const states = seen.filter((e) => e.type === "state").map((e) => /** @type {CustomEvent} */ (e).detail);
  assert.deepEqual(states, [{ state: "live" }]);
  socket().serverClose(1006);
  assert.deepEqual(/** @type {CustomEvent} */ (seen.filter((e) => e.type === "state").at(-1)).detail, { state: "connecting" });
});

test("a listener object (handleEvent) and removeEventListener work as on any EventTarget", () => {
  const { live, join } = setUp();
  const causes = [];
  const listener = { handleEvent: (/** @type {CustomEvent} */ event) => causes.push(event.detail.cause) };
  live.addEventListener("board", listener);
  join();
  live.removeEventListener("board", listener);
  live.move(["a"], { collection: "done", before: null });
  assert.deepEqual(causes, ["welcome"]);
});
