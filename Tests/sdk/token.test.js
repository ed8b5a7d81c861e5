// A token provider (connect({ getToken })), per the token lifecycle: asked before every
// connect, again before the token expires (a refresh over the open socket), with backoff when
// it fails; a close 4001 reconnects with a new token, a 1008 stays refused. Fake time only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setUp, settle } from "./harness.js";
import { FakeTimers, welcome } from "./fakes.js";
import { jwtExpiry } from "../../web/sdk/jwt-expiry.js";
import { refreshDelay } from "../../web/sdk/token-keeper.js";

const wall = FakeTimers.wallStart;

/** A provider that answers t1, t2 … and counts its calls; `failing` makes the next calls throw. */
function provider() {
  const calls = { count: 0, failing: 0 };
  const getToken = async () => {
    calls.count += 1;
    if (calls.failing > 0) {
      calls.failing -= 1;
      throw new Error("backend down");
    }
    return `t${calls.count}`;
  };
  return { getToken, calls };
}

/**
 * Moves the fake clock by `ms` with the server answering (a pong each second, so that the
 * heartbeat keeps the socket), letting the provider's promises settle at each step.
 */
async function liveFor(timers, socket, ms) {
  for (let left = ms; left > 0; left -= Math.min(1000, left)) {
    timers.advance(Math.min(1000, left));
    if (socket()?.readyState === 1) socket().receive({ type: "pong", id: "0" });
    await settle();
  }
}

