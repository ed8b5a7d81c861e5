// The drag engine's decisions (web/sdk/drag-*.js), without a page: where a point lands among
// items, how fast an edge scrolls, when a press becomes a drag, where a drag aims (and when it
// arms a drop into an item, the time given), what a key does to a carried item.
// Run: node --test Tests/sdk/
import { test } from "node:test";
import assert from "node:assert/strict";
import { EDGE, LONGEST_FRAME_MS, MAX_SCROLL_STEP, RAMP_FLOOR, RAMP_MS, boundedStep, edgeStep, isNear, pacedStep, slotIndex, stackedSlotIndex, wheelScroll } from "../../web/sdk/drag-geometry.js";
import { HOLD_TOLERANCE, PressGesture, START_DISTANCE } from "../../web/sdk/drag-press.js";
import { DWELL_MS, DropAim } from "../../web/sdk/drag-aim.js";
import { keyStep } from "../../web/sdk/drag-keys.js";

/** A box at (left, top), `width` × `height`. */
function box(left, top, width, height) {
  return { left, top, width, height, right: left + width, bottom: top + height };
}

/** `count` boxes stacked from y = 0, each 40 tall with 10 between. */
const stacked = (count) => Array.from({ length: count }, (_, i) => box(0, i * 50, 200, 40));

// MARK: Hit-testing

test("in a stack, a point lands before the first item whose middle is below it", () => {
  const boxes = stacked(3); // middles at 20, 70, 120
  assert.equal(slotIndex(boxes, 10, 5), 0);
  assert.equal(slotIndex(boxes, 10, 19), 0);
  assert.equal(slotIndex(boxes, 10, 21), 1);
  assert.equal(slotIndex(boxes, 10, 100), 2);
  assert.equal(slotIndex(boxes, 10, 500), 3, "below every item: the end");
  assert.equal(slotIndex([], 10, 10), 0, "an empty list: its start");
});

test("in a row, a point lands before the first item whose middle across is right of it", () => {
  const row = [box(0, 0, 100, 40), box(110, 0, 100, 40), box(220, 0, 100, 40)];
  assert.equal(slotIndex(row, 40, 20), 0);
  assert.equal(slotIndex(row, 60, 20), 1);
  assert.equal(slotIndex(row, 200, 20), 2);
  assert.equal(slotIndex(row, 300, 20), 3);
});

test("in a grid, a point on a later row lands in that row", () => {
  const grid = [box(0, 0, 100, 40), box(110, 0, 100, 40), box(0, 50, 100, 40), box(110, 50, 100, 40)];
  assert.equal(slotIndex(grid, 10, 60), 2);
  assert.equal(slotIndex(grid, 190, 60), 4);
  assert.equal(slotIndex(grid, 190, 20), 2, "right of the first row's last item: before the next row");
});

test("the halving search finds what the scan finds, measuring few items", () => {
  const boxes = stacked(1000);
  const measured = new Set();
  const boxAt = (i) => {
    measured.add(i);
    return boxes[i];
  };
  for (const y of [0, 19, 21, 4999, 25_020, 49_990, 60_000]) {
    measured.clear();
    assert.equal(stackedSlotIndex(boxes.length, boxAt, y), slotIndex(boxes, 0, y), `at y = ${y}`);
    assert.ok(measured.size <= 11, `measured ${measured.size} of 1000`);
  }
});

test("near a list means on it or within the reach around it", () => {
  const list = box(100, 100, 200, 300);
  assert.ok(isNear(list, 150, 150));
  assert.ok(isNear(list, 80, 150, 24));
  assert.ok(!isNear(list, 70, 150, 24));
  assert.ok(!isNear(list, 150, 430, 24));
});

// MARK: Auto-scroll

test("an edge scrolls faster the nearer the pointer is, up to the fastest step", () => {
  // A box from 0 to 600 scrolled 100 of 1000.
  assert.equal(edgeStep(300, 0, 600, 100, 1000), 0, "in the middle: still");
  assert.equal(edgeStep(600 - EDGE / 2, 0, 600, 100, 1000), MAX_SCROLL_STEP / 2);
  assert.equal(edgeStep(599, 0, 600, 100, 1000), Math.ceil((MAX_SCROLL_STEP * (EDGE - 1)) / EDGE));
  assert.equal(edgeStep(600 + 10, 0, 600, 100, 1000), MAX_SCROLL_STEP, "just past the edge: the fastest");
  assert.equal(edgeStep(EDGE / 2, 0, 600, 100, 1000), -MAX_SCROLL_STEP / 2);
  assert.equal(edgeStep(0, 0, 600, 100, 1000), -MAX_SCROLL_STEP);
});

