// The board page's long-column window (web/js/column-window.js): which cards a scrolled column
// draws, and the spacers for the rest. Run: node --test Tests/sdk/
import { test } from "node:test";
import assert from "node:assert/strict";
import { OVERSCAN, seenRange, windowPlan } from "../../web/js/column-window.js";

/**
 * A column's list as seenRange reads it: laid out at `top`, `height` tall, scrolled by `scrollTop`.
 * @param {{ top: number, height: number, scrollTop: number }} at
 */
function list({ top, height, scrollTop }) {
  return /** @type {HTMLElement} */ (/** @type {unknown} */ ({
    scrollTop,
    getBoundingClientRect: () => ({ top, bottom: top + height, height }),
  }));
}

globalThis.innerHeight = 800;

test("at the top, the first screenful and the overscan below it", () => {
  const { first, last } = seenRange(list({ top: 100, height: 600, scrollTop: 0 }), 2000, 50);
  assert.equal(first, 0);
  assert.equal(last, 12 + OVERSCAN);
});

test("scrolled, the cards seen with the overscan on both sides", () => {
  const { first, last } = seenRange(list({ top: 100, height: 600, scrollTop: 50_000 }), 2000, 50);
  assert.equal(first, 1000 - OVERSCAN);
  assert.equal(last, 1012 + OVERSCAN);
});

test("scrolled past where the cards end by the row used, the last screenful is drawn, never nothing", () => {
  // The spacers were sized with a bigger row than the one now measured: scrollTop points past the last card.
  const { first, last } = seenRange(list({ top: 100, height: 600, scrollTop: 120_000 }), 2000, 50);
  assert.equal(last, 1999);
  assert.equal(first, 2000 - 12 - OVERSCAN);
  assert.ok(first <= last);
});

test("a plan draws the window and the pinned cards in order, a gap for each run left out", () => {
  const ids = Array.from({ length: 10 }, (_, at) => `c${at}`);
  const plan = windowPlan(ids, 3, 5, new Set(["c8"]));
  assert.deepEqual(plan, [{ from: 0, to: 2 }, { id: "c3" }, { id: "c4" }, { id: "c5" }, { from: 6, to: 7 }, { id: "c8" }, { from: 9, to: 9 }]);
});
