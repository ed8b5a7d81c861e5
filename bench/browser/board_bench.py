"""What the board page costs the browser's main thread on a big board, in Debian's headless
Chromium driven by Playwright, against a real `corkboard serve` this script starts.

    python3 board_bench.py --corkboard BIN --web-root WEB [--web-root OTHER ...] --output DIR
                           [--columns 3] [--cards 1000] [--wide-columns 30] [--wide-cards 30]
                           [--rounds 5] [--watchdog 300]

A board of COLUMNS × CARDS is created through the HTTP API; then, for each web root (a
before and an after side by side, in one run on one machine), a page opens it and the
script measures, ROUNDS times each (the median is printed, the worst beside it):

- first render: the `welcome` message's handler (the replica built, the whole board drawn)
  plus the style and layout it leaves to do;
- pick-up: a pointerdown on a card and the first pointermove past the start distance;
- placeholder: one pointermove that moves the placeholder to another slot of another column;
- drop: the pointerup (the move applied locally and drawn);
- remote move: the `committed` of a move another client made (through the HTTP API),
  handled and laid out;
- keyboard step: one arrow key while a card is carried by keyboard (Space picked it up):
  down and up in its column, right to the next column (the card moves in the DOM, the
  cards it passes glide);
- and on a second board of WIDE_COLUMNS × WIDE_CARDS (30 columns by default), a column drag
  by its grip: the column's pick-up (a pointerdown on the grip and the first pointermove
  past the start distance) and each frame of its drag (one pointermove that moves the
  column's placeholder past the next column, the columns gliding out of its way).

Each figure is main-thread milliseconds of script plus the style and layout it forces
(`document.body.offsetHeight` read at once after), measured in the page with
`performance.now()`: synthetic pointer events are dispatched synchronously, and the page's
WebSocket message listeners are wrapped (by an init script) to time each message. Long
tasks (PerformanceObserver `longtask`, over 50 ms) seen during each page's run are counted
too. Paint is not included (headless Chromium without a GPU paints off the main thread).

Prints one table and one line `BROWSER-BENCH <json>`, and writes OUTPUT/summary.json in the
shape the browser suites read ({"scenarios": [{"name", "passed", "message"}], "figures": ...}).
Each figure's runs are kept beside its median and worst (`runs`, in the order measured: the
first of each page comes first). Exit status 0 when every figure was measured, 1 otherwise, 3
on the watchdog. The goals (issue #32: first render < 200 ms, each interaction and each frame
of a column drag < 16 ms) are printed beside the figures, not enforced: a shared machine is
no place for a timed assertion."""

import argparse
import json
import os
import statistics
import sys
import threading
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "CorkboardEndToEndTests",
                                "browser"))
from harness import CHROMIUM, DEFAULT_TIMEOUT_MS, VIEWPORT, Recorder, ScenarioFailure, Server, log, wait_until  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402

GOALS = {"first render": 200, "pick-up": 16, "placeholder": 16, "drop": 16, "remote move": 16, "keyboard step": 16,
         "column pick-up": 16, "column drag frame": 16}
MEASURES = list(GOALS)

# Times every WebSocket message listener of the page (script, then the layout it leaves),
# and collects long tasks; installed before the page's own scripts run.
INSTRUMENT_JS = """
(() => {
  const bench = { messages: [], longTasks: [] };
  window.__bench = bench;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch (error) {}
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message" || typeof listener !== "function") return add.call(this, type, listener, options);
    const timed = function (event) {
      const start = performance.now();
      try {
        return listener.call(this, event);
      } finally {
        void document.body.offsetHeight;
        let kind = "?";
        try { kind = JSON.parse(event.data).type; } catch (error) {}
        bench.messages.push({ kind, ms: performance.now() - start, bytes: String(event.data).length });
      }
    };
    return add.call(this, type, timed, options);
  };
})();
"""

# Dispatches pointer events synchronously and returns the main-thread time they took, the
# layout they force included. `steps`: [{type, item?: card id, selector?: any element, fraction?,
# across?, dx, dy}]; coordinates are relative to the step's element (its centre, or `across`
# and `fraction` of its width and height), else to the last element named.
POINTER_JS = """
(steps) => {
  let x = 0, y = 0;
  const start = performance.now();
  for (const step of steps) {
    const selector = step.item ? `li.card[data-item-id="${step.item}"]` : step.selector;
    if (selector) {
      const el = document.querySelector(selector);
      if (!el) throw new Error(`nothing on the page matches ${selector}`);
      const r = el.getBoundingClientRect();
      x = r.left + r.width * (step.across ?? 0.5); y = r.top + r.height * (step.fraction ?? 0.5);
    }
    x += step.dx ?? 0; y += step.dy ?? 0;
    const at = document.elementFromPoint(x, y) ?? document.body;
    const target = step.type === "pointerdown" ? at : window;
    target.dispatchEvent(new PointerEvent(step.type, { bubbles: true, cancelable: true, clientX: x, clientY: y,
      pointerId: 1, pointerType: "mouse", isPrimary: true, button: 0, buttons: step.type === "pointerup" ? 0 : 1 }));
  }
  void document.body.offsetHeight;
  return performance.now() - start;
}
"""