test("an edge with nothing beyond it, or a pointer far outside, does not scroll", () => {
  assert.equal(edgeStep(5, 0, 600, 0, 1000), 0, "at the top already");
  assert.equal(edgeStep(595, 0, 600, 1000, 1000), 0, "at the bottom already");
  assert.equal(edgeStep(595, 0, 600, 0, 0), 0, "a box that does not scroll");
  assert.equal(edgeStep(600 + EDGE + 1, 0, 600, 100, 1000), 0, "beyond the edge's reach");
});

test("the step's limits can be given", () => {
  assert.equal(edgeStep(590, 0, 600, 0, 1000, { edge: 20, maxStep: 4 }), 2);
  assert.equal(edgeStep(570, 0, 600, 0, 1000, { edge: 20, maxStep: 4 }), 0);
});

test("frame by frame, a pointer held at the edge scrolls to the end and stops there", () => {
  let scrolled = 0;
  let frames = 0;
  for (; frames < 1000; frames += 1) {
    const step = edgeStep(598, 0, 600, scrolled, 500);
    if (step === 0) break;
    scrolled = Math.min(500, scrolled + step);
  }
  assert.ok(scrolled >= 499, `scrolled ${scrolled}`);
  assert.ok(frames < 1000, "it stopped");
});

// MARK: Press

test("a mouse press lifts once it moved a few pixels", () => {
  const press = new PressGesture({ x: 100, y: 100, waitsForHold: false });
  assert.equal(press.moved(101, 101), "wait");
  assert.equal(press.moved(100 + START_DISTANCE, 100), "lift");
  assert.equal(press.moved(200, 200), "wait", "lifted once");
  assert.equal(press.held(), "wait", "a mouse has no hold");
});

test("a finger lifts after the hold, moving a little meanwhile; the last place is kept", () => {
  const press = new PressGesture({ x: 100, y: 100, waitsForHold: true });
  assert.equal(press.moved(103, 104), "wait");
  assert.equal(press.held(), "lift");
  assert.deepEqual([press.lastX, press.lastY], [103, 104]);
  assert.equal(press.held(), "wait");
});

test("a finger that travels before the hold ends is a scroll: the press comes to nothing", () => {
  const press = new PressGesture({ x: 100, y: 100, waitsForHold: true });
  assert.equal(press.moved(100, 100 + HOLD_TOLERANCE + 1), "scroll");
  assert.equal(press.held(), "wait", "the hold's end finds it gone");
  assert.equal(press.moved(100, 100), "wait");
});

// MARK: Aim and drop-into

test("a drag aims where the pointer lands; off every list, at nothing", () => {
  const aim = new DropAim({ list: "a", index: 2 });
  assert.deepEqual(aim.aim({ list: "a", index: 2 }, 0), { placeChanged: false, intoChanged: false, due: null });
  assert.deepEqual(aim.aim({ list: "b", index: 0 }, 10), { placeChanged: true, intoChanged: false, due: null });
  assert.deepEqual(aim.place, { list: "b", index: 0 });
  assert.equal(aim.aim(null, 20).placeChanged, true);
  assert.equal(aim.place, null);
});

test("over an item that takes drops, the place stays: the item is not pushed from under the pointer", () => {
  const aim = new DropAim({ list: "a", index: 1 });
  // The folder f is at index 3 of a; the hit test would open the place before it (index 3).
  const change = aim.aim({ list: "a", index: 3, into: "f" }, 100);
  assert.equal(change.placeChanged, false);
  assert.deepEqual(aim.place, { list: "a", index: 1 });
  assert.equal(change.due, 100 + DWELL_MS);
  assert.equal(aim.into, null, "not before the dwell");
});

test("coming from another list onto an item that takes drops, the drag takes the place the hit test gives", () => {
  const aim = new DropAim({ list: "a", index: 1 });
  const change = aim.aim({ list: "b", index: 4, into: "f" }, 0);
  assert.equal(change.placeChanged, true);
  assert.deepEqual(aim.place, { list: "b", index: 4 });
});

