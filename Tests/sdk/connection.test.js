// The connection: reconnect with backoff and jitter, resume, liveness, refusal, close.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp } from "./harness.js";
import { FakeTimers, MemoryStorage, fakeWebSocketClass } from "./fakes.js";
import { Backoff, connect, endpoint } from "../../web/sdk/corkboard.js";

test("backoff doubles up to its cap and spreads each delay by the jitter", () => {
  const low = new Backoff({ random: () => 0 });
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map(() => low.next()), [350, 700, 1400, 2800, 5600, 7000, 7000]);
  const high = new Backoff({ random: () => 1 });
  assert.deepEqual([1, 2].map(() => high.next()), [650, 1300]);
  high.reset();
  assert.equal(high.next(2000), 2600, "at least the server's wish, then jittered");
});

test("endpoint: an http(s) origin becomes its /ws, a ws URL stays", () => {
  assert.equal(endpoint("https://example.org"), "wss://example.org/ws");
  assert.equal(endpoint("http://127.0.0.1:8080/"), "ws://127.0.0.1:8080/ws");
  assert.equal(endpoint("ws://h:1/custom"), "ws://h:1/custom");
  assert.throws(() => endpoint("ftp://h"), TypeError);
  assert.throws(() => endpoint(undefined), TypeError);
});

test("endpoint: the board goes in the query, for a balancer's board affinity", () => {
  assert.equal(endpoint("https://example.org", "team board/1"), "wss://example.org/ws?board=team%20board%2F1");
  assert.equal(endpoint("ws://h:1/custom?x=1", "b"), "ws://h:1/custom?x=1&board=b");
});

test("a dropped socket reconnects after a jittered backoff and resumes from (epoch, seq)", () => {
  const { live, socket, sockets, join, timers } = setUp({ random: () => 0 });
  join({ seq: 4 });
  socket().serverClose(1006);
  assert.equal(live.state, "connecting");
  timers.advance(349);
  assert.equal(sockets.length, 1);
  timers.advance(1);
  assert.equal(sockets.length, 2);
  socket().open();
  assert.deepEqual(socket().sent[0], { type: "hello", board: "b", name: "Ada", presence: "compact", resume: { epoch: "e1", seq: 4 } });
  socket().serverClose(1006);
  timers.advance(699);
  assert.equal(sockets.length, 2, "the second wait is doubled");
  timers.advance(1);
  assert.equal(sockets.length, 3);
  socket().open();
  socket().receive({ type: "welcome", client: "me2", role: "editor", epoch: "e1", seq: 4, peers: [], resumed: true });
  assert.equal(live.state, "live");
  assert.equal(live.seq, 4);
  socket().serverClose(1006);
  timers.advance(350);
  assert.equal(sockets.length, 4, "a welcome resets the backoff");
});

test("1001 (server restarting) waits at least 2 s; 1008 refuses for good and rejects the waiting promises", async () => {
  const { live, socket, sockets, join, timers, events } = setUp({ random: () => 0.5 });
  join();
  socket().serverClose(1001);
  timers.advance(1999);
  assert.equal(sockets.length, 1);
  timers.advance(1);
  assert.equal(sockets.length, 2);
  const done = live.lock(true);
  socket().open();
  socket().receive({ type: "error", code: "forbidden", message: "the token is not valid for board \"b\"" });
  socket().serverClose(1008);
  assert.equal(live.state, "refused");
  await assert.rejects(done, (error) => error.code === "forbidden");
  assert.deepEqual(events.find((e) => e.type === "fatal").detail, { code: "forbidden", message: "the token is not valid for board \"b\"" });
  timers.advance(60000);
  assert.equal(sockets.length, 2, "no retry after a refusal");
});

test("a silent socket is pinged after 4 s and replaced when nothing comes within 4 s more", () => {
  const { live, socket, sockets, join, timers } = setUp();
  join();
  timers.advance(3999);
  assert.equal(socket().sentOfType("ping").length, 0);
  timers.advance(1);
  const [ping] = socket().sentOfType("ping");
  assert.equal(typeof ping.id, "string");
  socket().receive({ type: "pong", id: ping.id });
  timers.advance(3999);
  assert.equal(live.state, "live", "a pong keeps it");
  assert.equal(socket().sentOfType("ping").length, 1);
  timers.advance(1);
  assert.equal(socket().sentOfType("ping").length, 2, "silent again for 4 s: another ping");
  timers.advance(3999);
  assert.equal(live.state, "live");
  assert.equal(sockets.length, 1);
  timers.advance(1);
  assert.equal(live.state, "connecting", "dead 8 s after the last word");
  assert.deepEqual(sockets[0].closedWith, { code: 4000, reason: "reconnecting" });
  timers.advance(1000);
  assert.equal(sockets.length, 2);
});

