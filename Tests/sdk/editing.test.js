// Editing marks (docs/protocol.md#editing-marks) and our name: who edits which label, our own
// mark sent, renewed and sent again after a reconnect, and a rename that joins again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp } from "./harness.js";

test("the others' marks are kept by client and told as presence; an end, a leave or a reconnect forgets them", () => {
  const { live, socket, join, events } = setUp();
  join({ peers: [{ client: "c1", name: "Bob", drag: null }], count: 2 });
  socket().receive({ type: "editing", client: "c1", name: "Bob", item: "a" });
  assert.deepEqual(live.editorOf("a"), { client: "c1", name: "Bob" });
  assert.equal(live.editorOf("b"), null);
  assert.ok(events.some((e) => e.type === "presence"));
  socket().receive({ type: "editing", client: "c1", name: "Bob", item: null });
  assert.equal(live.editorOf("a"), null);

  socket().receive({ type: "editing", client: "c1", name: "Bob", item: "b" });
  socket().receive({ type: "peer.left", client: "c1" });
  assert.equal(live.editorOf("b"), null, "a leaver's mark goes with them");

  socket().receive({ type: "editing", client: "c2", name: "Cy", item: "c" });
  socket().serverClose(1006);
  assert.equal(live.editorOf("c"), null, "marks belong to the connection that heard them");
});

test("our mark goes out, is sent again every 10 s while it lasts and after a reconnect, and its end once", () => {
  const { live, socket, join, timers } = setUp();
  join();
  live.setEditing("a");
  live.setEditing("a");
  assert.deepEqual(socket().sentOfType("editing"), [{ type: "editing", item: "a" }], "the same mark once");
  // A live socket hears something every second (its pings stay answered).
  const first = socket();
  for (let second = 0; second < 10; second += 1) {
    timers.advance(1000);
    first.receive({ type: "pong", id: "p" });
  }
  assert.equal(first.sentOfType("editing").length, 2, "renewed before the server's 30 s lapse");

  first.serverClose(1006);
  timers.advance(60000);
  join({ resumed: true });
  assert.notEqual(socket(), first);
  assert.deepEqual(socket().sentOfType("editing"), [{ type: "editing", item: "a" }], "sent again on the new socket");

  const second = socket();
  live.setEditing(null);
  assert.deepEqual(second.sentOfType("editing").at(-1), { type: "editing", item: null });
  for (let tick = 0; tick < 30; tick += 1) {
    timers.advance(1000);
    second.receive({ type: "pong", id: "p" });
  }
  assert.equal(second.sentOfType("editing").length, 2, "nothing renews an ended mark");
});

test("a rename joins again under the new name; the welcome's name is the one shown", () => {
  const { live, socket, sockets, join } = setUp();
  join();
  assert.equal(live.me?.name, "Ada", "an older server's welcome has no name: ours");
  live.rename("Ada Lovelace");
  assert.equal(sockets.length, 2, "a new socket");
  assert.equal(sockets[0].closedWith?.code, 4000);
  socket().open();
  assert.equal(socket().sentOfType("hello")[0].name, "Ada Lovelace");
  socket().receive({ type: "welcome", client: "me2", role: "editor", epoch: "e1", seq: 0, peers: [], count: 1, resumed: true, name: "Grace (token)" });
  assert.equal(live.me?.name, "Grace (token)", "a token that names us wins");
});