test("held over the item for the dwell, a release goes into it; leaving it disarms", () => {
  const aim = new DropAim({ list: "a", index: 0 }, 500);
  const { due } = aim.aim({ list: "a", index: 3, into: "f" }, 1000);
  assert.equal(due, 1500);
  assert.equal(aim.tick(1499), false);
  assert.equal(aim.tick(1500), true);
  assert.equal(aim.into, "f");
  assert.equal(aim.tick(1600), false, "armed once");
  // Small moves over the same item keep it armed, and no new wait.
  assert.deepEqual(aim.aim({ list: "a", index: 3, into: "f" }, 1700), { placeChanged: false, intoChanged: false, due: null });
  // Off it: disarmed, and the place follows the pointer again.
  const off = aim.aim({ list: "a", index: 5 }, 1800);
  assert.deepEqual(off, { placeChanged: true, intoChanged: true, due: null });
  assert.equal(aim.into, null);
});

test("a tick before the due time (a timer that fired early) leaves the wait as it was", () => {
  const aim = new DropAim({ list: "a", index: 0 }, 500);
  aim.aim({ list: "a", index: 2, into: "f" }, 100);
  assert.equal(aim.due, 600);
  assert.equal(aim.tick(599.9), false);
  assert.equal(aim.due, 600, "still waiting, for the same time");
  assert.equal(aim.tick(600), true);
  assert.equal(aim.due, null, "armed: nothing more to wait for");
});

test("passing over an item that takes drops, quicker than the dwell, does not go into it", () => {
  const aim = new DropAim({ list: "a", index: 0 }, 500);
  aim.aim({ list: "a", index: 2, into: "f" }, 0);
  aim.aim({ list: "a", index: 4 }, 300);
  assert.equal(aim.tick(600), false);
  assert.equal(aim.into, null);
});

test("from one item that takes drops straight onto another, the wait starts again", () => {
  const aim = new DropAim({ list: "a", index: 0 }, 500);
  aim.aim({ list: "a", index: 2, into: "f" }, 0);
  assert.equal(aim.tick(500), true);
  const change = aim.aim({ list: "a", index: 3, into: "g" }, 600);
  assert.deepEqual(change, { placeChanged: false, intoChanged: true, due: 1100 });
  assert.equal(aim.tick(1000), false);
  assert.equal(aim.tick(1100), true);
  assert.equal(aim.into, "g");
});

// MARK: Keyboard steps

/** Lists side by side: a (3 items besides the carried one), b (0), c (5). */
const lists = {
  count: (list) => ({ a: 3, b: 0, c: 5 })[list],
  neighbour: (list, delta) => ["a", "b", "c"][["a", "b", "c"].indexOf(list) + delta] ?? null,
};

test("up and down carry the item a place, Home and End to either end", () => {
  const place = { list: "a", index: 1 };
  assert.deepEqual(keyStep("ArrowUp", place, lists), { kind: "place", place: { list: "a", index: 0 } });
  assert.deepEqual(keyStep("ArrowDown", place, lists), { kind: "place", place: { list: "a", index: 2 } });
  assert.deepEqual(keyStep("Home", place, lists), { kind: "place", place: { list: "a", index: 0 } });
  assert.deepEqual(keyStep("End", place, lists), { kind: "place", place: { list: "a", index: 3 } });
});

test("at either end, a step further goes nowhere", () => {
  assert.deepEqual(keyStep("ArrowUp", { list: "a", index: 0 }, lists), { kind: "still" });
  assert.deepEqual(keyStep("ArrowDown", { list: "a", index: 3 }, lists), { kind: "still" });
  assert.deepEqual(keyStep("End", { list: "a", index: 3 }, lists), { kind: "still" });
});

test("in one list, left and right go like up and down", () => {
  assert.deepEqual(keyStep("ArrowLeft", { list: "a", index: 1 }, lists), { kind: "place", place: { list: "a", index: 0 } });
  assert.deepEqual(keyStep("ArrowRight", { list: "a", index: 1 }, lists), { kind: "place", place: { list: "a", index: 2 } });
});

test("across lists, left and right carry it to the list beside, at most to its end", () => {
  const across = { across: true };
  assert.deepEqual(keyStep("ArrowRight", { list: "a", index: 2 }, lists, across), { kind: "place", place: { list: "b", index: 0 } });
  assert.deepEqual(keyStep("ArrowRight", { list: "b", index: 0 }, lists, across), { kind: "place", place: { list: "c", index: 0 } });
  assert.deepEqual(keyStep("ArrowLeft", { list: "c", index: 4 }, lists, across), { kind: "place", place: { list: "b", index: 0 } });
  assert.deepEqual(keyStep("ArrowLeft", { list: "a", index: 2 }, lists, across), { kind: "still" }, "no list left of the first");
  assert.deepEqual(keyStep("ArrowRight", { list: "c", index: 2 }, lists, across), { kind: "still" });
});

