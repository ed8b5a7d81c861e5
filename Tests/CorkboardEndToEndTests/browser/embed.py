"""The SDK's list binding in a page that is not the board app: `examples/embed/` served from a
second loopback origin by a small static server this script runs, loading `/sdk/corkboard.js`
from a real `corkboard serve` started with `--allowed-origins` for that origin only. Two
pages (separate browser contexts, as two people) show one collection of one board.

    python3 embed.py --corkboard BIN --web-root WEB --example DIR --data DIR --output DIR

The checks run in order on the same two pages (each builds on the last) and are reported one
by one in OUTPUT/summary.json, like scenarios.py: `loads` (both pages live, showing the
server's order), `pointer-reorder` (page A drags a song with the mouse; page B sees the
drag while it happens, then the new order, as does GET /api/boards/ID), `keyboard-reorder`
(page B moves a song with Space, arrows and Space; page A keeps its focus on a song B moved),
`keyboard-escape` (Escape puts a lifted song back and sends no move), `remote-update` (a
bot renames a song, deletes one and adds two: drawn in place, focus kept), `destroy` (a list
bound by hand follows the board until destroy(), then not, and leaves no helper behind), `touch` (on a phone-sized
touch page a swipe that starts on a song scrolls and moves nothing; a press-and-hold lifts the
song, the finger carries it, one move), `touch-handle` (with `&handle=1` a finger on a grip
drags at once), `autoscroll-escape` (a song held near the window's edge scrolls the page;
Escape puts it back, no move), `unlisted-origin` (the example on a third origin, which
--allowed-origins does not list, is refused and says why) and `console-clean` (no console error or warning, page
error or response >= 400 on any page). Exit status 0 when
every check passed, 1 when one failed, 2 when the run itself broke, 3 on the watchdog."""

import functools
import http.server
import os
import sys
import threading
import traceback
import urllib.parse

from harness import (DEFAULT_TIMEOUT_MS, FIRST_MOVE_JS, VIEWPORT, ScenarioFailure, launch_chromium, log, run_checks,
                     start_run, wait_until)

from playwright.sync_api import sync_playwright

BOARD = "playlist"
COLLECTION = "songs"
SONGS = [("s1", "Hey Jude", "The Beatles"), ("s2", "Dancing Queen", "ABBA"), ("s3", "Superstition", "Stevie Wonder"),
         ("s4", "Heroes", "David Bowie"), ("s5", "Respect", "Aretha Franklin")]

ORDER_JS = "() => [...document.querySelectorAll('#playlist > .cb-item[data-id]')].map(el => el.dataset.id)"
FOCUSED_JS = "() => document.activeElement?.dataset?.id ?? null"
# Someone else's slot: its name and its index among the songs, that someone's song left out.
REMOTE_SLOT_JS = """() => {
  const slot = document.querySelector('#playlist > .cb-remote-placeholder');
  if (!slot) return null;
  const rest = [...document.querySelectorAll('#playlist > .cb-item:not(.cb-held-by-other), #playlist > .cb-remote-placeholder')];
  return { name: slot.dataset.name, index: rest.indexOf(slot) };
}"""
HELD_JS = """() => [...document.querySelectorAll('#playlist > .cb-held-by-other')].map(el => [el.dataset.id, el.dataset.heldBy])"""


class StaticSite:
    """The example folder over HTTP on a port of its own: the second origin. Bounded by the
    script's watchdog; stopped at the end of the run."""

    def __init__(self, folder):
        self.folder = folder
        handler = functools.partial(QuietHandler, directory=folder)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


