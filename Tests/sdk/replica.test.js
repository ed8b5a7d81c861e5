// The shared fixtures (Tests/Fixtures/replica/*.json), which the Swift replica's tests load
// too: applying a committed op cannot drift between the SDK and the server's model.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { applyOperation } from "../../web/sdk/corkboard.js";
import { setUp } from "./harness.js";

const folder = new URL("../Fixtures/replica/", import.meta.url);
const fixtures = readdirSync(folder).filter((name) => name.endsWith(".json")).sort()
  .map((name) => JSON.parse(readFileSync(new URL(name, folder), "utf8")));

test("there are fixtures for every operation type", () => {
  const types = new Set(fixtures.flatMap((f) => (f.events ?? []).map((e) => e.op.type)));
  assert.deepEqual([...types].sort(), ["collection.add", "collection.move", "collection.remove", "delete", "insert", "lock", "move", "update"]);
  assert.ok(fixtures.some((f) => (f.events ?? []).some((e) => e.op.accepts !== undefined)), "an update of a folder's accepts");
});

for (const fixture of fixtures) {
  test(`fixture ${fixture.name}: ${fixture.description}`, () => {
    if (fixture.after) {
      const after = fixture.events.reduce((board, event) => applyOperation(board, event.op), fixture.before);
      assert.deepEqual(after, fixture.after);
    }
    for (const event of fixture.refused ?? []) assert.throws(() => applyOperation(fixture.before, event.op), Error, JSON.stringify(event.op));
  });
}

test("the SDK's confirmed board follows the fixtures' events as they arrive", () => {
  for (const fixture of fixtures.filter((f) => f.after)) {
    const { live, socket, join } = setUp({ storage: null });
    join({ board: fixture.before, seq: 0 });
    for (const event of fixture.events) socket().receive(event);
    const { seq, ...confirmed } = /** @type {any} */ (live.confirmed);
    assert.equal(seq, fixture.events.length, fixture.name);
    assert.deepEqual(confirmed, fixture.after, fixture.name);
    assert.deepEqual(live.board, live.confirmed, fixture.name);
    live.close();
  }
});

test("an event that does not fit makes the SDK start over from a fresh snapshot", () => {
  for (const fixture of fixtures.filter((f) => f.refused)) {
    for (const event of fixture.refused) {
      const { live, socket, join } = setUp({ storage: null });
      join({ board: fixture.before, seq: 0 });
      const first = socket();
      first.receive(event);
      assert.equal(live.confirmed, null, JSON.stringify(event.op));
      assert.deepEqual(first.closedWith, { code: 4000, reason: "reconnecting" });
      live.close();
    }
  }
});