# Dispatches one keydown on the focused element (a card carried by keyboard keeps the focus)
# and returns the main-thread time it took, the layout it forces included.
KEY_JS = """
(key) => {
  const target = document.activeElement ?? document.body;
  const start = performance.now();
  target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  void document.body.offsetHeight;
  return performance.now() - start;
}
"""

# The focused card carried by keyboard: its id, and the id of the column it is shown in.
CARRIED_JS = """
() => {
  const card = document.activeElement?.closest?.("li.card.keyboard-lifted");
  return card ? [card.dataset.itemId, card.closest("section.column")?.dataset.collectionId ?? null] : null;
}
"""

# Picking up scrolls nothing; the placeholder and drop targets are cards the page shows
# near the top of their columns (where a person would see them).
PLACEHOLDER_IN_JS = "(id) => document.querySelector(`section.column[data-collection-id=\"${id}\"] li.placeholder`) !== null"
# The columns' ids in the order the board shows them, the column placeholder as "|".
COLUMN_ORDER_JS = """
() => [...document.querySelectorAll("#board > section.column, #board > .column-placeholder")]
  .filter((e) => e.classList.contains("column-placeholder") || getComputedStyle(e).display !== "none")
  .map((e) => e.classList.contains("column-placeholder") ? "|" : e.dataset.collectionId)
"""


def columns_of(count, cards, prefix="c"):
    return [(f"{prefix}{c}", f"Column {c}", [(f"{prefix}{c}-{i}", f"Card {i} of column {c}: something to do") for i in range(cards)])
            for c in range(count)]


def settle(page):
    """Waits until animations and the drag's flight are over (two frames after)."""
    page.wait_for_timeout(400)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def messages(page):
    return page.evaluate("() => window.__bench.messages.length")


def wait_message(page, kind, after, description):
    """The time of the first `kind` message after the first `after` messages."""
    found = wait_until(description, lambda: page.evaluate(
        "([kind, after]) => window.__bench.messages.slice(after).find((m) => m.kind === kind) ?? null", [kind, after]),
        timeout=20)
    return found["ms"]