class Story:
    """Both pages and what the checks share."""

    def __init__(self, server, site, browser, recorder, output):
        self.server, self.site, self.browser, self.recorder, self.output = server, site, browser, recorder, output
        self.pages = {}

    def open(self, label, name):
        context = self.browser.new_context(viewport=VIEWPORT)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        page = context.new_page()
        self.recorder.attach(page, label)
        query = urllib.parse.urlencode({"server": self.server.origin, "board": BOARD, "collection": COLLECTION, "name": name})
        page.goto(f"{self.site.origin}/index.html?{query}")
        self.pages[label] = page
        return page

    def order(self, label):
        return self.pages[label].evaluate(ORDER_JS)

    def wait_order(self, label, expected, timeout=10.0):
        try:
            wait_until(f"page {label} shows {expected}", lambda: self.order(label) == expected, timeout)
        except ScenarioFailure as failure:
            raise ScenarioFailure(f"{failure}\n  page {label} shows {self.order(label)}")

    def wait_server(self, expected, timeout=10.0):
        def probe():
            seq, columns = self.server.board(BOARD)
            return seq if dict(columns)[COLLECTION] == expected else None
        try:
            return wait_until(f"GET /api/boards/{BOARD} has {expected}", probe, timeout)
        except ScenarioFailure as failure:
            raise ScenarioFailure(f"{failure}\n  the server has {self.server.board(BOARD)}")

    def song(self, label, song_id):
        return self.pages[label].locator(f'#playlist > .cb-item[data-id="{song_id}"]')

    def save_evidence(self, name):
        saved = []
        for label, page in self.pages.items():
            try:
                path = os.path.join(self.output, f"{name}-{label}.png")
                page.screenshot(path=path, timeout=5000)
                saved.append(path)
            except Exception:  # the evidence of a broken page is best effort
                pass
        return saved


def loads(story):
    expected = [song for song, _, _ in SONGS]
    for label, name in (("A", "Ada"), ("B", "Bob")):
        page = story.open(label, name)
        wait_until(f"page {label} is live (#status[data-state=live])",
                   lambda: page.get_attribute("#status", "data-state", timeout=2000) == "live")
        story.wait_order(label, expected)
    page_a = story.pages["A"]
    artist = page_a.text_content('#playlist > .cb-item[data-id="s3"] .artist')
    if artist != "Stevie Wonder":
        raise ScenarioFailure(f"page A's render() did not draw s3's data (artist): {artist!r}")
    wait_until("page A lists Bob as also here", lambda: "Bob" in (page_a.text_content("#people") or ""))


def pointer_reorder(story):
    page = story.pages["A"]
    source = story.song("A", "s1").bounding_box()
    x, y = source["x"] + source["width"] / 2, source["y"] + source["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for step in (2, 5, 9, 14):
        page.mouse.move(x + 1, y + step, steps=2)
    wait_until("page A lifted s1 (a .cb-placeholder and a .cb-drag-avatar)",
               lambda: page.locator(".cb-placeholder").count() == 1 and page.locator(".cb-drag-avatar").count() == 1,
               timeout=5)
    # Over the upper part of s4: s1 lands before it, at index 2 of the list without s1.
    target = story.song("A", "s4").bounding_box()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] * 0.3, steps=12)
    wait_until("page A's placeholder is right before s4",
               lambda: page.evaluate("() => document.querySelector('.cb-placeholder')?.nextElementSibling?.dataset.id") == "s4",
               timeout=5)
    # Page B sees who holds what and where it would land, while the drag is in progress.
    page_b = story.pages["B"]
    wait_until("page B shows s1 held by Ada", lambda: page_b.evaluate(HELD_JS) == [["s1", "Ada"]], timeout=5)
    wait_until("page B shows Ada's slot at index 2 (s1 left out)",
               lambda: page_b.evaluate(REMOTE_SLOT_JS) == {"name": "Ada", "index": 2}, timeout=5)
    page.mouse.up()
    expected = ["s2", "s3", "s1", "s4", "s5"]
    story.wait_order("A", expected)
    story.wait_server(expected)
    story.wait_order("B", expected)
    wait_until("page B no longer shows Ada's drag",
               lambda: page_b.evaluate(REMOTE_SLOT_JS) is None and page_b.evaluate(HELD_JS) == [], timeout=5)
    if page.locator(".cb-placeholder, .cb-drag-avatar").count():
        raise ScenarioFailure("page A kept a placeholder or an avatar after the drop")