/** A JWT (unsigned: the SDK only reads its payload) with these claims. */
function jwt(claims) {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}.signature`;
}

test("the provider is asked before the first connect, and its token goes in the hello", async () => {
  const { getToken, calls } = provider();
  const { sockets, socket } = setUp({ getToken });
  assert.equal(sockets.length, 0, "no socket before the provider answered");
  await settle();
  assert.equal(calls.count, 1);
  assert.equal(sockets.length, 1);
  socket().open();
  assert.equal(socket().sent[0].token, "t1");
});

test("a token is refreshed on the open socket before it expires; accepted, it is the connection's", async () => {
  const { getToken, calls } = provider();
  const { live, socket, sockets, timers, events } = setUp({ getToken });
  await settle();
  socket().open();
  socket().receive(welcome({ tokenExpiresAt: wall + 120_000 }));
  assert.equal(live.tokenExpiresAt, wall + 120_000);
  assert.equal(live.getSnapshot().tokenExpiresAt, wall + 120_000);
  // 30 s before the expiry (a quarter of two minutes is more than that).
  await liveFor(timers, socket, 89_999);
  assert.equal(calls.count, 1);
  await liveFor(timers, socket, 1);
  assert.equal(calls.count, 2);
  assert.deepEqual(socket().sentOfType("token"), [{ type: "token", token: "t2" }]);
  assert.equal(live.token, "t1", "in force only once accepted");
  socket().receive({ type: "token.accepted", tokenExpiresAt: wall + 90_000 + 8_000 });
  assert.equal(live.token, "t2");
  assert.equal(live.tokenExpiresAt, wall + 98_000);
  assert.deepEqual(events.filter((e) => e.type === "token").map((e) => e.detail), [{ status: "accepted", expiresAt: wall + 98_000 }]);
  // A short-lived token: a quarter of its remaining 8 s before the end, at 6 s.
  await liveFor(timers, socket, 5_999);
  assert.equal(calls.count, 2);
  await liveFor(timers, socket, 1);
  assert.equal(calls.count, 3);
  assert.deepEqual(socket().sentOfType("token").at(-1), { type: "token", token: "t3" });
  assert.equal(live.state, "live");
  assert.equal(sockets.length, 1, "a refresh never reconnects");
});

test("a failing provider is asked again after 1 s, 2 s, 4 s … 30 s, and the live connection stays", async () => {
  const { getToken, calls } = provider();
  const { live, socket, sockets, timers, events } = setUp({ getToken });
  await settle();
  socket().open();
  socket().receive(welcome({ tokenExpiresAt: wall + 600_000 }));
  calls.failing = 7;
  await liveFor(timers, socket, 570_000);
  assert.equal(calls.count, 2);
  const waits = [];
  for (let i = 0; i < 6; i++) {
    const failure = events.filter((e) => e.type === "token").at(-1).detail;
    assert.equal(failure.status, "failed");
    assert.equal(failure.error.message, "backend down");
    waits.push(failure.retryIn);
    await liveFor(timers, socket, failure.retryIn - 1);
    assert.equal(calls.count, 2 + i, "not before its time");
    await liveFor(timers, socket, 1);
  }
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 16000, 30000]);
  assert.equal(live.state, "live");
  assert.equal(socket().closedWith, null, "the socket was never closed");
  assert.equal(sockets.length, 1);
  // The seventh failure, then the provider works again.
  await liveFor(timers, socket, 30_000);
  assert.deepEqual(socket().sentOfType("token"), [{ type: "token", token: "t9" }]);
});

test("a refused token leaves the connection as it is and is asked for again, with backoff", async () => {
  const { getToken, calls } = provider();
  const { live, socket, timers, events } = setUp({ getToken });
  await settle();
  socket().open();
  socket().receive(welcome({ tokenExpiresAt: wall + 120_000 }));
  await liveFor(timers, socket, 90_000);
  socket().receive({ type: "token.refused", code: "forbidden", message: "the token names another user" });
  assert.deepEqual(events.filter((e) => e.type === "token").at(-1).detail, { status: "refused", code: "forbidden", message: "the token names another user" });
  assert.equal(live.token, "t1", "the previous token stays in force");
  assert.equal(live.state, "live");
  await liveFor(timers, socket, 999);
  assert.equal(calls.count, 2);
  await liveFor(timers, socket, 1);
  assert.equal(calls.count, 3);
  assert.deepEqual(socket().sentOfType("token").at(-1), { type: "token", token: "t3" });
});

test("close 4001 (the token expired): a new token from the provider, and the reconnect resumes", async () => {
  const { getToken, calls } = provider();
  const { live, socket, sockets, timers } = setUp({ getToken, random: () => 0 });
  await settle();
  socket().open();
  socket().receive(welcome({ seq: 5, tokenExpiresAt: wall + 120_000 }));
  socket().receive({ type: "error", code: "unauthorized", message: "the token expired at 2026-11-29T12:02:00Z" });
  socket().serverClose(4001, "the token expired at 2026-11-29T12:02:00Z");
  assert.equal(live.state, "connecting");
  timers.advance(350);
  await settle();
  assert.equal(calls.count, 2);
  assert.equal(sockets.length, 2);
  socket().open();
  assert.deepEqual(socket().sent[0], { type: "hello", board: "b", name: "Ada", token: "t2", presence: "compact", resume: { epoch: "e1", seq: 5 } });
});

test("close 4001 without a provider gives up: refused, with the server's reason", () => {
  const { live, socket, sockets, timers, join, events } = setUp({ token: "fixed" });
  join();
  socket().receive({ type: "error", code: "unauthorized", message: "the token expired at 2026-11-29T12:02:00Z" });
  socket().serverClose(4001);
  assert.equal(live.state, "refused");
  assert.deepEqual(events.find((e) => e.type === "fatal").detail, { code: "unauthorized", message: "the token expired at 2026-11-29T12:02:00Z" });
  timers.advance(60_000);
  assert.equal(sockets.length, 1);
});

test("1008 (a revoked token) stays refused even with a provider, which is not asked again", async () => {
  const { getToken, calls } = provider();
  const { live, socket, sockets, timers, events } = setUp({ getToken });
  await settle();
  socket().open();
  socket().receive(welcome({ tokenExpiresAt: wall + 120_000 }));
  socket().receive({ type: "error", code: "forbidden", message: "the token was revoked" });
  socket().serverClose(1008);
  assert.equal(live.state, "refused");
  assert.deepEqual(events.find((e) => e.type === "fatal").detail, { code: "forbidden", message: "the token was revoked" });
  timers.advance(600_000);
  await settle();
  assert.equal(calls.count, 1, "neither a refresh nor a reconnect");
  assert.equal(sockets.length, 1);
});

test("a provider that fails before the first connect is asked again with backoff; the connect waits for it", async () => {
  const { getToken, calls } = provider();
  calls.failing = 2;
  const { live, sockets, socket, timers, events } = setUp({ getToken });
  await settle();
  assert.equal(live.state, "connecting");
  assert.equal(sockets.length, 0);
  assert.deepEqual(events.filter((e) => e.type === "token").map((e) => e.detail.retryIn), [1000]);
  timers.advance(1000);
  await settle();
  timers.advance(2000);
  await settle();
  assert.equal(calls.count, 3);
  assert.equal(sockets.length, 1);
  socket().open();
  assert.equal(socket().sent[0].token, "t3");
});

test("close() while the provider is asked: its late answer opens nothing", async () => {
  let answer = (_token) => {};
  const getToken = () => new Promise((resolve) => (answer = resolve));
  const { live, sockets } = setUp({ getToken });
  live.close();
  answer("late");
  await settle();
  assert.equal(sockets.length, 0);
});

test("without tokenExpiresAt (an older server) a JWT's exp says when to refresh; the server's word wins", async () => {
  let next = 0;
  const tokens = [jwt({ sub: "ada", exp: (wall + 200_000) / 1000 }), jwt({ sub: "ada", exp: (wall + 900_000) / 1000 }), "t3"];
  const getToken = async () => tokens[next++];
  const older = setUp({ getToken });
  await settle();
  older.socket().open();
  older.socket().receive(welcome());
  assert.equal(older.live.tokenExpiresAt, wall + 200_000);
  await liveFor(older.timers, older.socket, 170_000);
  assert.equal(older.socket().sentOfType("token").length, 1);

  next = 0;
  const newer = setUp({ getToken });
  await settle();
  newer.socket().open();
  newer.socket().receive(welcome({ tokenExpiresAt: wall + 100_000 }));
  assert.equal(newer.live.tokenExpiresAt, wall + 100_000);
});

test("a fixed token still goes in every hello, and nothing is refreshed", () => {
  const { live, socket, sockets, join, timers } = setUp({ token: "fixed", random: () => 0 });
  join({ tokenExpiresAt: wall + 60_000 });
  assert.equal(socket().sent[0].token, "fixed");
  socket().serverClose(1006);
  timers.advance(350);
  socket().open();
  assert.equal(socket().sent[0].token, "fixed");
  assert.equal(sockets.length, 2);
  assert.equal(live.token, "fixed");
  assert.equal(socket().sentOfType("token").length, 0);
});

test("jwtExpiry reads exp in ms; anything else is null", () => {
  assert.equal(jwtExpiry(jwt({ exp: 1_800_000_000 })), 1_800_000_000_000);
  assert.equal(jwtExpiry(jwt({ sub: "x" })), null);
  assert.equal(jwtExpiry("a-token-of-the-token-file"), null);
  assert.equal(jwtExpiry("a.b.c"), null);
  assert.equal(jwtExpiry(null), null);
});

test("refreshDelay: 30 s before a long-lived token's end, a quarter of a short one's, at once when past", () => {
  assert.equal(refreshDelay(1_000_000 + 3_600_000, 1_000_000), 3_570_000);
  assert.equal(refreshDelay(10_000, 2_000), 6_000);
  assert.equal(refreshDelay(1_000, 5_000), 0);
});
