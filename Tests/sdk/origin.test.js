// A page whose origin the server does not allow (--allowed-origins): its socket fails at the
// handshake, which the browser reports only as a failed connection; the SDK asks GET /api once
// and stops with a refusal that says so, instead of "Connecting…" for ever.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "../../web/sdk/corkboard.js";
import { FakeTimers, MemoryStorage, fakeWebSocketClass, welcome } from "./fakes.js";
import { settle } from "./harness.js";

/** A live board whose `GET /api` answers `info` (or fails with `failure`), and what it asked. */
function setUpWithServerInfo(info, failure = null) {
  const timers = new FakeTimers();
  const { FakeWebSocket, sockets } = fakeWebSocketClass();
  const asked = [];
  const fetch = async (url) => {
    asked.push(url);
    if (failure) throw failure;
    return { ok: true, json: async () => info };
  };
  const live = connect({
    url: "https://boards.example", board: "b", name: "Ada", storage: new MemoryStorage(), WebSocket: FakeWebSocket, timers,
    random: () => 0, window: null, document: null, navigator: { onLine: true }, fetch,
  });
  // What the page's origin is, as a browser's location says.
  live.origin = "https://app.example";
  const fatal = [];
  live.addEventListener("fatal", (event) => fatal.push(event.detail));
  return { live, timers, sockets, asked, fatal };
}

test("a socket refused at the handshake asks GET /api once, and an unlisted origin stops the retries with a clear refusal", async () => {
  const { live, timers, sockets, asked, fatal } = setUpWithServerInfo({ server: "corkboard", originAllowed: false });
  sockets[0].serverClose(1006);
  await settle();
  assert.deepEqual(asked, ["https://boards.example/api"]);
  assert.equal(live.state, "refused");
  assert.equal(fatal.length, 1);
  assert.equal(fatal[0].code, "forbidden");
  assert.match(fatal[0].message, /origin \(https:\/\/app\.example\) may not use .*--allowed-origins/);
  timers.advance(60_000);
  assert.equal(sockets.length, 1, "no more attempts");
});

test("an allowed origin, an older server or an unreachable one: the SDK keeps retrying as before, and asks only once", async () => {
  for (const [info, failure] of [[{ originAllowed: true }, null], [{}, null], [null, new TypeError("Failed to fetch")]]) {
    const { live, timers, sockets, asked } = setUpWithServerInfo(info, failure);
    sockets[0].serverClose(1006);
    await settle();
    assert.equal(live.state, "connecting");
    timers.advance(60_000);
    sockets[sockets.length - 1].serverClose(1006);
    await settle();
    timers.advance(60_000);
    assert.equal(sockets.length, 3, "it retried");
    assert.equal(asked.length, 1, "asked once");
  }
});

test("a socket that opened and then dropped never asks about the origin", async () => {
  const { live, sockets, asked } = setUpWithServerInfo({ originAllowed: false });
  sockets[0].open();
  sockets[0].receive(welcome());
  sockets[0].serverClose(1006);
  await settle();
  assert.deepEqual(asked, []);
  assert.equal(live.state, "connecting");
});