def keyboard_reorder(story):
    page_a, page_b = story.pages["A"], story.pages["B"]
    story.song("A", "s5").focus()  # A's focus is on a song B is about to move
    story.song("B", "s5").focus()
    page_b.keyboard.press("Space")
    wait_until("page B lifted s5 (.cb-keyboard-lifted)",
               lambda: story.song("B", "s5").evaluate("el => el.classList.contains('cb-keyboard-lifted')"), timeout=5)
    for _ in range(4):
        page_b.keyboard.press("ArrowUp")
    wait_until("page A shows Bob's slot at the top", lambda: page_a.evaluate(REMOTE_SLOT_JS) == {"name": "Bob", "index": 0},
               timeout=5)
    if page_b.evaluate(FOCUSED_JS) != "s5":
        raise ScenarioFailure(f"page B's focus left the lifted song: {page_b.evaluate(FOCUSED_JS)!r}")
    page_b.keyboard.press("Space")
    expected = ["s5", "s2", "s3", "s1", "s4"]
    story.wait_order("B", expected)
    story.wait_server(expected)
    story.wait_order("A", expected)
    for label, page in (("A", page_a), ("B", page_b)):
        focused = page.evaluate(FOCUSED_JS)
        if focused != "s5":
            raise ScenarioFailure(f"page {label} lost the focus on s5 when it moved; the focus is on {focused!r}")


def keyboard_escape(story):
    page_b = story.pages["B"]
    seq_before, _ = story.server.board(BOARD)
    expected = story.order("B")
    story.song("B", "s2").focus()
    page_b.keyboard.press("Space")
    page_b.keyboard.press("ArrowDown")
    page_b.keyboard.press("ArrowDown")
    wait_until("page B carries s2 two places down", lambda: story.order("B")[3] == "s2", timeout=5)
    page_b.keyboard.press("Escape")
    story.wait_order("B", expected)
    wait_until("page A shows no drag of Bob's any more", lambda: story.pages["A"].evaluate(REMOTE_SLOT_JS) is None, timeout=5)
    seq_after, _ = story.server.board(BOARD)
    if seq_after != seq_before:
        raise ScenarioFailure(f"Escape sent a move: the board went from seq {seq_before} to {seq_after}")
    if page_b.evaluate(FOCUSED_JS) != "s2":
        raise ScenarioFailure(f"after Escape the focus is on {page_b.evaluate(FOCUSED_JS)!r}, not s2")


def remote_update(story):
    """Someone else (a bot, over HTTP) renames a song, deletes another and adds two: the pages
    draw the new title in the same element (render() called again), drop the deleted one, draw
    the new ones, and a page whose focus is on the renamed song keeps it."""
    page_a = story.pages["A"]
    order = story.order("A")
    renamed, deleted = order[1], order[-1]
    story.song("A", renamed).focus()
    story.song("A", renamed).evaluate("el => { el.__kept = true; }")
    seq, _ = story.server.board(BOARD)
    story.server.post_op(BOARD, {"type": "update", "opId": "bot-1", "baseSeq": seq, "item": renamed, "label": "Renamed live"})
    story.server.post_op(BOARD, {"type": "delete", "opId": "bot-2", "baseSeq": seq + 1, "items": [deleted]})
    added = [{"id": "s6", "label": "Jolene", "data": {"artist": "Dolly Parton"}},
             {"id": "s7", "label": "Waterloo Sunset", "data": {"artist": "The Kinks"}}]
    story.server.post_op(BOARD, {"type": "insert", "opId": "bot-3", "baseSeq": seq + 2, "items": added,
                                 "destination": {"collection": COLLECTION, "before": None}})
    expected = [i for i in order if i != deleted] + ["s6", "s7"]
    for label in ("A", "B"):
        story.wait_order(label, expected)
        wait_until(f"page {label} shows the new title of {renamed}",
                   lambda: story.song(label, renamed).locator(".title").evaluate("el => el.firstChild.textContent") == "Renamed live",
                   timeout=5)
    if not story.song("A", renamed).evaluate("el => el.__kept === true"):
        raise ScenarioFailure(f"page A replaced the element of {renamed} instead of rendering into it again")
    if page_a.evaluate(FOCUSED_JS) != renamed:
        raise ScenarioFailure(f"page A lost the focus on {renamed} when it was renamed: {page_a.evaluate(FOCUSED_JS)!r}")