def measure_page(browser, server, recorder, board_id, wide_board, label, rounds):
    """{measure: [ms, ...]} for one web root (the server serves it), plus the long tasks;
    the column drag on `wide_board` (None: not measured)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS * 3)
    context.add_init_script(INSTRUMENT_JS)
    figures = {name: [] for name in MEASURES if wide_board is not None or not name.startswith("column ")}
    try:
        for round_ in range(rounds):
            page = context.new_page()
            recorder.attach(page, f"{label} #{round_ + 1}")
            open_board(page, server, board_id)
            figures["first render"].append(wait_message(page, "welcome", 0, "the welcome was handled"))
            settle(page)
            for step in range(2):
                # Down on the second card of the first column, a move past 4 px: picked up.
                source = f"c0-{1 + step + 2 * round_}"
                figures["pick-up"].append(page.evaluate(POINTER_JS, [
                    {"type": "pointerdown", "item": source}, {"type": "pointermove", "dx": 6, "dy": 6}]))
                if page.evaluate("() => document.querySelector('li.card.lifted') === null"):
                    raise ScenarioFailure(f"{label}: the pointer did not pick {source} up")
                settle(page)
                # Over the upper part of the fourth card of the second column: the placeholder goes there.
                figures["placeholder"].append(page.evaluate(POINTER_JS, [
                    {"type": "pointermove", "item": f"c1-{3 + step}", "fraction": 0.25}]))
                if not page.evaluate(PLACEHOLDER_IN_JS, "c1"):
                    raise ScenarioFailure(f"{label}: no placeholder in column c1 after the pointer went over c1-{3 + step}")
                settle(page)
                before = messages(page)
                figures["drop"].append(page.evaluate(POINTER_JS, [{"type": "pointerup", "dx": 0, "dy": 0}]))
                wait_message(page, "committed", before, "the drop was committed")
                settle(page)
                # Someone else moves a card from the third column to the top of the first.
                before = messages(page)
                seq, state = server.board(board_id)
                moved = dict(state)["c2"][0]
                server.post_op(board_id, {"type": "move", "opId": f"remote-{round_}-{step}", "baseSeq": seq, "sources": [moved],
                                          "destination": {"collection": "c0", "before": dict(state)["c0"][0]}})
                figures["remote move"].append(wait_message(page, "committed", before, "the remote move arrived"))
                settle(page)
            # The first card of the first column (the pick-ups took the cards after it away; the
            # remote moves put theirs above it).
            figures["keyboard step"] += keyboard_steps(page, label, "c0-0")
            long_tasks = page.evaluate("() => window.__bench.longTasks")
            figures.setdefault("long tasks", []).append(len(long_tasks))
            page.close()
            if wide_board is not None:
                page = context.new_page()
                recorder.attach(page, f"{label} #{round_ + 1}, 30 columns")
                column_pick_up, frames = column_drag(page, server, label, wide_board)
                figures["column pick-up"].append(column_pick_up)
                figures["column drag frame"] += frames
                page.close()
    finally:
        context.close()
    return figures


def open_board(page, server, board_id):
    page.goto(f"{server.origin}/b/{board_id}?name=Bench")
    wait_until("the board is ready", lambda: page.get_attribute("body", "data-ready", timeout=5000) == "true", timeout=60)


def keyboard_steps(page, label, card):
    """Space on `card` picks it up; then each arrow key (down, down, right, up) is measured;
    Escape puts it back."""
    page.focus(f'li.card[data-item-id="{card}"]')
    page.evaluate(KEY_JS, " ")
    if page.evaluate(CARRIED_JS) is None:
        raise ScenarioFailure(f"{label}: Space did not pick {card} up")
    settle(page)
    times = []
    for key, column in [("ArrowDown", "c0"), ("ArrowDown", "c0"), ("ArrowRight", "c1"), ("ArrowUp", "c1")]:
        times.append(page.evaluate(KEY_JS, key))
        carried = page.evaluate(CARRIED_JS)
        if carried != [card, column]:
            raise ScenarioFailure(f"{label}: after {key} the card in hand was {carried}, not {card} in {column}")
        settle(page)
    page.evaluate(KEY_JS, "Escape")
    if page.evaluate(CARRIED_JS) is not None:
        raise ScenarioFailure(f"{label}: Escape did not put {card} back")
    settle(page)
    return times


def column_drag(page, server, label, board_id):
    """(pick-up ms, [frame ms, ...]): the first column's grip pressed and moved past the
    start distance, then carried right over the next three columns and back over two (each
    pointermove moves its placeholder: one frame of the drag), and released where it began."""
    open_board(page, server, board_id)
    settle(page)
    first, *others = page.evaluate(COLUMN_ORDER_JS)
    grip = f'section.column[data-collection-id="{first}"] .column-grip'
    pick_up = page.evaluate(POINTER_JS, [{"type": "pointerdown", "selector": grip}, {"type": "pointermove", "dx": 6, "dy": 6}])
    if page.evaluate(COLUMN_ORDER_JS)[:2] != ["|", others[0]]:
        raise ScenarioFailure(f"{label}: the pointer did not pick the column {first} up")
    settle(page)
    frames = []
    # Over the right part of a column: the placeholder goes after it.
    for index, across in [(0, 0.75), (1, 0.75), (2, 0.75), (1, 0.25), (0, 0.25)]:
        column = others[index]
        frames.append(page.evaluate(POINTER_JS, [
            {"type": "pointermove", "selector": f'section.column[data-collection-id="{column}"]', "across": across, "fraction": 0.3}]))
        order = page.evaluate(COLUMN_ORDER_JS)
        expected = index + 1 if across > 0.5 else index
        if order.index("|") != expected:
            raise ScenarioFailure(f"{label}: over {column} the column placeholder was at {order.index('|')}, not {expected}")
        settle(page)
    page.evaluate(POINTER_JS, [{"type": "pointerup", "dx": 0, "dy": 0}])
    settle(page)
    if page.evaluate(COLUMN_ORDER_JS)[0] != first:
        raise ScenarioFailure(f"{label}: the column {first} released where it began did not stay first")
    return pick_up, frames


def summarize(values):
    return {"median": round(statistics.median(values), 1), "worst": round(max(values), 1), "n": len(values),
            "runs": [round(value, 1) for value in values]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corkboard", required=True)
    parser.add_argument("--web-root", action="append", required=True,
                        help="a web folder to measure; give two for a before and an after side by side")
    parser.add_argument("--label", action="append", default=[], help="a name for each web root, in order")
    parser.add_argument("--data", default=None)
    parser.add_argument("--output", required=True)
    parser.add_argument("--columns", type=int, default=3)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--wide-columns", type=int, default=30, help="the column drag's board (0: not measured)")
    parser.add_argument("--wide-cards", type=int, default=30, help="cards in each of its columns")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--watchdog", type=float, default=600)
    args = parser.parse_args()
    if args.cards < 6 or args.columns < 3:
        parser.error("the bench needs at least 3 columns of 6 cards")
    if args.wide_columns and args.wide_columns < 4:
        parser.error("the column drag needs at least 4 columns")
    os.makedirs(args.output, exist_ok=True)
    labels = args.label + [os.path.basename(os.path.normpath(w)) for w in args.web_root[len(args.label):]]
    data = args.data or os.path.join(args.output, "data")
    os.makedirs(data, exist_ok=True)
    started = time.monotonic()
    recorder = Recorder()
    results = []
    report = {}

    def finish(status, note=None):
        summary = {"scenarios": results, "figures": report, "board": f"{args.columns} x {args.cards}",
                   "column drag board": f"{args.wide_columns} x {args.wide_cards}" if args.wide_columns else None, "note": note,
                   "problems": recorder.problems, "seconds": round(time.monotonic() - started, 1)}
        with open(os.path.join(args.output, "summary.json"), "w", encoding="utf-8") as file:
            json.dump(summary, file, indent=2)
        log(f"BROWSER-BENCH {json.dumps({'board': summary['board'], 'figures': report})}")
        return status

    def watchdog():
        log(f"!! watchdog: the bench took longer than {args.watchdog:g} s; stopping")
        finish(3, f"watchdog after {args.watchdog:g} s")
        sys.stdout.flush()
        os._exit(3)

    timer = threading.Timer(args.watchdog, watchdog)
    timer.daemon = True
    timer.start()
    servers = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, chromium_sandbox=False,
                                                 args=["--no-sandbox", "--disable-gpu"], timeout=30_000)
            log(f"Chromium {browser.version}; board {args.columns} x {args.cards}, column drag on {args.wide_columns} x "
                f"{args.wide_cards}; {args.rounds} page(s) per web root")
            for index, (web_root, label) in enumerate(zip(args.web_root, labels)):
                server = Server(args.corkboard, web_root, os.path.join(data, str(index)),
                                os.path.join(args.output, f"server-{index}.log"))
                os.makedirs(server.data, exist_ok=True)
                servers.append(server)
                server.start(options=("--max-drag-seconds", "600"))
                board_id = f"bench-{index}"
                server.create_board(board_id, f"Bench {args.columns} x {args.cards}", columns_of(args.columns, args.cards))
                wide_board = None
                if args.wide_columns:
                    wide_board = f"bench-wide-{index}"
                    server.create_board(wide_board, f"Bench {args.wide_columns} x {args.wide_cards}",
                                        columns_of(args.wide_columns, args.wide_cards, prefix="w"))
                recorder.scenario = label
                try:
                    figures = measure_page(browser, server, recorder, board_id, wide_board, label, args.rounds)
                    report[label] = {name: summarize(values) for name, values in figures.items()}
                    results.append({"name": label, "passed": True, "message": json.dumps(report[label])})
                except Exception as error:
                    kind = "" if isinstance(error, ScenarioFailure) else f"{type(error).__name__}: "
                    results.append({"name": label, "passed": False, "message": f"{kind}{error}"})
                    log(f"!! {label}: {kind}{error}")
                server.stop()
            browser.close()
    except Exception as error:
        traceback.print_exc()
        for server in servers:
            server.kill()
        timer.cancel()
        return finish(2, f"the run broke: {type(error).__name__}: {error}")
    timer.cancel()
    print_table(report, labels)
    if recorder.problems:
        log("console problems:\n" + Recorder.describe(recorder.problems))
    failed = [r for r in results if not r["passed"]] or recorder.problems
    return finish(1 if failed else 0)


def print_table(report, labels):
    shown = [label for label in labels if label in report]
    header = f"{'main-thread ms (median / worst)':34}" + "".join(f"{label:>22}" for label in shown) + f"{'goal':>10}"
    log(header)
    for name in MEASURES + ["long tasks"]:
        row = f"{name:34}"
        for label in shown:
            figure = report[label].get(name)
            shown_figure = "-" if figure is None else f"{figure['median']:g} / {figure['worst']:g}"
            row += f"{shown_figure:>22}"
        goal = GOALS.get(name)
        row += f"{'< ' + str(goal) if goal else '':>10}"
        log(row)


if __name__ == "__main__":
    sys.exit(main())
