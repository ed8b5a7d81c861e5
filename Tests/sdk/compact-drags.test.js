// The shared compact presence fixture (Tests/Fixtures/presence/compact-drags.json, which the
// Swift and Python clients' tests read too): the SDK reads each `drags.compact` as exactly the
// `drags` beside it, and a live board takes it the same way.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { expandCompactDrags, expandCompactDragChange } from "../../web/sdk/compact-drags.js";
import { setUp } from "./harness.js";

const fixture = JSON.parse(readFileSync(new URL("../Fixtures/presence/compact-drags.json", import.meta.url), "utf8"));

test("the fixture has cases", () => assert.ok(fixture.cases.length >= 3));

for (const { name, compact, full } of fixture.cases) {
  test(`fixture: ${name}`, () => {
    const message = JSON.parse(compact);
    assert.equal(message.type, "drags.compact");
    assert.deepEqual(expandCompactDrags(message.changes), JSON.parse(full).changes);
  });
}

test("a change of another shape is refused, not misread", () => {
  for (const change of [["c1"], ["c1", 1.5, null, "done"], ["c1", 1, 7, "done"], ["c1", "Ada", ["i1"], [1, null]], ["c1", "Ada", [1], null], [7, "drop"], {},
    ["c1", 1.5, null], ["c1", "x", null], ["c1", 1, 7], ["c1", "Ada", ["a"], null, "b"], ["c1", "Ada", ["a"], 1, 7], ["c1", "Ada", [1], 1, null]]) {
    assert.throws(() => expandCompactDragChange(change), Error, JSON.stringify(change));
  }
});

test("the SDK asks for compact presence unless told, and a live board takes both forms alike", () => {
  const full = setUp();
  full.join({ peers: [{ client: "c9", name: "Bob" }, { client: "c4", name: "Cy" }] });
  const compact = setUp();
  compact.join({ peers: [{ client: "c9", name: "Bob" }, { client: "c4", name: "Cy" }] });
  assert.equal(compact.socket().sent[0].presence, "compact");
  const { compact: compactText, full: fullText } = fixture.cases[0];
  let presence = 0;
  compact.live.addEventListener("presence", () => presence++);
  full.socket().receive(JSON.parse(fullText));
  compact.socket().receive(JSON.parse(compactText));
  assert.deepEqual([...compact.live.peers.entries()], [...full.live.peers.entries()]);
  assert.equal(presence, 1);
});

test("a malformed compact batch is dropped and the board goes on", () => {
  const { live, socket, join } = setUp();
  join({ peers: [{ client: "c9", name: "Bob" }] });
  socket().receive({ type: "drags.compact", changes: [["c9", "Bob", ["a"], null], ["c9"]] });
  assert.equal(live.peers.get("c9").drag, null);
  socket().receive({ type: "drags.compact", changes: [["c9", "Bob", ["a"], null]] });
  assert.deepEqual(live.peers.get("c9").drag, { items: ["a"], over: null });
});