# A second list bound on page B by hand (the module is the one the page loaded), changed by a
# bot, then destroyed: it must stop following the board and take its helpers away.
BIND_PROBE_JS = """async (server) => {
  const { connect, liveList } = await import(`${server}/sdk/corkboard.js`);
  const element = document.createElement('ul');
  element.id = 'probe';
  document.body.append(element);
  const live = connect({ url: server, board: 'playlist', name: 'Probe', storage: null });
  const helpers = () => document.querySelectorAll('[id^="cb-live-list-"]').length;
  const before = helpers();
  const list = liveList(element, { live, collection: 'songs', render: (item, li) => { li.textContent = item.label; } });
  window.__probe = { live, list, before, helpers };
}"""
PROBE_ORDER_JS = "() => [...document.querySelectorAll('#probe > li[data-id]')].map(el => el.dataset.id)"


def destroy(story):
    page_b = story.pages["B"]
    page_b.evaluate(BIND_PROBE_JS, story.server.origin)
    order = story.order("B")
    wait_until("the probe list shows the board", lambda: page_b.evaluate(PROBE_ORDER_JS) == order, timeout=10)
    page_b.evaluate("() => window.__probe.list.destroy()")
    if page_b.evaluate("() => window.__probe.helpers() !== window.__probe.before"):
        raise ScenarioFailure("destroy() left the list's live region or instructions in the page")
    if page_b.evaluate("() => document.querySelector('#probe').classList.contains('cb-list')"):
        raise ScenarioFailure("destroy() left cb-list on the element")
    seq, _ = story.server.board(BOARD)
    story.server.post_op(BOARD, {"type": "move", "opId": "bot-4", "baseSeq": seq, "sources": [order[0]],
                                 "destination": {"collection": COLLECTION, "before": None}})
    moved = order[1:] + order[:1]
    story.wait_order("B", moved)  # the page's own list follows; the destroyed one must not
    wait_until("the probe's live board has the move", lambda: page_b.evaluate(
        "() => window.__probe.live.board.collections[0].items.map(i => i.id)") == moved, timeout=5)
    if page_b.evaluate(PROBE_ORDER_JS) != order:
        raise ScenarioFailure(f"the destroyed list still follows the board: {page_b.evaluate(PROBE_ORDER_JS)}")
    page_b.evaluate("() => { window.__probe.live.close(); document.querySelector('#probe').remove(); }")


class Finger:
    """One finger on a touch screen page, through the DevTools protocol (as a phone's touch
    events reach the page: a swipe scrolls, unless the page takes the touch)."""

    def __init__(self, page):
        self.page = page
        self.session = page.context.new_cdp_session(page)

    def touch(self, kind, x=None, y=None):
        points = [] if x is None else [{"x": x, "y": y}]
        self.session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def slide(self, x, y, to_y, steps=10):
        for step in range(1, steps + 1):
            self.touch("touchMove", x, y + (to_y - y) * step / steps)


HOLD_MS = 250  # live-list.js's default holdDelay

def open_phone(story, label, name, handle=False):
    context = story.browser.new_context(viewport={"width": 390, "height": 440}, has_touch=True, is_mobile=True)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    phone = context.new_page()
    story.recorder.attach(phone, label)
    query = {"server": story.server.origin, "board": BOARD, "collection": COLLECTION, "name": name}
    if handle:
        query["handle"] = "1"
    phone.goto(f"{story.site.origin}/index.html?{urllib.parse.urlencode(query)}")
    story.pages[label] = phone
    story.wait_order(label, story.order("A"))
    return phone