test("traffic counts as life: no ping while messages flow", () => {
  const { socket, join, timers } = setUp();
  join();
  for (let i = 0; i < 10; i++) {
    timers.advance(3000);
    socket().receive({ type: "peer.joined", client: `p${i}`, name: "P" });
  }
  assert.equal(socket().sentOfType("ping").length, 0);
});

test("offline, then online: the page shows offline, pings, and on no answer reconnects at once and resends", () => {
  const { live, socket, sockets, join, timers, window, navigator } = setUp();
  join();
  navigator.onLine = false;
  window.dispatchEvent(new Event("offline"));
  assert.equal(live.state, "offline");
  assert.equal(socket().sentOfType("ping").length, 1);
  live.move(["a"], { collection: "done", before: null });
  timers.advance(3000);
  assert.equal(live.state, "offline");
  assert.equal(sockets.length, 1, "the dead socket is dropped; the next attempt waits for its backoff");
  navigator.onLine = true;
  window.dispatchEvent(new Event("online"));
  assert.equal(sockets.length, 2, "online: an attempt at once");
  socket().open();
  socket().receive({ type: "welcome", client: "me", role: "editor", epoch: "e1", seq: 0, peers: [], resumed: true });
  assert.equal(live.state, "live");
  const [resent] = socket().sentOfType("move");
  assert.deepEqual(resent.sources, ["a"]);
});

test("offline that was only a hint: an operation is held, and a pong brings live back on the same socket and sends it", () => {
  const { live, socket, sockets, join, window } = setUp();
  join();
  window.dispatchEvent(new Event("offline"));
  assert.equal(live.state, "offline");
  live.move(["a"], { collection: "done", before: null });
  assert.equal(socket().sentOfType("move").length, 0, "held while offline");
  socket().receive({ type: "pong", id: socket().sentOfType("ping")[0].id });
  assert.equal(live.state, "live");
  assert.equal(sockets.length, 1);
  assert.deepEqual(socket().sentOfType("move").map((m) => m.sources), [["a"]]);
});

test("a tab shown again checks its socket at once", () => {
  const { live, socket, join, document, timers } = setUp();
  join();
  document.visibilityState = "hidden";
  document.dispatchEvent(new Event("visibilitychange"));
  assert.equal(socket().sentOfType("ping").length, 0);
  document.visibilityState = "visible";
  document.dispatchEvent(new Event("visibilitychange"));
  assert.equal(socket().sentOfType("ping").length, 1);
  timers.advance(3000);
  assert.equal(live.state, "connecting");
});

test("close() ends it: socket closed 1000, no timers, no reconnects, operations refused", async () => {
  const { live, socket, sockets, join, timers, window } = setUp();
  join();
  live.close();
  assert.equal(live.state, "closed");
  assert.deepEqual(socket().closedWith, { code: 1000, reason: "closed" });
  assert.equal(timers.waiting.size, 0);
  window.dispatchEvent(new Event("online"));
  timers.advance(60000);
  assert.equal(sockets.length, 1);
  await assert.rejects(live.lock(true), (error) => error.code === "closed");
});

test("while the browser says it is offline the SDK dials no one, however long; online dials at once", () => {
  const { live, socket, sockets, join, timers, window, navigator } = setUp();
  join();
  navigator.onLine = false;
  window.dispatchEvent(new Event("offline"));
  socket().serverClose(1006);
  timers.advance(20000);
  assert.equal(live.state, "offline");
  assert.equal(sockets.length, 1, "no attempt in 20 s offline (each would be a console error in a browser)");
  window.dispatchEvent(new Event("offline"));
  timers.advance(60000);
  assert.equal(sockets.length, 1, "another offline hint dials no one either");
  navigator.onLine = true;
  window.dispatchEvent(new Event("online"));
  assert.equal(sockets.length, 2, "online: an attempt at once");
  assert.equal(live.state, "connecting");
  socket().open();
  socket().receive({ type: "welcome", client: "me", role: "editor", epoch: "e1", seq: 0, peers: [], resumed: true });
  assert.equal(live.state, "live");
});

test("a page opened offline waits for online before its first attempt", () => {
  const timers = new FakeTimers();
  const { FakeWebSocket, sockets } = fakeWebSocketClass();
  const window = new EventTarget();
  const navigator = { onLine: false };
  const live = connect({
    url: "http://127.0.0.1:1", board: "b", name: "Bo", storage: new MemoryStorage(), WebSocket: FakeWebSocket,
    timers, random: () => 0.5, window, document: null, navigator, fetch: null,
  });
  assert.equal(live.state, "offline");
  timers.advance(30000);
  assert.equal(sockets.length, 0, "no attempt while offline");
  navigator.onLine = true;
  window.dispatchEvent(new Event("online"));
  assert.equal(sockets.length, 1, "online: the first attempt");
  live.close();
});