test("Space and Enter drop, Escape puts back, Tab puts back and lets the focus go on; other keys are swallowed", () => {
  const place = { list: "a", index: 1 };
  assert.deepEqual(keyStep(" ", place, lists), { kind: "drop" });
  assert.deepEqual(keyStep("Enter", place, lists), { kind: "drop" });
  assert.deepEqual(keyStep("Escape", place, lists), { kind: "cancel", focusMovesOn: false });
  assert.deepEqual(keyStep("Tab", place, lists), { kind: "cancel", focusMovesOn: true });
  assert.deepEqual(keyStep("a", place, lists), { kind: "ignore" });
});

test("auto-scroll is paced by time and ramps up: a pointer resting at an edge travels little in its first half second", () => {
  const frame = 1000 / 60;
  assert.equal(pacedStep(0, frame, 5000), 0, "no step, no scroll");
  assert.equal(pacedStep(MAX_SCROLL_STEP, frame, RAMP_MS), MAX_SCROLL_STEP, "full speed once the ramp is over, a frame at 60 Hz");
  assert.equal(pacedStep(MAX_SCROLL_STEP, frame / 2, RAMP_MS), MAX_SCROLL_STEP / 2, "a 120 Hz frame scrolls half as far");
  assert.equal(pacedStep(-MAX_SCROLL_STEP, 10_000, RAMP_MS), -Math.round((MAX_SCROLL_STEP * LONGEST_FRAME_MS) / frame), "a long frame counts as LONGEST_FRAME_MS");
  assert.equal(pacedStep(MAX_SCROLL_STEP, frame, 0), Math.round(MAX_SCROLL_STEP * RAMP_FLOOR), "just arrived: the ramp's floor");
  assert.equal(pacedStep(1, frame, 0), 1, "at least a pixel");
  let travelled = 0;
  for (let t = 0; t < 500; t += frame) travelled += pacedStep(MAX_SCROLL_STEP, frame, t);
  // At full speed from the start it was 540 px (the 692 px the phone trial saw, with the old jumps).
  assert.ok(travelled <= 300, `half a second at the very edge scrolls ${travelled} px`);
  assert.ok(travelled >= 100, `but it does scroll: ${travelled} px`);
});

test("auto-scroll stops where the content ends", () => {
  assert.equal(boundedStep(18, 100, undefined), 18, "no bound");
  assert.equal(boundedStep(18, 100, 110), 10, "up to the end");
  assert.equal(boundedStep(18, 110, 110), 0, "at the end");
  assert.equal(boundedStep(18, 200, 110), 0, "past it (scrolled by hand): not further");
  assert.equal(boundedStep(-18, 200, 110), -18, "back towards the start is never bounded");
});

// MARK: A wheel over the avatar

/** A scroll box scrolled to (left, top) of a content `width` × `height` in a 100 × 100 view. */
const scroller = (name, left, top, width, height) => ({ name, scrollLeft: left, scrollTop: top, scrollWidth: width, scrollHeight: height, clientWidth: 100, clientHeight: 100 });

test("a wheel over the avatar scrolls the innermost box that can move that way, as the browser chains it", () => {
  const list = scroller("list", 0, 0, 100, 500);
  const board = scroller("board", 0, 0, 900, 100);
  assert.deepEqual(wheelScroll([list, board], 0, 40), { scroller: list, left: 0, top: 40 }, "down: the column's list");
  assert.equal(wheelScroll([list, board], 0, -40), null, "up at the list's top, and nothing else scrolls up: none");
  assert.deepEqual(wheelScroll([list, board], 30, 0), { scroller: board, left: 30, top: 0 }, "sideways: the board (the list cannot)");
  const atEnd = scroller("list", 0, 399.6, 100, 500);
  assert.deepEqual(wheelScroll([atEnd, board], 0, 40), null, "down at the list's end (a fraction short): none");
  assert.deepEqual(wheelScroll([atEnd, board], 0, -40), { scroller: atEnd, left: 0, top: -40 });
});