def touch(story):
    page_a = story.pages["A"]
    phone = open_phone(story, "phone", "Cleo")
    expected = story.order("A")
    seq_before, _ = story.server.board(BOARD)
    finger = Finger(phone)
    phone.evaluate(FIRST_MOVE_JS)
    # A swipe up that starts on a song scrolls the page and moves nothing. A swipe whose first
    # move reached the page after the hold time was a hold (FIRST_MOVE_JS): it proves nothing,
    # and is made again once the pages agree (three tries).
    for attempt in range(1, 4):
        box = story.song("phone", expected[2]).bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        finger.touch("touchStart", x, y)
        finger.slide(x, y, y - 150)
        finger.touch("touchEnd")
        first_move = phone.evaluate("() => window.__firstMove")
        if first_move is None or first_move < HOLD_MS:
            break
        if attempt == 3:
            raise ScenarioFailure(f"in three tries the swipe's first move never reached the page within the hold time ({HOLD_MS} ms)")
        phone.wait_for_timeout(500)
        phone.evaluate("() => window.scrollTo(0, 0)")
        expected = story.order("phone")
        story.wait_order("A", expected)
        seq_before, _ = story.server.board(BOARD)
    wait_until("the phone's page scrolled with the swipe", lambda: phone.evaluate("() => window.scrollY") > 0, timeout=5)
    if phone.locator(".cb-placeholder, .cb-drag-avatar").count() or story.order("phone") != expected:
        raise ScenarioFailure(f"a swipe picked a song up: placeholders {phone.locator('.cb-placeholder').count()}, "
                              f"order {story.order('phone')}")
    if page_a.evaluate(HELD_JS):
        raise ScenarioFailure(f"a swipe on the phone started a drag that page A sees: {page_a.evaluate(HELD_JS)}")
    # Press and hold lifts the song (no move needed), then the finger carries it before the fourth
    # song (inside the window, away from the edge where the page would scroll under the finger).
    phone.evaluate("() => window.scrollTo(0, 0)")
    wait_until("the phone's page is back at the top", lambda: phone.evaluate("() => window.scrollY") == 0, timeout=5)
    song, last = expected[1], expected[3]
    box = story.song("phone", song).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    finger.touch("touchStart", x, y)
    wait_until(f"a press-and-hold on {song} lifted it (.cb-placeholder)", lambda: phone.locator(".cb-placeholder").count() == 1,
               timeout=5)
    wait_until(f"page A shows {song} held by Cleo", lambda: page_a.evaluate(HELD_JS) == [[song, "Cleo"]], timeout=5)
    target = story.song("phone", last).bounding_box()
    finger.slide(x, y, target["y"] + target["height"] * 0.3)
    wait_until(f"the phone's placeholder is right before {last}",
               lambda: phone.evaluate("() => document.querySelector('.cb-placeholder')?.nextElementSibling?.dataset.id") == last,
               timeout=5)
    finger.touch("touchEnd")
    moved = [i for i in expected if i != song]
    moved.insert(moved.index(last), song)
    story.wait_order("phone", moved)
    seq_after = story.wait_server(moved)
    story.wait_order("A", moved)
    if seq_after != seq_before + 1:
        raise ScenarioFailure(f"the swipe and the hold made {seq_after - seq_before} changes; one move was expected")


def touch_handle(story):
    """With a handle, a touch on it drags at once (no hold); elsewhere on the song it scrolls."""
    phone = open_phone(story, "phone-handle", "Dev", handle=True)
    expected = story.order("A")
    song, before = expected[0], expected[2]
    grip = story.song("phone-handle", song).locator(".grip").bounding_box()
    x, y = grip["x"] + grip["width"] / 2, grip["y"] + grip["height"] / 2
    target = story.song("phone-handle", before).bounding_box()
    finger = Finger(phone)
    finger.touch("touchStart", x, y)
    finger.slide(x, y, target["y"] + target["height"] * 0.3)
    wait_until(f"the handle's placeholder is right before {before}",
               lambda: phone.evaluate("() => document.querySelector('.cb-placeholder')?.nextElementSibling?.dataset.id") == before,
               timeout=5)
    finger.touch("touchEnd")
    moved = [i for i in expected if i != song]
    moved.insert(moved.index(before), song)
    story.wait_order("phone-handle", moved)
    story.wait_server(moved)
    story.wait_order("A", moved)


