// A chosen colour (docs/protocol.md#colours): the `hue` option goes in hello only when set,
// the welcome says ours back, peers carry theirs only when they chose one, and a rename with
// a new hue joins again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "../../web/sdk/corkboard.js";
import { setUp } from "./harness.js";

test("hello carries the hue only when one was chosen", () => {
  const chosen = setUp({ hue: 200 });
  chosen.socket().open();
  assert.equal(chosen.socket().sentOfType("hello")[0].hue, 200);
  const none = setUp();
  none.socket().open();
  assert.equal("hue" in none.socket().sentOfType("hello")[0], false);
});

test("a hue that is not a whole number from 0 to 359 is refused before anything is sent", () => {
  for (const hue of [-1, 360, 12.5, /** @type {any} */ ("120")]) {
    assert.throws(() => connect({ url: "http://127.0.0.1:1", board: "b", hue, WebSocket: /** @type {any} */ (class {}), fetch: null }), RangeError);
  }
});

test("the welcome's hue is ours; peers keep theirs from the welcome, peer.joined, ticks and pages", () => {
  const { live, socket, join } = setUp({ hue: 30 });
  join({ client: "me", hue: 30, peers: [{ client: "c1", name: "Bob", hue: 0, drag: null }, { client: "c2", name: "Cy", drag: null }], count: 3 });
  assert.equal(live.me?.hue, 30);
  assert.deepEqual(live.peers.get("c1"), { client: "c1", name: "Bob", hue: 0, drag: null });
  assert.deepEqual(live.peers.get("c2"), { client: "c2", name: "Cy", drag: null }, "no hue: no key");
  socket().receive({ type: "peer.joined", client: "c3", name: "Dee", hue: 359 });
  assert.equal(live.peers.get("c3")?.hue, 359);
  socket().receive({ type: "peers", count: 5, truncated: false, left: [], joined: [{ client: "c4", name: "Eve", hue: 120 }] });
  assert.equal(live.peers.get("c4")?.hue, 120);
  socket().receive({ type: "peers.page", count: 6, next: null, peers: [{ client: "c5", name: "Fay", hue: 240, drag: null }] });
  assert.equal(live.peers.get("c5")?.hue, 240);
});

test("rename with another hue joins again with it; the same name and hue do nothing", () => {
  const { live, socket, sockets, join } = setUp();
  join();
  assert.equal(live.me?.hue, undefined);
  live.rename("Ada");
  assert.equal(sockets.length, 1, "nothing changed: no new socket");
  live.rename("Ada", 210);
  assert.equal(sockets.length, 2);
  socket().open();
  assert.equal(socket().sentOfType("hello")[0].hue, 210);
  live.rename("Ada", null);
  assert.equal(sockets.length, 3, "back to no colour: joined again");
  socket().open();
  assert.equal("hue" in socket().sentOfType("hello")[0], false);
  assert.throws(() => live.rename("Ada", 400), RangeError);
});
