import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { webhookCells, when } from "../../web/js/admin-webhooks.js";

// One page of `GET /api/webhooks` (the OpenAPI document's WebhookList).
const fixture = JSON.parse(readFileSync(new URL("./fixtures/webhooks.json", import.meta.url), "utf8"));
// 2026-01-01 00:00:00 UTC: a minute after the first webhook's last attempt.
const now = 1767225600000;
const cells = Object.fromEntries(fixture.webhooks.map((hook) => [hook.id, webhookCells(hook, now)]));

test("a healthy webhook for every board says so, with its last delivery", () => {
  assert.deepEqual(cells["ops"], {
    url: "https://hooks.example.com/corkboard", boards: "every board", source: "the webhooks file",
    backlog: "0 events waiting", lastAttempt: "HTTP 204, 1 min ago", nextRetry: "—", failing: false,
  });
});

test("a webhook failing with a status shows its backlog, the status and the next retry", () => {
  assert.deepEqual(cells["wh_sprint"], {
    url: "https://ci.example.org/hook", boards: "demo, sprint-42", source: "the API",
    backlog: "17 events waiting", lastAttempt: "HTTP 503, 5 s ago", nextRetry: "in 30 s", failing: true,
  });
});

test("a webhook whose receiver did not answer shows the error, and far moments as dates", () => {
  const down = cells["wh_down"];
  assert.equal(down.backlog, "1 event waiting");
  assert.equal(down.lastAttempt, "connection refused, 2025-12-31 22:00 UTC");
  assert.equal(down.nextRetry, "in 5 min");
  assert.equal(down.failing, true);
});

test("a webhook never tried says so and is not failing", () => {
  assert.equal(cells["wh_new"].lastAttempt, "never");
  assert.equal(cells["wh_new"].failing, false);
});

test("moments are relative when near, both ways", () => {
  assert.equal(when(now, now), "in 0 s");
  assert.equal(when(now - 59_000, now), "59 s ago");
  assert.equal(when(now + 90_000, now), "in 2 min");
});