def where(error):
    """The lines of this script and the harness the error came through, innermost first."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.endswith(("embed.py", "harness.py"))]
    return "\n  at " + " <- ".join(f"{os.path.basename(f.filename)}:{f.lineno} {f.name}" for f in reversed(frames[-4:])) if frames else ""


def autoscroll_escape(story):
    """In a short window, a song held near the bottom edge scrolls the page by itself; Escape
    then puts it back and sends no move."""
    page = story.pages["A"]
    page.set_viewport_size({"width": 1280, "height": 300})
    try:
        page.evaluate("() => window.scrollTo(0, 0)")
        expected = story.order("A")
        seq_before, _ = story.server.board(BOARD)
        box = story.song("A", expected[0]).bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x, 290, steps=8)
        wait_until("the page scrolls by itself while the song is held near the bottom edge",
                   lambda: page.evaluate("() => window.scrollY") > 40, timeout=5)
        page.keyboard.press("Escape")
        page.mouse.up()
        if page.locator(".cb-placeholder, .cb-drag-avatar").count():
            raise ScenarioFailure("Escape left a placeholder or an avatar")
        story.wait_order("A", expected)
        wait_until("page B shows no drag any more", lambda: story.pages["B"].evaluate(HELD_JS) == [], timeout=5)
        seq_after, _ = story.server.board(BOARD)
        if seq_after != seq_before:
            raise ScenarioFailure(f"Escape during a pointer drag sent a move: seq {seq_before} -> {seq_after}")
    finally:
        page.set_viewport_size(VIEWPORT)


def unlisted_origin(story):
    """The example served from a third origin, which --allowed-origins does not list: its socket
    fails at the handshake (403), which the browser tells the page only as a failed connection;
    the SDK asks the server's GET /api and the page says why, instead of "Connecting…" for ever.
    The refused handshake's console error is expected here, so this page is not recorded."""
    other = StaticSite(story.site.folder)
    try:
        context = story.browser.new_context(viewport=VIEWPORT)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        page = context.new_page()
        query = urllib.parse.urlencode({"server": story.server.origin, "board": BOARD, "collection": COLLECTION, "name": "Eve"})
        page.goto(f"{other.origin}/index.html?{query}")
        wait_until("the unlisted page is refused (#status[data-state=refused])",
                   lambda: page.get_attribute("#status", "data-state", timeout=2000) == "refused", 15)
        said = page.text_content("#status") or ""
        if other.origin not in said or "--allowed-origins" not in said:
            raise ScenarioFailure(f"the refused page does not say its origin is not allowed: {said!r}")
        context.close()
    finally:
        other.stop()


CHECKS = [("loads", loads), ("pointer-reorder", pointer_reorder), ("keyboard-reorder", keyboard_reorder),
          ("keyboard-escape", keyboard_escape), ("remote-update", remote_update), ("destroy", destroy), ("touch", touch),
          ("touch-handle", touch_handle), ("autoscroll-escape", autoscroll_escape), ("unlisted-origin", unlisted_origin)]


def main():
    args, recorder, server, summary = start_run(extra_arguments=[("--example", None)])
    results = summary.results
    site = StaticSite(args.example)
    try:
        # Only the example's origin may use the server from a browser.
        server.start(options=["--no-demo", "--allowed-origins", site.origin])
        log(f"corkboard serve at {server.origin}, the example at {site.origin}")
        status, answer = server.http("POST", "/api/boards", {
            "id": BOARD, "title": "Friday night",
            "collections": [{"id": COLLECTION, "title": "Playlist",
                             "items": [{"id": i, "label": t, "data": {"artist": a}} for i, t, a in SONGS]}]})
        if status != 201:
            raise ScenarioFailure(f"POST /api/boards: {status} {answer}")
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            story = Story(server, site, browser, recorder, args.output)
            run_checks(CHECKS, story, recorder, results, evidence=story.save_evidence, where=where)
            browser.close()
        server.stop()
    except Exception as error:
        traceback.print_exc()
        server.kill()
        summary.timer.cancel()
        site.stop()
        return summary.finish(2, f"the run broke: {type(error).__name__}: {error}\n{server.tail()}")
    summary.timer.cancel()
    site.stop()
    return summary.finish(0 if all(r["passed"] for r in results) else 1)


if __name__ == "__main__":
    sys.exit(main())
