"""The browser client's scenarios, in Debian's headless Chromium driven by Playwright, against a
real `corkboard serve` this script starts (and restarts) itself.

    python3 scenarios.py --corkboard BIN --web-root WEB --data DIR --output DIR [--only a,b]

Prints progress, writes OUTPUT/summary.json ({"scenarios": [{"name", "passed", "seconds",
"message"}], ...}) and ends with one line `BROWSER-SUMMARY <json>`. Exit status 0 when every
scenario passed, 1 when one failed, 2 when the run itself broke, 3 on the watchdog.
Written against the DOM contract of the client (see README.md)."""

import base64
import hashlib
import hmac
import json
import os
import re
import sys
import time
import traceback

from harness import (CHROMIUM, DEFAULT_TIMEOUT_MS, FIRST_MOVE_JS, PHONE, VIEWPORT, Recorder, ScenarioFailure,
                     launch_chromium, log, short_traceback, start_run, wait_until)

from playwright.sync_api import sync_playwright

SCENARIOS = []


def scenario(name):
    def register(function):
        SCENARIOS.append((name, function))
        return function
    return register


# ---------------------------------------------------------------------------------------------
# The page as the DOM contract describes it

BOARD_STATE_JS = """() => [...document.querySelectorAll('section.column[data-collection-id]')].map(column =>
  [column.dataset.collectionId,
   [...column.querySelectorAll('ol.cards > li.card[data-item-id]')].map(card => card.dataset.itemId)])"""

# Index of my placeholder among the cards of a column, my lifted card(s) left out (as drag.over counts).
PLACEHOLDER_INDEX_JS = """(column) => {
  const list = document.querySelector(`section.column[data-collection-id="${column}"] ol.cards`);
  if (!list) return null;
  const slots = [...list.children].filter(el => el.matches('li.placeholder') ||
    (el.matches('li.card[data-item-id]') && !el.classList.contains('lifted')));
  return slots.findIndex(el => el.matches('li.placeholder'));
}"""

# Index of someone's ghost among the cards of a column, the cards that someone holds left out.
GHOST_INDEX_JS = """([column, client]) => {
  const list = document.querySelector(`section.column[data-collection-id="${column}"] ol.cards`);
  if (!list) return null;
  const slots = [...list.children].filter(el => el.matches('li.ghost-slot') ||
    (el.matches('li.card[data-item-id]') && el.dataset.heldBy !== client));
  return slots.findIndex(el => el.matches(`li.ghost-slot[data-client="${client}"]`));
}"""

RECORD_ANNOUNCEMENTS_JS = """() => {
  const region = document.querySelector('#announcer');
  if (!region) return null;
  window.__announcements = [];
  new MutationObserver(() => {
    const text = region.textContent.trim();
    if (text) window.__announcements.push(text);
  }).observe(region, {childList: true, characterData: true, subtree: true});
  return region.getAttribute('aria-live');
}"""

RECORD_CONNECTION_STATES_JS = """() => {
  const state = () => document.querySelector('#connection')?.dataset.state ?? '(no #connection)';
  window.__states = [state()];
  new MutationObserver(() => {
    const now = state();
    if (window.__states[window.__states.length - 1] !== now) window.__states.push(now);
  }).observe(document.documentElement, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-state']});
}"""

# Everything that ever looked lifted or like my own placeholder, from now on.
RECORD_LIFTS_JS = """() => {
  window.__lifts = [];
  const check = () => {
    for (const el of document.querySelectorAll('.lifted, li.placeholder')) {
      const what = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}` + (el.dataset.itemId ? `[${el.dataset.itemId}]` : '');
      if (!window.__lifts.includes(what)) window.__lifts.push(what);
    }
  };
  check();
  new MutationObserver(check).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['class']});
}"""


def card(page, item_id):
    return page.locator(f'section.column ol.cards > li.card[data-item-id="{item_id}"]')


def column_list(page, collection_id):
    return page.locator(f'section.column[data-collection-id="{collection_id}"] ol.cards')


def board_state(page):
    return [(c, items) for c, items in page.evaluate(BOARD_STATE_JS)]


def page_seq(page):
    return page.get_attribute("#board", "data-seq", timeout=2000)


def connection_state(page):
    return page.get_attribute("#connection", "data-state", timeout=2000)


def wait_board(page, label, expected, seq=None, timeout=10.0):
    """Waits until the page shows exactly `expected` ([(collection, [items])]) and, if given, `seq`."""
    def probe():
        shown = board_state(page)
        if shown != expected:
            return None
        return seq is None or page_seq(page) == str(seq)
    try:
        wait_until(f"page {label} shows the board {expected}" + (f" at seq {seq}" if seq is not None else ""),
                   probe, timeout)
    except ScenarioFailure as failure:
        raise ScenarioFailure(f"{failure}\n  page {label} shows {board_state(page)}, #board[data-seq]={page_seq(page)!r}")


def wait_server_board(run, board_id, expected, timeout=10.0):
    def probe():
        seq, shown = run.server.board(board_id)
        return seq if shown == expected else None
    try:
        return wait_until(f"the server's board {board_id} is {expected}", probe, timeout)
    except ScenarioFailure as failure:
        raise ScenarioFailure(f"{failure}\n  the server has {run.server.board(board_id)}")


def count(page, selector):
    return page.locator(selector).count()


def pointer_pick_up(page, item_id):
    """Mouse down on the card, then moves in small steps (more than the 4 px threshold);
    returns where the pointer is. Waits for the card to be `.lifted`."""
    target = card(page, item_id)
    target.wait_for(state="visible")
    box = target.bounding_box()
    x, y = box["x"] + box["width"] * 0.3, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for dx, dy in ((2, 1), (5, 3), (9, 6), (14, 10)):
        page.mouse.move(x + dx, y + dy, steps=2)
    wait_until(f"the pointer drag of {item_id} started (li.card[data-item-id={item_id}].lifted after the pointer "
               "moved 17 px with the button down)",
               lambda: count(page, f'li.card.lifted[data-item-id="{item_id}"]') > 0, timeout=5)


def pointer_move_before(page, collection_id, before_item):
    """Moves the pointer, in steps, over the upper quarter of `before_item` in that column."""
    target = column_list(page, collection_id).locator(f'li.card[data-item-id="{before_item}"]')
    box = target.bounding_box()
    if box is None:
        raise ScenarioFailure(f"no card {before_item} in column {collection_id} to drag over")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.25, steps=15)


def wait_placeholder(page, collection_id, index, timeout=5.0):
    try:
        wait_until(f"my li.placeholder is at index {index} of column {collection_id}",
                   lambda: page.evaluate(PLACEHOLDER_INDEX_JS, collection_id) == index, timeout)
    except ScenarioFailure as failure:
        raise ScenarioFailure(f"{failure}\n  placeholder index there: {page.evaluate(PLACEHOLDER_INDEX_JS, collection_id)}, "
                              f"li.placeholder count on the page: {count(page, 'li.placeholder')}")


def standard_columns():
    return [("todo", "To do", [("t1", "Write the tests"), ("t2", "Review the client"), ("t3", "Fix the bugs")]),
            ("doing", "Doing", [("d1", "Drag me around"), ("d2", "Reorder me")]),
            ("done", "Done", [("x1", "Start the server")])]


def as_state(columns):
    return [(c, [i for i, _ in items]) for c, _, items in columns]


def moved(state, item, collection, before):
    """The state after moving `item` into `collection` before `before` (None: the end)."""
    out = [(c, [i for i in items if i != item]) for c, items in state]
    for c, items in out:
        if c == collection:
            items.insert(items.index(before) if before else len(items), item)
    return out


# ---------------------------------------------------------------------------------------------
# The run


class Run:
    def __init__(self, args, server, recorder, browser):
        self.args, self.server, self.recorder, self.browser = args, server, recorder, browser
        self.pages = []  # (label, page) of the current scenario
        self.contexts = []
        self.boards = 0

    def new_page(self, label, device=None):
        """A page in a context of its own; `device` are context options instead of the desktop
        viewport (PHONE: a touch screen)."""
        context = self.browser.new_context(**(device or {"viewport": VIEWPORT}))
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        context.set_default_navigation_timeout(DEFAULT_TIMEOUT_MS)
        page = context.new_page()
        self.recorder.attach(page, label)
        self.contexts.append(context)
        self.pages.append((label, page))
        return page

    def new_board(self, prefix, columns=None):
        self.boards += 1
        board_id = f"{prefix}-{self.boards}"
        self.server.create_board(board_id, f"{prefix} {self.boards}", columns or standard_columns())
        return board_id

    def open_board(self, label, board_id, name, device=None, prepare=None):
        """Opens /b/{board_id} as `name` and waits until it is live; `prepare(page)` runs before
        the page loads (a clock to install, a WebSocket route)."""
        page = self.new_page(label, device)
        if prepare:
            prepare(page)
        response = page.goto(f"{self.server.origin}/b/{board_id}?name={name}")
        if response is None or response.status != 200:
            raise ScenarioFailure(f"GET /b/{board_id} answered {response.status if response else 'nothing'}")
        wait_until(f"page {label} is ready (body[data-ready=\"true\"])",
                   lambda: page.get_attribute("body", "data-ready", timeout=2000) == "true")
        wait_until(f"page {label} is connected (#connection[data-state=\"connected\"])",
                   lambda: connection_state(page) == "connected")
        shown = page.get_attribute("#board", "data-board-id")
        if shown != board_id:
            raise ScenarioFailure(f"page {label}: #board[data-board-id] is {shown!r}, not {board_id!r}")
        return page

    def restart_server(self, options=()):
        """Stops the server (if it runs) and starts it again on its port with `options` besides
        the usual ones; the moments it is down are an expected outage for the recorder."""
        port = self.server.port
        self.recorder.begin_outage(self.server.origin)
        if self.server.running():
            self.server.stop()
        self.server.start(port=port, options=options)
        self.recorder.end_outage()

    def close_pages(self):
        for context in self.contexts:
            try:
                context.close()
            except Exception:
                pass
        self.contexts, self.pages = [], []

    def save_evidence(self, name):
        """Screenshots and the DOM of every page of a failed scenario."""
        folder = os.path.join(self.args.output, "failures")
        os.makedirs(folder, exist_ok=True)
        saved = []
        for label, page in self.pages:
            base = os.path.join(folder, f"{name}-{label}")
            try:
                page.screenshot(path=base + ".png", full_page=True, timeout=5000)
                saved.append(base + ".png")
                with open(base + ".html", "w", encoding="utf-8") as file:
                    file.write(page.content())
                saved.append(base + ".html")
            except Exception as error:
                saved.append(f"({label}: no evidence: {error})")
        return saved


# ---------------------------------------------------------------------------------------------
# Scenarios


@scenario("smoke")
def smoke(run):
    """The plumbing: Chromium loads /healthz from the server."""
    page = run.new_page("A")
    response = page.goto(run.server.origin + "/healthz")
    if response is None or response.status != 200:
        raise ScenarioFailure(f"GET /healthz in Chromium answered {response.status if response else 'nothing'}")
    body = json.loads(page.evaluate("() => document.body.innerText"))
    if body != {"status": "ok"}:
        raise ScenarioFailure(f"/healthz showed {body}")
    return f"Chromium {run.browser.version} read /healthz"


@scenario("board-list")
def board_list(run):
    """`/` lists every board, past the API's first page of 100 (it follows `next`); its form creates
    a board with To do/Doing/Done and opens /b/{id}."""
    many = [f"many-{n:03}" for n in range(150)]
    for board in many:
        status, created = run.server.http("POST", "/api/boards", {"id": board, "title": f"Many {board}", "collections": []})
        if status != 201:
            raise ScenarioFailure(f"POST /api/boards {board}: {status} {created}")
    listed_boards, cursor = [], None
    while True:
        status, listed = run.server.http("GET", "/api/boards" + (f"?cursor={cursor}" if cursor else ""))
        listed_boards += listed["boards"]
        cursor = listed.get("next")
        if not cursor:
            break
    expected = sorted((f"/b/{b['id']}", b["title"]) for b in listed_boards)
    if len(expected) < 151:
        raise ScenarioFailure(f"the API lists {len(expected)} boards, not the 150 made and the demo")
    if ("/b/demo", "Demo") not in expected:
        raise ScenarioFailure(f"the server has no demo board: {listed}")
    page = run.new_page("A")
    page.goto(run.server.origin + "/")
    links_js = """() => [...document.querySelectorAll('#board-list a[href^="/b/"]')]
                          .map(a => [a.getAttribute('href'), a.textContent.trim()])"""

    def lists(boards):
        """Each board once, by its /b/{id} link, the link's text holding the board's title."""
        links = page.evaluate(links_js)
        if sorted(href for href, _ in links) != sorted(href for href, _ in boards):
            return False
        return all(title in text for href, text in links for h, title in boards if h == href)

    try:
        wait_until(f"#board-list has one a[href^=\"/b/\"] per board, its text holding the title: {expected}",
                   lambda: lists(expected), timeout=10)
    except ScenarioFailure as failure:
        raise ScenarioFailure(f"{failure}\n  the links: {page.evaluate(links_js)}")

    form = page.locator("#new-board-form")
    form.locator("input[name=id]").fill("made-in-browser")
    form.locator("input[name=title]").fill("Made in the browser")
    form.locator("button[type=submit], input[type=submit], button:not([type])").first.click()
    page.wait_for_url(f"{run.server.origin}/b/made-in-browser*")
    wait_until('the new board is ready (body[data-ready="true"])',
               lambda: page.get_attribute("body", "data-ready", timeout=2000) == "true")
    titles = page.locator("section.column .column-title").all_inner_texts()
    if [t.strip() for t in titles] != ["To do", "Doing", "Done"]:
        raise ScenarioFailure(f"the new board's columns are {titles}, not To do, Doing, Done")
    status, board = run.server.http("GET", "/api/boards/made-in-browser")
    if status != 200 or board.get("title") != "Made in the browser":
        raise ScenarioFailure(f"GET /api/boards/made-in-browser: {status} {board}")
    if page.get_attribute("#board", "data-board-id") != "made-in-browser":
        raise ScenarioFailure("#board[data-board-id] is not made-in-browser")

    page.goto(run.server.origin + "/")
    wait_until("the list shows the new board",
               lambda: lists(expected + [("/b/made-in-browser", "Made in the browser")]))
    # The other scenarios share this server: it is left with the boards it had, and the one made here.
    for board in many:
        status, _ = run.server.http("DELETE", f"/api/boards/{board}")
        if status != 204:
            raise ScenarioFailure(f"DELETE /api/boards/{board}: {status}")
    return f"listed {len(expected)} board(s); created made-in-browser from the form"


@scenario("presence")
def presence(run):
    """#presence lists who is on the board, and drops who leaves."""
    board_id = run.new_board("presence")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    names_js = "() => [...document.querySelectorAll('#presence li[data-client]')].map(li => li.textContent.trim())"
    for label, page in (("A", a), ("B", b)):
        wait_until(f"#presence on page {label} names Ada and Bob",
                   lambda page=page: all(any(n in text for text in page.evaluate(names_js)) for n in ("Ada", "Bob")))
    b.context.close()
    wait_until("#presence on page A no longer names Bob once B left",
               lambda: not any("Bob" in text for text in a.evaluate(names_js)))
    return "both named on both pages; Bob gone after he left"


@scenario("pointer-drag")
def pointer_drag(run):
    """A pointer drag in page A moves the card in page B; page A's focus ends on the card."""
    board_id = run.new_board("pointer")
    start = as_state(standard_columns())
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    pointer_pick_up(a, "t2")
    pointer_move_before(a, "doing", "d2")
    wait_placeholder(a, "doing", 1)
    a.mouse.up()
    expected = moved(start, "t2", "doing", "d2")
    seq = wait_server_board(run, board_id, expected)
    wait_board(a, "A", expected, seq)
    wait_until("page A has no .lifted card and no li.placeholder after the drop",
               lambda: count(a, ".lifted") == 0 and count(a, "li.placeholder") == 0)
    # Keyboard use goes on from the dropped card: focus is on it once it has landed.
    wait_until("page A's focus is on t2 once it landed",
               lambda: a.evaluate("() => document.activeElement?.dataset?.itemId ?? document.activeElement?.tagName") == "t2",
               timeout=3)
    wait_board(b, "B", expected, seq)
    return f"t2 dropped before d2 in page A (focus on it); page B shows it at seq {seq}"


def hold_in_a(run, board_id):
    """Pages A (Ada) and B (Bob); A holds t1 over `done` before x1 without releasing. Returns
    (a, b, holder client id as B shows it)."""
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    pointer_pick_up(a, "t1")
    pointer_move_before(a, "done", "x1")
    wait_placeholder(a, "done", 0)
    held = b.locator('li.card.held[data-item-id="t1"][data-held-by]')
    try:
        held.wait_for(state="attached", timeout=5000)
    except Exception:
        raise ScenarioFailure("page B never marked t1 as held (li.card.held[data-item-id=t1][data-held-by]) while A "
                              f"holds it; t1 in B: {card(b, 't1').evaluate('el => el.outerHTML')}")
    holder = held.get_attribute("data-held-by")
    return a, b, holder


@scenario("held-while-dragging")
def held_while_dragging(run):
    """While A holds a card, B shows A's name on it and A's ghost where A would drop it, and
    B cannot grab it."""
    board_id = run.new_board("held")
    a, b, holder = hold_in_a(run, board_id)
    badge = card(b, "t1").locator(".held-badge")
    wait_until("the held badge on t1 in page B says Ada", lambda: "Ada" in badge.inner_text(timeout=2000))
    # The held card's text keeps its width (as its unheld neighbour's), so it does not re-wrap.
    widths = b.evaluate("""() => ['t1', 't2'].map(id =>
      document.querySelector(`li.card[data-item-id="${id}"] .card-label`).getBoundingClientRect().width)""")
    if abs(widths[0] - widths[1]) > 0.5:
        raise ScenarioFailure(f"the held card's text is {widths[0]:.1f} px wide in page B, its neighbour's {widths[1]:.1f} px: "
                              "it re-wraps while held")
    ghost = column_list(b, "done").locator(f'li.ghost-slot[data-client="{holder}"]')
    wait_until(f'page B shows li.ghost-slot[data-client="{holder}"] in column done',
               lambda: ghost.count() == 1, timeout=5)
    wait_until("the ghost in page B names Ada", lambda: "Ada" in ghost.inner_text(timeout=2000))
    wait_until("the ghost in page B is where A's placeholder is (index 0 of done)",
               lambda: b.evaluate(GHOST_INDEX_JS, ["done", holder]) == 0, timeout=5)
    if count(b, "li.ghost-slot") != 1:
        raise ScenarioFailure(f"page B shows {count(b, 'li.ghost-slot')} ghosts, expected 1")

    # B tries to grab it.
    b.evaluate(RECORD_LIFTS_JS)
    notice_before = b.locator("#notice").inner_text(timeout=2000).strip() if count(b, "#notice") else None
    if notice_before is None:
        raise ScenarioFailure("page B has no #notice")
    box = card(b, "t1").bounding_box()
    x, y = box["x"] + box["width"] * 0.3, box["y"] + box["height"] / 2
    b.mouse.move(x, y)
    b.mouse.down()
    for dx, dy in ((2, 1), (5, 3), (9, 6), (14, 10), (30, 20), (60, 30)):
        b.mouse.move(x + dx, y + dy, steps=2)
    notice = wait_until("page B shows a #notice after trying to grab the card A holds",
                        lambda: b.locator("#notice").is_visible() and b.locator("#notice").inner_text().strip(),
                        timeout=5)
    time.sleep(0.5)
    lifts = b.evaluate("() => window.__lifts")
    b.mouse.up()
    if lifts:
        raise ScenarioFailure(f"page B lifted something while trying to grab a held card: {lifts}")
    if count(a, 'li.card.lifted[data-item-id="t1"]') != 1 or a.evaluate(PLACEHOLDER_INDEX_JS, "done") != 0:
        raise ScenarioFailure("page A lost its hold when B tried to grab the card")
    if count(b, 'li.card.held[data-item-id="t1"]') != 1:
        raise ScenarioFailure("page B no longer shows t1 held after its failed grab")

    # And with the keyboard: Space on the held card lifts nothing and tells B why.
    b.evaluate(RECORD_LIFTS_JS)
    b.evaluate(RECORD_ANNOUNCEMENTS_JS)
    card(b, "t1").focus()
    b.keyboard.press("Space")
    wait_until("page B tells why Space on a held card did nothing (a #notice or an #announcer announcement)",
               lambda: announcements(b) or (b.locator("#notice").is_visible() and b.locator("#notice").inner_text().strip()),
               timeout=5)
    time.sleep(0.3)
    lifts = b.evaluate("() => window.__lifts")
    if lifts:
        raise ScenarioFailure(f"page B lifted something after Space on a held card: {lifts}")
    b.keyboard.press("Escape")

    seq, shown = run.server.board(board_id)
    if seq != 0:
        raise ScenarioFailure(f"the board changed (seq {seq}) though nothing was dropped: {shown}")
    if count(a, 'li.card.lifted[data-item-id="t1"]') != 1:
        raise ScenarioFailure("page A lost its hold when B pressed Space on the card")

    run.save_screenshot(b, "held-B")
    a.keyboard.press("Escape")
    a.mouse.up()
    return (f"B saw Ada's badge and ghost (client {holder}); B's pointer grab showed the notice {notice!r} and lifted "
            f"nothing; Space lifted nothing (announced {announcements(b)})")


BADGE_COLORS_JS = """(id) => {
  const badge = document.querySelector(`li.card[data-item-id="${id}"] .held-badge`);
  const style = getComputedStyle(badge);
  return [style.color, style.backgroundColor, getComputedStyle(badge.closest('li.card')).opacity];
}"""


def css_luminance(css):
    """WCAG 2's relative luminance of a computed `rgb(r, g, b)` colour."""
    channels = [int(v) / 255 for v in re.findall(r"[\d.]+", css)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


@scenario("ghost-shows-count")
def ghost_shows_count(run):
    """A drags four selected cards: B's ghost of it says "Ada · 4 cards" and stands taller than a
    one-card ghost (issue #32's item 11: it was one card tall, with no count); the held cards'
    badge reads at 4.5:1 or more on the card as B sees it (defect 9)."""
    columns = [("todo", "To do", [(f"t{n}", f"Card {n}") for n in range(1, 6)]),
               ("doing", "Doing", [("d1", "Drag me around")]), ("done", "Done", [("x1", "Start the server")])]
    board_id = run.new_board("ghost-count", columns)
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    for item in ("t1", "t2", "t3", "t4"):
        card(a, item).click(modifiers=["Control"])
    wait_until("page A selects t1…t4", lambda: count(a, "li.card.selected") == 4, timeout=3)
    pointer_pick_up(a, "t1")
    try:
        pointer_move_before(a, "done", "x1")
        wait_placeholder(a, "done", 0)
        ghost = column_list(b, "done").locator("li.ghost-slot")
        wait_until("page B shows A's ghost in Done", lambda: ghost.count() == 1, timeout=5)
        wait_until("B's ghost counts the 4 cards", lambda: "4 cards" in ghost.inner_text(timeout=2000), timeout=5)
        text = ghost.inner_text().strip()
        height = ghost.bounding_box()["height"]
        one = card(b, "x1").bounding_box()["height"]
        if height < 1.8 * one:
            raise ScenarioFailure(f"B's ghost of 4 cards is {height:.0f} px tall, a card {one:.0f} px: it looks like one card")
        wait_until("B marks t1 held", lambda: count(b, 'li.card.held[data-item-id="t1"] .held-badge') == 1, timeout=5)
        ink, background, opacity = b.evaluate(BADGE_COLORS_JS, "t1")
        lighter, darker = sorted((css_luminance(ink), css_luminance(background)), reverse=True)
        ratio = (lighter + 0.05) / (darker + 0.05)
        if ratio < 4.5 or opacity != "1":
            raise ScenarioFailure(f"the held badge is {ink} on {background} ({ratio:.2f}:1), the card at opacity {opacity}")
    finally:
        a.mouse.up()
    no_page_problems(run)
    return f"B's ghost says {text!r}, {height:.0f} px tall (a card: {one:.0f} px); badge {ratio:.2f}:1"


@scenario("escape-cancels")
def escape_cancels(run):
    """Escape in A cancels its drag: the card is back in A, B's marks clear, nothing moves."""
    board_id = run.new_board("escape")
    start = as_state(standard_columns())
    a, b, holder = hold_in_a(run, board_id)
    wait_until("page B shows A's ghost before the cancel", lambda: count(b, "li.ghost-slot") == 1, timeout=5)
    a.keyboard.press("Escape")
    wait_until("page A has no .lifted card and no li.placeholder after Escape",
               lambda: count(a, ".lifted") == 0 and count(a, "li.placeholder") == 0, timeout=5)
    wait_board(a, "A", start)
    wait_until("page B has no held card and no ghost after A's Escape",
               lambda: count(b, "li.card.held") == 0 and count(b, ".held-badge") == 0 and count(b, "li.ghost-slot") == 0,
               timeout=5)
    a.mouse.up()  # releasing after the cancel drops nothing
    time.sleep(0.5)
    seq, shown = run.server.board(board_id)
    if seq != 0 or shown != start:
        raise ScenarioFailure(f"the board changed after a cancelled drag: seq {seq}, {shown}")
    wait_board(a, "A", start, 0)
    wait_board(b, "B", start, 0)
    if count(a, ".lifted") or count(a, "li.placeholder"):
        raise ScenarioFailure("page A shows a lifted card or a placeholder again after releasing the mouse")
    return "t1 back in todo in A; B's badge and ghost cleared; releasing afterwards moved nothing"


def announcements(page):
    return page.evaluate("() => window.__announcements || []")


def press_and_hear(page, key, heard_before, what):
    page.keyboard.press(key)
    wait_until(f"#announcer announces something after {what}",
               lambda: len(announcements(page)) > heard_before, timeout=5)
    return len(announcements(page))


@scenario("keyboard-move")
def keyboard_move(run):
    """Focus a card, Space, ArrowDown, Space: announced in #announcer, and B sees the move."""
    board_id = run.new_board("keyboard")
    start = as_state(standard_columns())
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    live = a.evaluate(RECORD_ANNOUNCEMENTS_JS)
    if live != "polite":
        raise ScenarioFailure(f"#announcer has aria-live={live!r}, not \"polite\"" if live is not None else "no #announcer")
    if card(a, "t1").get_attribute("tabindex") != "0":
        raise ScenarioFailure("li.card has no tabindex=0")
    card(a, "t1").focus()
    heard = press_and_hear(a, "Space", 0, "Space (pick up)")
    wait_until("t1 is .lifted after Space", lambda: count(a, 'li.card.lifted[data-item-id="t1"]') == 1, timeout=5)
    heard = press_and_hear(a, "ArrowDown", heard, "ArrowDown")
    heard = press_and_hear(a, "Space", heard, "Space (drop)")
    expected = moved(start, "t1", "todo", "t3")
    seq = wait_server_board(run, board_id, expected)
    wait_board(a, "A", expected, seq)
    wait_board(b, "B", expected, seq)
    if count(a, ".lifted"):
        raise ScenarioFailure("page A still shows a lifted card after the keyboard drop")
    said = announcements(a)
    if not any("Write the tests" in text for text in said):
        raise ScenarioFailure(f"no announcement names the card (\"Write the tests\"): {said}")
    return f"announced: {said}"


@scenario("keyboard-across-and-escape")
def keyboard_across_and_escape(run):
    """ArrowRight carries a card to the next column; Escape cancels a keyboard move."""
    board_id = run.new_board("keys")
    start = as_state(standard_columns())
    a = run.open_board("A", board_id, "Ada")
    a.evaluate(RECORD_ANNOUNCEMENTS_JS)
    card(a, "t2").focus()
    heard = press_and_hear(a, "Space", 0, "Space (pick up)")
    heard = press_and_hear(a, "ArrowDown", heard, "ArrowDown")
    heard = press_and_hear(a, "Escape", heard, "Escape (cancel)")
    wait_until("no .lifted card after Escape", lambda: count(a, ".lifted") == 0, timeout=5)
    time.sleep(0.3)
    seq, shown = run.server.board(board_id)
    if seq != 0:
        raise ScenarioFailure(f"a cancelled keyboard move changed the board: seq {seq}, {shown}")
    wait_board(a, "A", start, 0)

    card(a, "t2").focus()
    heard = press_and_hear(a, "Space", heard, "Space (pick up)")
    heard = press_and_hear(a, "ArrowRight", heard, "ArrowRight")
    heard = press_and_hear(a, "Space", heard, "Space (drop)")

    def in_doing():
        seq, shown = run.server.board(board_id)
        return seq if "t2" in dict(shown)["doing"] else None
    seq = wait_until("the server has t2 in doing", in_doing)
    _, shown = run.server.board(board_id)
    wait_board(a, "A", shown, seq)
    return f"t2 carried to doing ({dict(shown)['doing']}); announced: {announcements(a)}"


@scenario("remote-move-announced")
def remote_move_announced(run):
    """Someone else moves the card I have focused: #announcer tells me."""
    board_id = run.new_board("remote")
    start = as_state(standard_columns())
    b = run.open_board("B", board_id, "Bob")
    b.evaluate(RECORD_ANNOUNCEMENTS_JS)
    card(b, "t3").focus()
    time.sleep(0.2)
    heard = len(announcements(b))
    run.server.post_op(board_id, {"type": "move", "opId": "remote-1", "baseSeq": 0, "sources": ["t3"],
                                  "destination": {"collection": "done", "before": None}})
    expected = moved(start, "t3", "done", None)
    wait_board(b, "B", expected, 1)
    try:
        wait_until("#announcer announces the move of the focused card t3 (moved by someone else to done)",
                   lambda: len(announcements(b)) > heard, timeout=5)
    except ScenarioFailure as failure:
        active = b.evaluate("() => { const el = document.activeElement; return el ? el.outerHTML.slice(0, 100) : null; }")
        raise ScenarioFailure(f"{failure}\n  focus after the remote move (document.activeElement): {active}\n"
                              f"  announcements: {announcements(b)}")
    return f"announced: {announcements(b)[heard:]}"


EDITOR_JS = """(id) => {
  const label = document.querySelector(`li.card[data-item-id="${id}"] .card-label`);
  if (!label) return null;
  const selection = getSelection();
  return {editing: label.isContentEditable, text: label.textContent, focused: document.activeElement === label,
          column: label.closest('section.column')?.dataset.collectionId ?? null,
          caretAtEnd: !!selection && selection.isCollapsed && label.contains(selection.anchorNode) &&
            selection.anchorOffset === (selection.anchorNode.textContent ?? '').length};
}"""


def editor(page, item_id):
    return page.evaluate(EDITOR_JS, item_id)


def server_item(run, board_id, item_id):
    answer = run.server.document(board_id)
    for collection in answer["collections"]:
        for item in collection["items"]:
            if item["id"] == item_id:
                return item
    return None


def no_page_problems(run):
    problems = [p for p in run.recorder.problems if p["scenario"] == run.recorder.scenario]
    if problems:
        raise ScenarioFailure("the pages reported problems:\n" + run.recorder.describe(problems))


def expect_editor(page, item_id, text, column, what):
    shown = editor(page, item_id)
    wanted = {"editing": True, "text": text, "focused": True, "column": column, "caretAtEnd": True}
    if shown != wanted:
        raise ScenarioFailure(f"{what}: B's editor on {item_id} should be {wanted}, is {shown}")


@scenario("edit-during-remote-moves")
def edit_during_remote_moves(run):
    """B edits t2 without pressing Enter while someone else (through the API) moves its
    neighbours, then t2 itself to another column: B's editor stays open with its text, focus
    and caret, nothing is committed meanwhile, no page error; Enter commits the whole text once.
    Then t3 is deleted while B edits it: a panel says so and keeps B's text."""
    board_id = run.new_board("edit")
    start = as_state(standard_columns())
    b = run.open_board("B", board_id, "Bob")
    card(b, "t2").locator(".card-label").dblclick()
    wait_until("B's editor on t2 is open and focused", lambda: (editor(b, "t2") or {}).get("focused") is True, timeout=5)
    b.keyboard.type("Hello")
    # t1, above t2, goes to the end of To do: t2's node moves to the top of the list.
    run.server.post_op(board_id, {"type": "move", "opId": "remote-1", "baseSeq": 0, "sources": ["t1"],
                                  "destination": {"collection": "todo", "before": None}})
    state = moved(start, "t1", "todo", None)
    wait_board(b, "B", state, 1)
    expect_editor(b, "t2", "Hello", "todo", "after its neighbour moved")
    b.keyboard.type(" world")
    run.server.post_op(board_id, {"type": "move", "opId": "remote-2", "baseSeq": 1, "sources": ["t3"],
                                  "destination": {"collection": "doing", "before": "d1"}})
    state = moved(state, "t3", "doing", "d1")
    # Then the edited card itself, to another column.
    run.server.post_op(board_id, {"type": "move", "opId": "remote-3", "baseSeq": 2, "sources": ["t2"],
                                  "destination": {"collection": "done", "before": "x1"}})
    state = moved(state, "t2", "done", "x1")
    wait_board(b, "B", state, 3)
    expect_editor(b, "t2", "Hello world", "done", "after it was moved to Done")
    b.keyboard.type("!")
    expect_editor(b, "t2", "Hello world!", "done", "typing on after the moves")
    seq, _ = run.server.board(board_id)
    label = server_item(run, board_id, "t2")["label"]
    if seq != 3 or label != "Review the client":
        raise ScenarioFailure(f"nothing may be committed before Enter: the server is at seq {seq}, t2 is {label!r}")
    b.keyboard.press("Enter")
    wait_until("the server has t2's full text 'Hello world!'",
               lambda: server_item(run, board_id, "t2")["label"] == "Hello world!", timeout=5)
    wait_until("page B is at seq 4", lambda: page_seq(b) == "4", timeout=5)
    time.sleep(0.5)
    seq, _ = run.server.board(board_id)
    if seq != 4:
        raise ScenarioFailure(f"Enter must commit the edit once: the server is at seq {seq}, not 4")
    if (editor(b, "t2") or {}).get("editing"):
        raise ScenarioFailure("B's editor stayed open after Enter")

    # A card deleted under an open editor: B is told, and the text is kept to copy.
    card(b, "t3").locator(".card-label").dblclick()
    wait_until("B's editor on t3 is open and focused", lambda: (editor(b, "t3") or {}).get("focused") is True, timeout=5)
    b.keyboard.type("Half a thought")
    run.server.post_op(board_id, {"type": "delete", "opId": "remote-4", "baseSeq": 4, "items": ["t3"]})
    panel = b.locator(".lost-edit")
    wait_until("B shows the panel of the deleted card's text", lambda: panel.is_visible(), timeout=5)
    kept = panel.locator("textarea").input_value()
    if kept != "Half a thought" or "deleted" not in panel.text_content():
        raise ScenarioFailure(f"the panel should say the card was deleted and keep 'Half a thought': {panel.text_content()!r}, {kept!r}")
    panel.get_by_role("button", name="Dismiss").click()
    wait_until("the panel is dismissed", lambda: panel.count() == 0, timeout=5)
    seq, _ = run.server.board(board_id)
    if seq != 5:
        raise ScenarioFailure(f"the lost edit must commit nothing: the server is at seq {seq}, not 5")
    no_page_problems(run)
    return "the editor kept its text, focus and caret through 3 remote moves; one commit on Enter; a deleted card's text kept"


@scenario("delete-undo")
def delete_undo(run):
    """Backspace on A's focused card deletes it for everyone; Ctrl+Z restores it with its id,
    label and data on every page and in the API; Shift+Ctrl+Z deletes it again, and the
    notice's Undo button brings it back once more."""
    board_id = "undo-delete"
    body = {"id": board_id, "title": "Undo", "collections": [
        {"id": c, "title": t, "items": [{"id": i, "label": l} for i, l in items]} for c, t, items in standard_columns()]}
    body["collections"][0]["items"][1]["data"] = {"color": "red", "points": 3}
    status, answer = run.server.http("POST", "/api/boards", body)
    if status != 201:
        raise ScenarioFailure(f"POST /api/boards: {status} {answer}")
    original = dict(body["collections"][0]["items"][1])
    start = as_state(standard_columns())
    without = [(c, [i for i in items if i != "t2"]) for c, items in start]
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")

    card(a, "t2").focus()
    a.keyboard.press("Backspace")
    for label, page in (("A", a), ("B", b)):
        wait_board(page, label, without, 1)
    wait_server_board(run, board_id, without)
    undo_button = a.locator("#notice .notice-action")
    wait_until("A's notice offers Undo", lambda: undo_button.is_visible() and undo_button.text_content() == "Undo", timeout=5)

    a.keyboard.press("Control+z")
    for label, page in (("A", a), ("B", b)):
        wait_board(page, label, start, 2)
    wait_server_board(run, board_id, start)
    restored = server_item(run, board_id, "t2")
    if restored != original:
        raise ScenarioFailure(f"Ctrl+Z must restore t2 as it was ({original}); the API has {restored}")

    a.keyboard.press("Control+Shift+z")
    for label, page in (("A", a), ("B", b)):
        wait_board(page, label, without, 3)
    wait_server_board(run, board_id, without)

    wait_until("A's notice offers Undo after the redo", lambda: undo_button.is_visible() and undo_button.text_content() == "Undo", timeout=5)
    undo_button.click()
    for label, page in (("A", a), ("B", b)):
        wait_board(page, label, start, 4)
    if server_item(run, board_id, "t2") != original:
        raise ScenarioFailure(f"the notice's Undo must restore t2 as it was; the API has {server_item(run, board_id, 't2')}")
    no_page_problems(run)
    return "deleted, restored with id/label/data, deleted again and restored from the notice, on both pages and the API"


@scenario("rename-live")
def rename_live(run):
    """PATCH /api/boards/{id} renames the board: the open page's heading and tab title follow
    at once, from the committed event (no reload), and the board is unchanged otherwise."""
    board_id = run.new_board("rename")
    a = run.open_board("A", board_id, "Ada")
    status, answer = run.server.http("PATCH", f"/api/boards/{board_id}", {"title": "Renamed live"})
    if status != 200 or answer.get("title") != "Renamed live":
        raise ScenarioFailure(f"PATCH /api/boards/{board_id}: {status} {answer}")
    wait_until("#board-title shows the new title",
               lambda: a.text_content("#board-title") == "Renamed live", timeout=5)
    wait_until("the tab title follows", lambda: a.title() == "Renamed live · Corkboard", timeout=5)
    wait_board(a, "A", as_state(standard_columns()), answer["seq"])
    return f"heading and tab renamed at seq {answer['seq']}"


# The state of a column's title: being edited (contenteditable), focused, its text.
TITLE_JS = """(id) => {
  const title = document.querySelector(`section.column[data-collection-id="${id}"] .column-title`);
  if (!title) return null;
  return {editing: title.isContentEditable, focused: document.activeElement === title, text: title.textContent};
}"""


def column_title(page, collection_id):
    return page.evaluate(TITLE_JS, collection_id)


def server_column_title(run, board_id, collection_id):
    answer = run.server.document(board_id)
    return next((c["title"] for c in answer["collections"] if c["id"] == collection_id), None)


def rename_by_click(run, a, b, board_id, collection_id, new_title, what):
    """Clicks the column's title on A (the empty add-card editor is open), expects its editor
    open at once, then Ctrl+A, types `new_title`, Enter: every page and the server have it."""
    a.locator(f'section.column[data-collection-id="{collection_id}"] .column-title').click()
    a.wait_for_timeout(150)
    shown = column_title(a, collection_id)
    if not (shown or {}).get("editing") or not shown.get("focused"):
        raise ScenarioFailure(f"{what}: one click on the title of {collection_id} should open its editor (focused), "
                              f"while an empty add-card editor was open; the title is {shown}")
    if a.locator("li.card-draft").count():
        raise ScenarioFailure(f"{what}: the empty add-card editor stayed open beside the title's editor")
    a.keyboard.press("Control+a")
    a.keyboard.type(new_title)
    a.keyboard.press("Enter")
    wait_until(f"{what}: the server names {collection_id} {new_title!r}",
               lambda: server_column_title(run, board_id, collection_id) == new_title, timeout=5)
    for label, page in (("A", a), ("B", b)):
        wait_until(f"{what}: page {label} names {collection_id} {new_title!r}",
                   lambda: (column_title(page, collection_id) or {}).get("text") == new_title, timeout=5)


@scenario("rename-after-add-card")
def rename_after_add_card(run):
    """A adds a card ("+ Add a card", text, Enter: an empty editor stays open for the next one),
    then clicks a column's title, presses Ctrl+A and types "In progress": the click opens the
    title's editor at once (the empty card editor closes), so the column is "In progress" on
    every page and the server, not "progress". Both for another column and the card's own.
    Then typing on a title that is focused but not being edited keeps every character: the
    first one opens the editor, and a space never opens it halfway through the text."""
    board_id = run.new_board("rename-after-add")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")

    def add_card(collection_id, text):
        column = a.locator(f'section.column[data-collection-id="{collection_id}"]')
        column.locator(".add-card").click()
        a.keyboard.type(text)
        a.keyboard.press("Enter")
        wait_until(f"the server has the card {text!r} in {collection_id}",
                   lambda: any(i["label"] == text for c in run.server.document(board_id)["collections"]
                               if c["id"] == collection_id for i in c["items"]), timeout=5)
        wait_until("an empty add-card editor is open and focused for the next card",
                   lambda: a.evaluate("() => { const d = document.querySelector('li.card-draft .editing');"
                                      " return !!d && document.activeElement === d && d.textContent === ''; }"), timeout=5)

    add_card("todo", "Call the printer")
    rename_by_click(run, a, b, board_id, "doing", "In progress", "another column's title")
    add_card("todo", "Order paper")
    rename_by_click(run, a, b, board_id, "todo", "Next up", "the card's own column's title")

    # A title focused but not in edit mode (Escape leaves it so): typing goes into the title.
    title = a.locator('section.column[data-collection-id="done"] .column-title')
    title.click()
    wait_until("the title of done is being edited", lambda: (column_title(a, "done") or {}).get("editing"), timeout=3)
    a.keyboard.press("Escape")
    shown = column_title(a, "done")
    if shown != {"editing": False, "focused": True, "text": "Done"}:
        raise ScenarioFailure(f"Escape should leave the title of done focused, unchanged and not edited: {shown}")
    a.keyboard.type("Shipped this week")
    a.keyboard.press("Enter")
    wait_until("the server names done 'Shipped this week' (no word lost to the space)",
               lambda: server_column_title(run, board_id, "done") == "Shipped this week", timeout=5)
    for label, page in (("A", a), ("B", b)):
        wait_until(f"page {label} names done 'Shipped this week'",
                   lambda: (column_title(page, "done") or {}).get("text") == "Shipped this week", timeout=5)
    # Space alone still opens the editor (the title's activate key), with nothing typed.
    shown = column_title(a, "done")
    if shown != {"editing": False, "focused": True, "text": "Shipped this week"}:
        raise ScenarioFailure(f"Enter should leave the title of done focused and not edited: {shown}")
    a.keyboard.press(" ")
    shown = column_title(a, "done")
    if not shown.get("editing") or shown.get("text") != "Shipped this week":
        raise ScenarioFailure(f"Space on a focused title should open its editor with the title unchanged: {shown}")
    a.keyboard.press("Escape")
    names = [server_column_title(run, board_id, c) for c in ("todo", "doing", "done")]
    if names != ["Next up", "In progress", "Shipped this week"]:
        raise ScenarioFailure(f"the server's columns are {names}")
    no_page_problems(run)
    return f"columns renamed by click after adding a card, and by typing on a focused title: {names}"


# What has the focus, described: the add-column button, a column draft's title being edited,
# the add-card button or the title of a column (by its title), or the element's start.
FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'nothing';
  if (el.matches('.add-column')) return 'add-column';
  if (el.matches('section.column-draft .column-title.editing')) return 'column draft';
  const column = el.closest('section.column[data-collection-id]');
  const name = column?.querySelector('.column-title')?.textContent;
  if (el.matches('.add-card')) return `add-card of ${name}`;
  if (el.matches('.column-title')) return `title of ${name}`;
  return el.outerHTML.slice(0, 80);
}"""


def server_column_titles(run, board_id):
    answer = run.server.document(board_id)
    return [c["title"] for c in answer["collections"]]


@scenario("add-column-focus")
def add_column_focus(run):
    """From the keyboard, "+ Add a column", a title, Enter: the column is added (on both pages
    and the server) and the focus is back on "+ Add a column", not lost to the page, so Enter
    there starts the next column, and Shift+Tab reaches the new column's "+ Add a card" (the
    new column is just before the button). Escape on an empty draft also comes back there."""
    board_id = run.new_board("add-column")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    titles = ["To do", "Doing", "Done"]
    a.locator(".add-column").focus()
    for name in ("Blocked", "Later"):
        a.keyboard.press("Enter")
        focused = a.evaluate(FOCUS_JS)
        if focused != "column draft":
            raise ScenarioFailure(f"Enter on + Add a column should open a column draft with the focus; the focus is on {focused}")
        a.keyboard.type(name)
        a.keyboard.press("Enter")
        titles.append(name)
        wait_until(f"the server's columns are {titles}", lambda: server_column_titles(run, board_id) == titles, timeout=5)
        for label, page in (("A", a), ("B", b)):
            wait_until(f"page {label} shows the column {name}",
                       lambda: page.locator("section.column[data-collection-id] .column-title").all_text_contents() == titles,
                       timeout=5)
        # After the view drew the new column (the focus must survive that too).
        a.wait_for_timeout(100)
        focused = a.evaluate(FOCUS_JS)
        if focused != "add-column":
            raise ScenarioFailure(f"after adding the column {name}, the focus should be on + Add a column; it is on {focused}")
    a.keyboard.press("Shift+Tab")
    focused = a.evaluate(FOCUS_JS)
    if focused != "add-card of Later":
        raise ScenarioFailure(f"Shift+Tab from + Add a column should reach the new column's + Add a card; it reached {focused}")
    a.keyboard.press("Tab")
    a.keyboard.press("Enter")
    a.keyboard.press("Escape")
    focused = a.evaluate(FOCUS_JS)
    if focused != "add-column":
        raise ScenarioFailure(f"Escape on an empty column draft should give the focus back to + Add a column; it is on {focused}")
    if a.locator("section.column-draft").count():
        raise ScenarioFailure("the column draft stayed after Escape")
    no_page_problems(run)
    return f"columns added from the keyboard, the focus back on + Add a column each time: {server_column_titles(run, board_id)}"


@scenario("screenshot")
def screenshot(run):
    """A picture of the demo board as B sees it while A drags a card (kept for people)."""
    a = run.open_board("A", "demo", "Ada")
    b = run.open_board("B", "demo", "Bob")
    pointer_pick_up(a, "card-bot")
    pointer_move_before(a, "doing", "card-order")
    try:
        wait_until("B shows the hold", lambda: count(b, "li.ghost-slot") == 1 and count(b, "li.card.held") == 1, timeout=3)
    except ScenarioFailure:
        pass  # the picture is still wanted; the marks are checked by held-while-dragging
    paths = [run.save_screenshot(b, "board"), run.save_screenshot(a, "board-dragging")]
    a.keyboard.press("Escape")
    a.mouse.up()
    for path in paths:
        with open(path, "rb") as file:
            head = file.read(8)
        if head != b"\x89PNG\r\n\x1a\n" or os.path.getsize(path) < 2000:
            raise ScenarioFailure(f"{path} is not a PNG of a page")
    return "saved " + ", ".join(paths)


@scenario("reconnect-after-restart")
def reconnect_after_restart(run):
    """The server stops and starts again on the same port and data folder. A reconnects and
    drags a card, an HTTP client moves another, while B is kept disconnected; then B reconnects
    and shows both moves. B's indicator goes reconnecting -> connected."""
    board_id = run.new_board("restart")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    for page in (a, b):
        page.evaluate(RECORD_CONNECTION_STATES_JS)
    port = run.server.port
    run.recorder.begin_outage(run.server.origin)
    try:
        run.server.stop()
        for label, page in (("A", a), ("B", b)):
            wait_until(f"page {label} shows #connection[data-state=reconnecting] once the server is gone",
                       lambda page=page: connection_state(page) == "reconnecting", timeout=10)
        if not b.locator("#connection").inner_text(timeout=2000).strip():
            raise ScenarioFailure("#connection shows no text while reconnecting")
        # Keep B away from the server until the moves are made.
        b.context.set_offline(True)
        run.server.start(port=port)
        wait_until("page A reconnects (#connection[data-state=connected])",
                   lambda: connection_state(a) == "connected", timeout=30)
        pointer_pick_up(a, "t1")
        pointer_move_before(a, "doing", "d2")
        wait_placeholder(a, "doing", 1)
        a.mouse.up()
        expected = moved(as_state(standard_columns()), "t1", "doing", "d2")
        seq = wait_server_board(run, board_id, expected)
        run.server.post_op(board_id, {"type": "move", "opId": "http-1", "baseSeq": seq, "sources": ["t3"],
                                      "destination": {"collection": "done", "before": "x1"}})
        expected = moved(expected, "t3", "done", "x1")
        seq = wait_server_board(run, board_id, expected)
        wait_board(a, "A", expected, seq)
        if page_seq(b) != "0" or connection_state(b) == "connected":
            raise ScenarioFailure(f"page B was not kept disconnected: state {connection_state(b)}, seq {page_seq(b)}")
        b.context.set_offline(False)
        wait_until("page B reconnects (#connection[data-state=connected])",
                   lambda: connection_state(b) == "connected", timeout=30)
        wait_board(b, "B", expected, seq)
    finally:
        run.recorder.end_outage()
    states = b.evaluate("() => window.__states")
    after = states[1:]
    if "reconnecting" not in after or after[-1] != "connected" or after.index("reconnecting") > len(after) - 2:
        raise ScenarioFailure(f"page B's #connection went {states}; expected reconnecting, then connected last")
    return f"B went {' -> '.join(states)}, A went {' -> '.join(a.evaluate('() => window.__states'))}; both at seq {seq}"


@scenario("move-while-server-down")
def move_while_server_down(run):
    """A keyboard move made while the server is down shows as waiting, and is committed exactly
    once after the server is back; B sees it."""
    board_id = run.new_board("pending")
    start = as_state(standard_columns())
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    port = run.server.port
    run.recorder.begin_outage(run.server.origin)
    try:
        run.server.stop()
        wait_until("page A shows reconnecting", lambda: connection_state(a) == "reconnecting", timeout=10)
        a.evaluate(RECORD_ANNOUNCEMENTS_JS)
        card(a, "t1").focus()
        heard = press_and_hear(a, "Space", 0, "Space (pick up) while the server is down")
        heard = press_and_hear(a, "ArrowDown", heard, "ArrowDown")
        press_and_hear(a, "Space", heard, "Space (drop)")
        expected = moved(start, "t1", "todo", "t3")
        wait_board(a, "A", expected)  # shown at once, though not committed yet
        run.server.start(port=port)
        for label, page in (("A", a), ("B", b)):
            wait_until(f"page {label} reconnects", lambda page=page: connection_state(page) == "connected", timeout=30)
        seq = wait_server_board(run, board_id, expected)
        wait_board(a, "A", expected, seq)
        wait_board(b, "B", expected, seq)
    finally:
        run.recorder.end_outage()
    time.sleep(0.3)
    seq_now, _ = run.server.board(board_id)
    if seq_now != 1:
        raise ScenarioFailure(f"the move made while the server was down was committed {seq_now} times")
    return f"committed once (seq {seq}) after the restart; both pages show it"


def keyboard_move_down(page, item_id, label):
    """Space, ArrowDown, Space on a card: one place down in its column, by the keyboard."""
    page.evaluate(RECORD_ANNOUNCEMENTS_JS)
    card(page, item_id).focus()
    heard = press_and_hear(page, "Space", 0, f"Space (pick up {item_id}) in {label}")
    heard = press_and_hear(page, "ArrowDown", heard, f"ArrowDown in {label}")
    press_and_hear(page, "Space", heard, f"Space (drop {item_id}) in {label}")


PENDING_IN_STORAGE_JS = """(board) => JSON.parse(localStorage.getItem(`corkboard.pending.${board}`) ?? '[]').length"""


@scenario("offline-flap")
def offline_flap(run):
    """A's network goes (context offline), A moves a card, B moves another, A's network comes
    back: A is Live again within 10 s, its move committed once, and A, B and the API agree
    (issue #21, item 1: the page used to stay Offline with the move waiting for ever)."""
    board_id = run.new_board("flap")
    start = as_state(standard_columns())
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    a.evaluate(RECORD_CONNECTION_STATES_JS)
    run.recorder.begin_outage(run.server.origin)
    try:
        a.context.set_offline(True)
        wait_until("page A shows offline", lambda: connection_state(a) == "offline", timeout=10)
        keyboard_move_down(a, "t1", "A")
        mine = moved(start, "t1", "todo", "t3")
        wait_board(a, "A", mine)  # shown at once, though not sent
        keyboard_move_down(b, "d1", "B")
        theirs = moved(start, "d1", "doing", None)
        wait_board(b, "B", theirs)
        # B's move reaches the server; A's waits in A.
        waiting = wait_server_board(run, board_id, theirs)
        if waiting != 1:
            raise ScenarioFailure(f"the server is at seq {waiting} while A is offline; only B's move (seq 1) could reach it")
        a.context.set_offline(False)
        back = time.monotonic()
        wait_until("page A is Live again within 10 s of the network's return",
                   lambda: connection_state(a) == "connected", timeout=10)
        took = time.monotonic() - back
        both = moved(mine, "d1", "doing", None)
        seq = wait_server_board(run, board_id, both)
        wait_board(a, "A", both, seq)
        wait_board(b, "B", both, seq)
    finally:
        run.recorder.end_outage()
    if seq != 2:
        raise ScenarioFailure(f"two moves were committed as {seq} events")
    if a.evaluate(PENDING_IN_STORAGE_JS, board_id) != 0:
        raise ScenarioFailure("page A still keeps the committed move as pending in localStorage")
    states = a.evaluate("() => window.__states")
    if "offline" not in states or states[-1] != "connected":
        raise ScenarioFailure(f"page A's #connection went {states}; expected offline, then connected last")
    return (f"A went {' -> '.join(states)}, live {took:.1f}s after the network came back; both moves committed once "
            f"(seq {seq}), pages and API agree")


@scenario("offline-quiet")
def offline_quiet(run):
    """Two pages lose the network for 20 s (their contexts offline): neither dials the server
    meanwhile (each failed attempt was a "WebSocket connection … failed" console error: 18 on
    two pages in the trial), and both are Live again when it comes back. The outage is not
    declared to the recorder: any console error fails it (issue #32's defect 8)."""
    board_id = run.new_board("quiet")
    attempts = []

    def count_sockets(page):
        page.on("websocket", lambda ws: attempts.append((time.monotonic(), ws.url)))

    pages = [run.open_board(label, board_id, name, prepare=count_sockets) for label, name in (("A", "Ada"), ("B", "Bob"))]
    for page in pages:
        page.context.set_offline(True)
    for label, page in zip("AB", pages):
        wait_until(f"page {label} shows offline", lambda: connection_state(page) == "offline", timeout=10)
    went = time.monotonic()
    # The outage itself is what is tested: 20 s without the network, as in the trial.
    pages[0].wait_for_timeout(20000)
    during = [url for at, url in attempts if at > went]
    for page in pages:
        page.context.set_offline(False)
    for label, page in zip("AB", pages):
        wait_until(f"page {label} is Live again once the network is back", lambda: connection_state(page) == "connected", timeout=10)
    if during:
        raise ScenarioFailure(f"the pages dialled {len(during)} time(s) while the browser said it was offline: {during[:4]}")
    no_page_problems(run)
    return f"no attempt in 20 s offline on two pages; both Live again; {len(attempts)} sockets opened in all"


@scenario("reload-with-pending")
def reload_with_pending(run):
    """A, offline, moves a card and reloads (still offline, then online): the move kept in
    localStorage is sent by the new page and committed exactly once; B sees it."""
    board_id = run.new_board("reload")
    start = as_state(standard_columns())
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    expected = moved(start, "t1", "todo", "t3")
    run.recorder.begin_outage(run.server.origin)
    try:
        a.context.set_offline(True)
        wait_until("page A shows offline", lambda: connection_state(a) == "offline", timeout=10)
        keyboard_move_down(a, "t1", "A")
        wait_board(a, "A", expected)
        kept = a.evaluate(PENDING_IN_STORAGE_JS, board_id)
        if kept != 1:
            raise ScenarioFailure(f"page A keeps {kept} pending operations in localStorage, not 1")
        try:
            a.reload(timeout=5000)  # offline: the browser cannot load the page
        except Exception as error:
            log(f"reload while offline failed as expected: {str(error).splitlines()[0]}")
        a.context.set_offline(False)
        response = a.goto(f"{run.server.origin}/b/{board_id}?name=Ada")
        if response is None or response.status != 200:
            raise ScenarioFailure(f"reloading /b/{board_id} answered {response.status if response else 'nothing'}")
        wait_until("page A is Live after the reload", lambda: connection_state(a) == "connected", timeout=10)
        seq = wait_server_board(run, board_id, expected)
        wait_board(a, "A", expected, seq)
        wait_board(b, "B", expected, seq)
    finally:
        run.recorder.end_outage()
    time.sleep(0.3)
    seq_now, _ = run.server.board(board_id)
    if seq_now != 1:
        raise ScenarioFailure(f"the move kept across the reload was committed {seq_now} times")
    if a.evaluate(PENDING_IN_STORAGE_JS, board_id) != 0:
        raise ScenarioFailure("page A still keeps the committed move as pending in localStorage")
    return f"committed once (seq {seq}) by the reloaded page; both pages show it"


@scenario("holder-leaves")
def holder_leaves(run):
    """A closes its page while holding a card: B's held badge and ghost clear, nothing moves."""
    board_id = run.new_board("leaves")
    start = as_state(standard_columns())
    a, b, holder = hold_in_a(run, board_id)
    wait_until("page B shows A's ghost", lambda: count(b, "li.ghost-slot") == 1, timeout=5)
    a.context.close()
    wait_until("page B has no held card and no ghost once A left",
               lambda: count(b, "li.card.held") == 0 and count(b, "li.ghost-slot") == 0, timeout=10)
    wait_board(b, "B", start, 0)
    return "B's marks cleared when A's page closed"


@scenario("drag-expires")
def drag_expires(run):
    """A holds a card, moving it about, past the server's drag limit (`--max-drag-seconds 3` for
    this scenario): A's page lets go and says why, B's marks clear, and B can move the card."""
    try:
        run.restart_server(("--max-drag-seconds", "3"))
        board_id = run.new_board("expires")
        a, b, holder = hold_in_a(run, board_id)
        # The pointer keeps moving (drag.over keeps coming) until A's page tells of the end.
        spots = (("doing", "d1"), ("done", "x1"))
        deadline = time.monotonic() + 10
        turn = 0
        while time.monotonic() < deadline and not a.locator("#notice").is_visible():
            pointer_move_before(a, *spots[turn % 2])
            turn += 1
            time.sleep(0.3)
        notice = a.locator("#notice").inner_text(timeout=2000).strip() if a.locator("#notice").is_visible() else ""
        if "let go" not in notice:
            raise ScenarioFailure(f"page A says nothing of the expired drag after 10 s (#notice: {notice!r})")
        if count(a, "li.card.lifted") or count(a, "li.placeholder"):
            raise ScenarioFailure("page A still shows the card lifted (or its placeholder) after the drag expired")
        wait_until("page B has no held card and no ghost once A's drag expired",
                   lambda: count(b, "li.card.held") == 0 and count(b, "li.ghost-slot") == 0, timeout=5)
        a.mouse.up()
        # The card is free: B moves it.
        pointer_pick_up(b, "t1")
        pointer_move_before(b, "doing", "d2")
        wait_placeholder(b, "doing", 1)
        b.mouse.up()
        wait_server_board(run, board_id, moved(as_state(standard_columns()), "t1", "doing", "d2"))
        return f"A said {notice!r}; B then moved t1 ({holder} had held it)"
    finally:
        run.close_pages()
        run.restart_server()


@scenario("token-mode")
def token_mode(run):
    """With a token file: `/` without a token says how to get in; `/?token=` lists and creates
    boards (the token kept, and taken out of the address); the new board's page joins with it;
    a wrong token on a board page says it was refused."""
    token = "owner-token-for-the-browser-scenario"
    tokens = os.path.join(run.args.output, "tokens.json")
    with open(tokens, "w", encoding="utf-8") as file:
        json.dump({"tokens": [{"token": token, "role": "owner", "boards": "*"}]}, file)
    try:
        run.restart_server(("--tokens", tokens))
        run.recorder.begin_refusals(run.server.origin)
        page = run.new_page("A")
        page.goto(run.server.origin + "/")
        wait_until("/ without a token says the server asks for one",
                   lambda: "asks for a token" in page.locator("#board-list").inner_text(timeout=2000), timeout=10)
        asked = page.locator("#board-list").inner_text().strip()
        page.goto(run.server.origin + f"/?token={token}")
        wait_until("/ with the token lists the boards", lambda: page.locator('#board-list a[href="/b/demo"]').count() == 1)
        if "token=" in page.url:
            raise ScenarioFailure(f"the token stays in the address: {page.url}")
        form = page.locator("#new-board-form")
        form.locator("input[name=id]").fill("with-a-token")
        form.locator("input[name=title]").fill("With a token")
        form.locator("button[type=submit]").click()
        page.wait_for_url(f"{run.server.origin}/b/with-a-token*")
        wait_until("the new board's page joins with the kept token",
                   lambda: connection_state(page) == "connected", timeout=10)
        wrong = run.new_page("B")
        wrong.goto(run.server.origin + "/b/with-a-token?token=not-the-token")
        wait_until("a wrong token on a board page is said to be refused",
                   lambda: "token was refused" in wrong.locator("#board").inner_text(timeout=2000), timeout=10)
        run.recorder.end_refusals()
        return f"without a token: {asked!r}; listed and created with it; a wrong one refused"
    finally:
        run.recorder.end_refusals()
        run.close_pages()
        run.restart_server()


@scenario("unknown-board")
def unknown_board(run):
    """/b/{an id that does not exist} says so (and links home) rather than spinning."""
    page = run.new_page("A")
    page.goto(run.server.origin + "/b/no-such-board")
    wait_until('the page is settled (body[data-ready="true"])',
               lambda: page.get_attribute("body", "data-ready", timeout=2000) == "true")
    text = page.locator("body").inner_text()
    if "no-such-board" not in text or page.locator('a[href="/"]').count() == 0:
        raise ScenarioFailure(f"the page neither names the missing board nor links to /: {text[:300]!r}")
    return f"says {page.locator('#board').inner_text().strip()!r}"


# ---------------------------------------------------------------------------------------------
# Touch, landing animations, selection, Move to…, lock, refused grabs


def long_columns():
    """A To do column longer than a phone's screen (its list scrolls), and Doing and Done."""
    todo = [(f"t{n}", f"Task number {n}, long enough to take a couple of lines on a phone") for n in range(1, 15)]
    return [("todo", "To do", todo), ("doing", "Doing", [("d1", "Drag me around"), ("d2", "Reorder me")]),
            ("done", "Done", [("x1", "Start the server")])]


class Finger:
    """One finger on a touch screen, through the DevTools protocol (real touch events: the
    browser scrolls with them unless the page stops it, and makes pointer events of them)."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.x = self.y = 0
        # Touch only a page that has been drawn (as a person would): two frames.
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")

    def _send(self, kind, points):
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x, y):
        self.x, self.y = x, y
        self._send("touchStart", [{"x": x, "y": y}])

    def move(self, x, y, steps=10):
        start_x, start_y = self.x, self.y
        for step in range(1, steps + 1):
            self.x = start_x + (x - start_x) * step / steps
            self.y = start_y + (y - start_y) * step / steps
            self._send("touchMove", [{"x": self.x, "y": self.y}])

    def up(self):
        self._send("touchEnd", [])


def center(locator):
    box = locator.bounding_box()
    if box is None:
        raise ScenarioFailure(f"{locator} is not on the screen")
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def list_scroll_top(page, collection_id):
    return page.evaluate("(id) => document.querySelector(`section.column[data-collection-id=\"${id}\"] ol.cards`).scrollTop",
                         collection_id)


HOLD_MS = 250  # pointer-drag.js


@scenario("touch-swipe-scrolls")
def touch_swipe_scrolls(run):
    """On a phone, a vertical swipe that starts on a card scrolls the column; nothing is picked
    up and nothing moves.

    A swipe whose first move reaches the page only after the hold time is a hold, rightly:
    moves sent from here wait for each other, and on a loaded machine the first one has come
    that late. Such a try proves nothing, and the swipe is made again on a new board (three
    tries)."""
    columns = long_columns()
    for attempt in range(1, 4):
        board_id = run.new_board(f"swipe{attempt}", columns)
        a = run.open_board(f"A{attempt}", board_id, "Ada", device=PHONE)
        a.evaluate(RECORD_LIFTS_JS)
        a.evaluate(FIRST_MOVE_JS)
        finger = Finger(a)
        x, y = center(card(a, "t3"))
        finger.down(x, y)
        finger.move(x, y - 300, steps=15)
        finger.up()
        first_move = a.evaluate("() => window.__firstMove")
        if first_move is not None and first_move >= HOLD_MS:
            continue
        try:
            scrolled = wait_until("the To do column scrolled (its list's scrollTop > 0) after a swipe up from card t3",
                                  lambda: list_scroll_top(a, "todo"), timeout=5)
        except ScenarioFailure as failure:
            raise ScenarioFailure(f"{failure}\n  the first move came {first_move} ms after the touch; lifted meanwhile: "
                                  f"{a.evaluate('() => window.__lifts')}; the server has {run.server.board(board_id)}")
        a.wait_for_timeout(300)
        lifts = a.evaluate("() => window.__lifts")
        if lifts:
            raise ScenarioFailure(f"the swipe picked something up: {lifts}")
        seq, shown = run.server.board(board_id)
        if seq != 0 or shown != as_state(columns):
            raise ScenarioFailure(f"the swipe changed the board: seq {seq}, {shown}")
        return f"the column scrolled by {scrolled} px (first move {first_move:.0f} ms after the touch, try {attempt}); nothing lifted, the board unchanged"
    raise ScenarioFailure(f"in three tries the swipe's first move never reached the page within the hold time ({HOLD_MS} ms)")


@scenario("touch-hold-drags")
def touch_hold_drags(run):
    """On a phone, a finger held still on a card picks it up (it lifts first); near the column's
    bottom edge the column scrolls, at the screen's right edge the board scrolls to the next
    column; released there, the card moves."""
    columns = long_columns()
    board_id = run.new_board("hold", columns)
    sent = []

    def count_frames(page):
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload).get("type"))))

    a = run.open_board("A", board_id, "Ada", device=PHONE, prepare=count_frames)
    finger = Finger(a)
    # The cards that ever show they are being pressed (for a moment: polling could miss it).
    a.evaluate("""() => {
      window.__pressed = [];
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('li.card.pressing'))
          if (!window.__pressed.includes(el.dataset.itemId)) window.__pressed.push(el.dataset.itemId);
      }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['class']});
    }""")
    # Held and let go without moving: picked up, put back, nothing sent.
    finger.down(*center(card(a, "t2")))
    try:
        wait_until("card t2 is picked up (li.card.lifted) after the finger held still on it",
                   lambda: count(a, 'li.card.lifted[data-item-id="t2"]') == 1, timeout=3)
    finally:
        finger.up()
    wait_until("t2 is back in place after the finger let go", lambda: count(a, ".lifted, .landing") == 0, timeout=3)
    a.evaluate("() => { window.__pressed = []; }")
    x, y = center(card(a, "t1"))
    finger.down(x, y)
    try:
        wait_until("card t1 is picked up (li.card.lifted) after the finger held still on it",
                   lambda: count(a, 'li.card.lifted[data-item-id="t1"]') == 1, timeout=3)
        pressed = a.evaluate("() => window.__pressed")
        if pressed != ["t1"]:
            raise ScenarioFailure(f"before it was picked up, t1 did not show it was pressed (li.card.pressing seen on {pressed})")
        # Near the column's bottom edge, its list scrolls while the finger waits there.
        todo = column_list(a, "todo").bounding_box()
        finger.move(x, todo["y"] + todo["height"] - 12, steps=10)
        wait_until("the To do column scrolls down while the finger waits near its bottom edge",
                   lambda: list_scroll_top(a, "todo") > 40, timeout=5)
        # To the right edge: the board scrolls while the finger waits there, until Doing is in
        # view; then back to the middle, where it stops.
        doing_left = "() => document.querySelector('section.column[data-collection-id=\"doing\"]').getBoundingClientRect().left"
        finger.move(PHONE["viewport"]["width"] - 8, y, steps=10)
        wait_until("the board scrolls right, bringing Doing in, while the finger waits at the screen's edge",
                   lambda: a.evaluate(doing_left) < 150, timeout=5)
        finger.move(PHONE["viewport"]["width"] / 2, y, steps=1)
        box = column_list(a, "doing").locator('li.card[data-item-id="d2"]').bounding_box()
        if box is None or box["x"] < 0 or box["x"] + box["width"] / 2 > PHONE["viewport"]["width"]:
            raise ScenarioFailure(f"card d2 is not on the screen after the board scrolled: {box}")
        finger.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.25, steps=10)
        wait_placeholder(a, "doing", 1)
    finally:
        finger.up()
    expected = moved(as_state(columns), "t1", "doing", "d2")
    seq = wait_server_board(run, board_id, expected)
    wait_board(a, "A", expected, seq)
    if sent.count("move") != 1:
        raise ScenarioFailure(f"page A sent {sent.count('move')} moves, not 1: holding t2 still and letting go sent one too "
                              f"(frames sent: {sent})")
    return f"held, carried down (the column scrolled) and across (the board scrolled), dropped before d2: seq {seq}"


# Every frame while it runs: the board's scrollLeft and where its last column ends on the screen.
RECORD_BOARD_SCROLL_JS = """() => {
  window.__boardScroll = [];
  const board = document.getElementById('board');
  const frame = (time) => {
    const columns = board.querySelectorAll(':scope > section.column');
    window.__boardScroll.push([time, board.scrollLeft, columns[columns.length - 1].getBoundingClientRect().right]);
    if (window.__boardScroll.length < 2000) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""


@scenario("phone-edge-and-release")
def phone_edge_and_release(run):
    """On a phone: every card shows its ⋯ without a tap first; a card held 5 px from the screen's
    right edge scrolls the board gently (a few hundred pixels in the first half second, not the
    whole board) and no further than the last column; released away from every column, the page
    says the card stayed where it was (issue #32's defect 6)."""
    columns = standard_columns()
    board_id = run.new_board("phone-edge", columns)
    a = run.open_board("A", board_id, "Ada", device=PHONE)
    opacity = a.evaluate("""() => getComputedStyle(document.querySelector('li.card[data-item-id="t1"] .card-menu')).opacity""")
    if opacity != "1" or not card(a, "t1").locator(".card-menu").is_visible():
        raise ScenarioFailure(f"on a phone a card's ⋯ is hidden until it is tapped (opacity {opacity})")
    width = PHONE["viewport"]["width"]
    finger = Finger(a)
    x, y = center(card(a, "t1"))
    finger.down(x, y)
    try:
        wait_until("card t1 is picked up after the finger held still on it",
                   lambda: count(a, 'li.card.lifted[data-item-id="t1"]') == 1, timeout=3)
        start = a.evaluate("() => document.getElementById('board').scrollLeft")
        a.evaluate(RECORD_BOARD_SCROLL_JS)
        finger.move(width - 5, y, steps=6)
        wait_until("the board scrolls to its last column while the finger waits at the screen's edge",
                   lambda: a.evaluate("() => { const s = window.__boardScroll; return s.length > 30 && "
                                      "s.slice(-20).every(f => f[1] === s[s.length - 1][1]) && s[s.length - 1][1] > 0; }"),
                   timeout=15)
        frames = a.evaluate("() => window.__boardScroll")
        moving = [f for f in frames if f[1] != start]
        if not moving:
            raise ScenarioFailure(f"the board never scrolled (scrollLeft {start} throughout)")
        began = moving[0][0]
        in_half_a_second = max(f[1] for f in frames if f[0] <= began + 500) - start
        if in_half_a_second > 320:
            raise ScenarioFailure(f"the board ran {in_half_a_second:.0f} px in the first half second at the edge "
                                  f"(scrollLeft {start} → {max(f[1] for f in frames if f[0] <= began + 500)}): not paced")
        last_right = min(f[2] for f in frames)
        # The board's padding (1rem) after its last column is the most that may show.
        if last_right < width - 16 - 1:
            raise ScenarioFailure(f"the board scrolled past its last column: it ended at x={last_right:.0f} "
                                  f"on a {width} px screen (scrollLeft up to {max(f[1] for f in frames)})")
        # Off every column: under the short columns, far below their last cards.
        finger.move(width / 2, PHONE["viewport"]["height"] - 60, steps=8)
    finally:
        finger.up()
    notice = a.locator("#notice")
    wait_until("the page says the card was released away from the columns and stayed",
               lambda: notice.is_visible() and "away from the columns" in notice.inner_text(), timeout=5)
    wait_until("t1 is back in place", lambda: count(a, ".lifted, .landing") == 0, timeout=5)
    wait_board(a, "A", as_state(columns))
    seq, on_server = run.server.board(board_id)
    if seq != 0 or on_server != as_state(columns):
        raise ScenarioFailure(f"the release off the columns moved something: the server has {on_server} at seq {seq}")
    no_page_problems(run)
    return (f"⋯ shown; {in_half_a_second:.0f} px in the first half second, stopped with the last column's end at "
            f"x={last_right:.0f}; released off the columns: {notice.inner_text()!r}")


@scenario("phone-people")
def phone_people(run):
    """On a phone the people on the board are shown (a compact stack of initials), not hidden."""
    board_id = run.new_board("phone-people")
    a = run.open_board("A", board_id, "Ada Lovelace", device=PHONE)
    run.open_board("B", board_id, "Bob")
    people = a.locator("#presence li[data-client]")
    wait_until("page A lists two people in #presence", lambda: people.count() == 2, timeout=5)
    shown = [people.nth(i) for i in range(2)]
    for person in shown:
        if not person.is_visible():
            raise ScenarioFailure(f"#presence li is not visible on a 390 px wide screen: {person.evaluate('el => el.outerHTML')}")
    stack = [(p.get_attribute("title"), p.get_attribute("data-initials"), p.bounding_box()) for p in shown]
    if {s[1] for s in stack} != {"AL", "B"}:
        raise ScenarioFailure(f"the stack's initials are {[s[1] for s in stack]}, not AL and B")
    if any(box["width"] > 48 for _, _, box in stack):
        raise ScenarioFailure(f"the people are not a compact stack on a phone: {stack}")
    run.save_screenshot(a, "board-phone")
    return f"shown as {[s[1] for s in stack]} ({[s[0] for s in stack]})"


# How each person of #presence is drawn: its text when it shows as text (not the initials
# alone), whether that text fits (no ellipsis), and its box.
PEOPLE_DRAWN_JS = """() => [...document.querySelectorAll('#presence li')].map(li => {
  const style = getComputedStyle(li);
  const box = li.getBoundingClientRect();
  return {name: li.textContent, shown: style.display !== 'none' && box.width > 0,
          text: parseFloat(style.fontSize) > 0, fits: li.scrollWidth <= li.clientWidth + 1,
          width: box.width, right: box.right};
})"""


@scenario("phone-people-names")
def phone_people_names(run):
    """On a phone (touch, no hover for the names in the titles), a tap on the stack of initials
    shows everyone's name in full, those beyond the stack's four too, inside the screen; a
    tap elsewhere folds it back into initials."""
    board_id = run.new_board("phone-people-names")
    a = run.open_board("A", board_id, "Ada Lovelace", device=PHONE)
    names = ["Bob", "Carmen Ortiz", "Dmitri", "Eve Li"]
    for i, name in enumerate(names):
        run.open_board(chr(ord("B") + i), board_id, name)
    people = a.locator("#presence li[data-client]")
    wait_until("page A lists five people in #presence", lambda: people.count() == 5, timeout=5)
    folded = a.evaluate(PEOPLE_DRAWN_JS)
    if any(p["text"] and p["shown"] for p in folded):
        raise ScenarioFailure(f"before the tap the phone should show a stack of initials: {folded}")
    a.locator("#presence").tap()
    drawn = a.evaluate(PEOPLE_DRAWN_JS)
    run.save_screenshot(a, "board-phone-names")
    named = [p for p in drawn if p["shown"] and p["text"] and p["fits"]]
    width = a.evaluate("() => innerWidth")
    wanted = {"Ada Lovelace", *names}
    if {p["name"] for p in named} != wanted or any(p["right"] > width for p in named):
        raise ScenarioFailure(f"after a tap on the stack every name should show in full on the {width} px screen: {drawn}")
    if any(p["shown"] for p in drawn if p["name"] not in wanted):
        raise ScenarioFailure(f"the stack's count (+N) should give way to the names: {drawn}")
    a.locator("#board").tap(position={"x": 200, "y": 400})
    again = a.evaluate(PEOPLE_DRAWN_JS)
    if any(p["text"] and p["shown"] for p in again) or any(p["width"] > 48 for p in again if p["shown"]):
        raise ScenarioFailure(f"a tap elsewhere should fold the names back into initials: {again}")
    no_page_problems(run)
    return f"a tap showed {sorted(p['name'] for p in named)}; a tap elsewhere folded them"


# Where the dragged card is drawn, frame by frame, from now on: the drag's avatar and the card
# itself when it is drawn; `window.__endedAt` is the frame at which Escape or the release came.
RECORD_LANDING_JS = """(itemId) => {
  const frames = [];
  window.__frames = frames;
  window.__endedAt = null;
  const ended = () => { if (window.__frames === frames && window.__endedAt === null) window.__endedAt = frames.length; };
  window.addEventListener('keydown', (e) => { if (e.key === 'Escape') ended(); }, {capture: true});
  window.addEventListener('pointerup', ended, {capture: true});
  const frame = () => {
    if (window.__frames !== frames) return;  // a newer recording took over
    const drawn = [];
    const avatar = document.querySelector('.drag-avatar');
    if (avatar) {
      const r = avatar.getBoundingClientRect();
      drawn.push({what: 'avatar', x: r.left, y: r.top, parent: avatar.parentElement.tagName});
    }
    const card = document.querySelector(`li.card[data-item-id="${itemId}"]`);
    if (card && card.getClientRects().length && getComputedStyle(card).visibility !== 'hidden') {
      const r = card.getBoundingClientRect();
      drawn.push({what: 'card', x: r.left, y: r.top});
    }
    frames.push(drawn);
    if (frames.length < 400) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""


def landing_frames(page, what):
    """The frames drawn after the end (Escape or release), once the card is drawn alone (landed)."""
    def settled():
        frames, ended = page.evaluate("() => [window.__frames, window.__endedAt]")
        if ended is None or len(frames) < ended + 3:
            return None
        after = frames[ended:]
        done = [i for i, drawn in enumerate(after) if [d["what"] for d in drawn] == ["card"]]
        return after if done and len(after) > done[0] + 2 else None
    return wait_until(f"the card has landed after {what} (drawn alone, without the avatar)", settled, timeout=5)


def check_landing(frames, release, slot, what):
    """The first frame after the end draws the card where it was let go; no frame draws it at
    the window's corner; the last draws it in its slot."""
    def near(d, point, within):
        return abs(d["x"] - point[0]) <= within and abs(d["y"] - point[1]) <= within
    first = frames[0]
    if not first or not all(near(d, release, 24) for d in first):
        raise ScenarioFailure(f"after {what} the card was first drawn at {first}, not where it was let go "
                              f"({release[0]:.0f}, {release[1]:.0f})")
    corner = [d for drawn in frames for d in drawn if d["x"] < 40 and d["y"] < 40]
    if corner:
        raise ScenarioFailure(f"after {what} the card was drawn at the window's corner: {corner[:3]}")
    if any(d.get("parent", "BODY") != "BODY" for drawn in frames for d in drawn):
        raise ScenarioFailure(f"the flying card is not drawn on the body (above the columns): {frames[0]}")
    last = frames[-1]
    if len(last) != 1 or not near(last[0], slot, 2):
        raise ScenarioFailure(f"after {what} the card ends drawn at {last}, not in its slot {slot}")
    return len([f for f in frames if any(d["what"] == "avatar" for d in f)])


def avatar_position(page):
    box = page.locator(".drag-avatar").bounding_box()
    if box is None:
        raise ScenarioFailure("no .drag-avatar while dragging")
    return box["x"], box["y"]


@scenario("animations-origin")
def animations_origin(run):
    """A cancelled drag flies the card back from where it was let go, a drop flies it from there
    into its new slot (above the columns, never from the window's corner); with reduced motion
    the card is simply in place."""
    board_id = run.new_board("landing")
    a = run.open_board("A", board_id, "Ada")
    origin = card(a, "t1").bounding_box()
    pointer_pick_up(a, "t1")
    pointer_move_before(a, "done", "x1")
    wait_placeholder(a, "done", 0)
    release = avatar_position(a)
    a.evaluate(RECORD_LANDING_JS, "t1")
    a.keyboard.press("Escape")
    frames = landing_frames(a, "Escape")
    flying = check_landing(frames, release, (origin["x"], origin["y"]), "Escape")
    a.mouse.up()
    if flying < 2:
        raise ScenarioFailure(f"the cancelled card did not fly back (the avatar was drawn in {flying} frame(s))")

    pointer_pick_up(a, "t2")
    pointer_move_before(a, "doing", "d2")
    wait_placeholder(a, "doing", 1)
    release = avatar_position(a)
    a.evaluate(RECORD_LANDING_JS, "t2")
    a.mouse.up()
    frames = landing_frames(a, "the drop")
    slot = card(a, "t2").bounding_box()
    check_landing(frames, release, (slot["x"], slot["y"]), "the drop")
    expected = moved(as_state(standard_columns()), "t2", "doing", "d2")
    wait_server_board(run, board_id, expected)

    a.emulate_media(reduced_motion="reduce")
    pointer_pick_up(a, "t3")
    pointer_move_before(a, "done", "x1")
    wait_placeholder(a, "done", 0)
    a.evaluate(RECORD_LANDING_JS, "t3")
    a.keyboard.press("Escape")
    frames = landing_frames(a, "Escape with reduced motion")
    a.mouse.up()
    if any(d["what"] == "avatar" for d in frames[0]):
        raise ScenarioFailure(f"with reduced motion the card still flew: {frames[:3]}")
    return f"Escape: flew back in {flying} frames; the drop flew from the release point to its slot; reduced motion: no flight"


def selected_ids(page):
    return page.evaluate("() => [...document.querySelectorAll('li.card.selected')].map(el => el.dataset.itemId)")


@scenario("range-move-to")
def range_move_to(run):
    """Click t1, Shift+click t3: three cards selected (Ctrl+click toggles one out and back);
    "Move to…" moves all three to Doing, before d2."""
    board_id = run.new_board("range")
    a = run.open_board("A", board_id, "Ada")
    card(a, "t1").click()
    card(a, "t3").click(modifiers=["Shift"])
    wait_until("t1, t2 and t3 are selected after click t1, Shift+click t3",
               lambda: selected_ids(a) == ["t1", "t2", "t3"], timeout=3)
    card(a, "t2").click(modifiers=["Control"])
    wait_until("Ctrl+click takes t2 out of the selection", lambda: selected_ids(a) == ["t1", "t3"], timeout=3)
    card(a, "t2").click(modifiers=["Control"])
    wait_until("Ctrl+click puts t2 back", lambda: selected_ids(a) == ["t1", "t2", "t3"], timeout=3)
    card(a, "t2").hover()
    card(a, "t2").locator(".card-menu").click()
    a.get_by_role("menuitem", name="Move to…").click()
    dialog = a.locator("dialog#move-to")
    wait_until("the Move to… dialog is open", lambda: dialog.is_visible(), timeout=3)
    title = dialog.locator(".dialog-title").inner_text()
    if "3 cards" not in title:
        raise ScenarioFailure(f"the dialog does not say it moves the 3 selected cards: {title!r}")
    dialog.locator("select[name=collection]").select_option("doing")
    offered = dialog.locator("select[name=position] option").evaluate_all("options => options.map(o => o.value)")
    if offered != ["top", "bottom", "d1", "d2"]:
        raise ScenarioFailure(f"the positions offered in Doing are {offered}, not top, bottom, before d1, before d2")
    dialog.locator("select[name=position]").select_option("d2")
    dialog.locator("button[value=move]").click()
    expected = [("todo", []), ("doing", ["d1", "t1", "t2", "t3", "d2"]), ("done", ["x1"])]
    seq = wait_server_board(run, board_id, expected)
    wait_board(a, "A", expected, seq)
    if selected_ids(a):
        raise ScenarioFailure(f"cards stay selected after the move: {selected_ids(a)}")
    return f"t1-t3 selected by range and moved before d2 in one move (seq {seq})"


# Where each control of the open Move to… dialog lies against the dialog's box and padding.
MOVE_TO_BOXES_JS = """() => {
  const dialog = document.querySelector('dialog#move-to');
  const box = dialog.getBoundingClientRect();
  const style = getComputedStyle(dialog);
  const inner = {left: box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
                 right: box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight)};
  const controls = [...dialog.querySelectorAll('select, button, label, .dialog-title, .dialog-buttons')].map(el => {
    const r = el.getBoundingClientRect();
    return {what: el.tagName.toLowerCase() + (el.name ? `[name=${el.name}]` : '') + (el.value && el.tagName === 'BUTTON' ? `[value=${el.value}]` : '') +
              (el.className ? '.' + el.className.split(' ').join('.') : ''),
            left: r.left, right: r.right};
  });
  return {dialog: {left: box.left, right: box.right}, inner, controls,
          scrollWidth: dialog.scrollWidth, clientWidth: dialog.clientWidth, viewport: innerWidth};
}"""


@scenario("phone-move-to-fits")
def phone_move_to_fits(run):
    """On a phone (390×844), the Move to… dialog of a card fits on the screen and every control
    (the selects, whose options name long cards, the labels and the buttons) lies inside the
    dialog's padding: nothing is clipped at its right edge."""
    long = "Call the supplier about the late delivery of the oak boards for the workshop benches"
    columns = [("todo", "To do", [("t1", "Write the tests"), ("t2", "Review the client")]),
               ("doing", "Doing", [("d1", long), ("d2", "Reorder me")]),
               ("done", "Done", [("x1", "Start the server")])]
    board_id = run.new_board("phone-move-to", columns)
    a = run.open_board("A", board_id, "Ada", device=PHONE)
    card(a, "t1").focus()
    a.keyboard.press("m")
    a.get_by_role("menuitem", name="Move to…").click()
    dialog = a.locator("dialog#move-to")
    wait_until("the Move to… dialog is open", lambda: dialog.is_visible(), timeout=3)
    chosen = dialog.locator("select[name=collection]").input_value()
    if chosen != "doing":
        raise ScenarioFailure(f"the dialog should offer Doing (with the long card) first, offers {chosen!r}")
    dialog.locator("select[name=position]").select_option("d1")
    boxes = a.evaluate(MOVE_TO_BOXES_JS)
    run.save_screenshot(a, "move-to-phone")
    outer, inner = boxes["dialog"], boxes["inner"]
    if outer["left"] < 0 or outer["right"] > boxes["viewport"]:
        raise ScenarioFailure(f"the dialog {outer} runs off the {boxes['viewport']} px screen")
    slack = 0.5
    out = [c for c in boxes["controls"] if c["left"] < inner["left"] - slack or c["right"] > inner["right"] + slack]
    if out:
        raise ScenarioFailure(f"controls outside the dialog's padding box {inner} (dialog {outer}): {out}")
    if boxes["scrollWidth"] > boxes["clientWidth"]:
        raise ScenarioFailure(f"the dialog overflows sideways: scrollWidth {boxes['scrollWidth']} > clientWidth {boxes['clientWidth']}")
    dialog.locator("button[value=move]").click()
    expected = [("todo", ["t2"]), ("doing", ["t1", "d1", "d2"]), ("done", ["x1"])]
    seq = wait_server_board(run, board_id, expected)
    wait_board(a, "A", expected, seq)
    no_page_problems(run)
    widest = max(c["right"] for c in boxes["controls"])
    return f"dialog {outer['left']:.0f}–{outer['right']:.0f} px, padding box to {inner['right']:.0f}, widest control to {widest:.0f}; moved"


def board_locked(run, board_id):
    answer = run.server.document(board_id)
    return answer["locked"]


@scenario("lock-confirm")
def lock_confirm(run):
    """Lock asks first (Cancel locks nothing); once locked, the others' banner names the locker,
    the locker's banner says how to unlock; Unlock unlocks at once."""
    board_id = run.new_board("lock")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    toggle = a.locator("#lock-toggle")
    dialog = a.locator("dialog#lock-confirm")
    toggle.click()
    wait_until("Lock opens a confirmation (dialog#lock-confirm)", lambda: dialog.is_visible(), timeout=3)
    dialog.locator("button[value=cancel]").click()
    a.wait_for_timeout(300)
    if board_locked(run, board_id):
        raise ScenarioFailure("Cancel in the confirmation locked the board")
    toggle.click()
    wait_until("Lock opens the confirmation again", lambda: dialog.is_visible(), timeout=3)
    dialog.locator("button[value=lock]").click()
    wait_until("the server has the board locked", lambda: board_locked(run, board_id), timeout=5)
    banner_b = wait_until("B's banner names Ada as the locker",
                          lambda: "Ada" in (text := b.locator("#readonly").inner_text()) and text, timeout=5)
    banner_a = wait_until("A's banner says A locked it and how to unlock",
                          lambda: "you" in (text := a.locator("#readonly").inner_text()) and "Unlock" in text and text,
                          timeout=5)
    if "has to unlock" in banner_a or toggle.inner_text().strip() != "Unlock":
        raise ScenarioFailure(f"A's banner {banner_a!r} beside its button {toggle.inner_text()!r}")
    toggle.click()
    wait_until("Unlock unlocks at once", lambda: not board_locked(run, board_id), timeout=5)
    wait_until("B's banner is gone", lambda: b.locator("#readonly").is_hidden(), timeout=5)
    return f"B: {banner_b!r}; A: {banner_a!r}"


@scenario("refused-grab-quiet")
def refused_grab_quiet(run):
    """A grabs the card B holds without having heard of B's hold (A's page is kept from it): the
    server refuses A's drag.start (busy), and from then on A sends no drag.over, even one it
    had waiting (A's clock is paused so that one waits for sure)."""
    board_id = run.new_board("refused")
    sent = []
    link = {"page": None, "held": [], "holding": True}

    def route(ws):
        server = ws.connect_to_server()
        link["page"] = ws

        def from_page(message):
            try:
                sent.append(json.loads(message).get("type"))
            except ValueError:
                sent.append(None)
            server.send(message)

        def from_server(message):
            data = json.loads(message)
            if data.get("type") in ("drag", "drag.over"):
                return  # A never hears of B's hold
            if data.get("type") == "rejected" and data.get("ref") == "drag.start" and link["holding"]:
                link["held"].append(message)
                return
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    def prepare(page):
        page.clock.install()
        page.route_web_socket(re.compile(r"/ws(\?|$)"), route)

    a = run.open_board("A", board_id, "Ada", prepare=prepare)
    b = run.open_board("B", board_id, "Bob")
    pointer_pick_up(b, "t1")
    pointer_move_before(b, "done", "x1")
    wait_placeholder(b, "done", 0)
    if count(a, "li.card.held"):
        raise ScenarioFailure("page A heard of B's hold; the scenario needs it not to")
    a.clock.pause_at(a.evaluate("() => Date.now()") + 1000)
    pointer_pick_up(a, "t1")
    wait_until("the server refused A's drag.start (held back from A for now)", lambda: link["held"], timeout=5)
    pointer_move_before(a, "doing", "d2")
    pointer_move_before(a, "doing", "d1")
    overs_before = sent.count("drag.over")
    link["holding"] = False
    link["page"].send(link["held"][0])
    wait_until("page A lets go of t1 after the refusal", lambda: count(a, "li.card.lifted") == 0, timeout=5)
    heard = sent.count("drag.over")
    a.clock.run_for(2000)
    pointer_move_before(a, "done", "x1")
    pointer_move_before(a, "doing", "d2")
    a.clock.run_for(2000)
    a.wait_for_timeout(300)
    a.mouse.up()
    after = sent.count("drag.over") - heard
    if after:
        raise ScenarioFailure(f"page A sent {after} drag.over after the server refused its grab (busy); frames sent: {sent}")
    b.keyboard.press("Escape")
    b.mouse.up()
    return f"A sent {overs_before} drag.over before the refusal reached it, none after; frames: {sent}"


# Every DOM change on the board from now on, as [column id, card id, kind] (null where none).
RECORD_MUTATIONS_JS = """() => {
  window.__mutations = [];
  const where = (node) => {
    const element = node.nodeType === 1 ? node : node.parentElement;
    return [element?.closest('section.column')?.dataset.collectionId ?? null, element?.closest('li.card')?.dataset.itemId ?? null];
  };
  window.__mutationObserver = new MutationObserver((records) => {
    for (const r of records) window.__mutations.push([...where(r.target), r.type + (r.attributeName ? ':' + r.attributeName : '')]);
  });
  window.__mutationObserver.observe(document.querySelector('#board'), {subtree: true, childList: true, attributes: true, characterData: true});
}"""


@scenario("renders-only-changes")
def renders_only_changes(run):
    """A remote move touches the moved card's two columns only (no other card, no other column);
    another person picking a card up touches that card and the ghost's column only."""
    board_id = run.new_board("incremental")
    start = as_state(standard_columns())
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    a.evaluate(RECORD_MUTATIONS_JS)
    run.server.post_op(board_id, {"type": "move", "opId": "remote-1", "baseSeq": 0, "sources": ["t3"],
                                  "destination": {"collection": "done", "before": "x1"}})
    expected = moved(start, "t3", "done", "x1")
    wait_board(a, "A", expected, 1)
    a.wait_for_timeout(300)
    touched = a.evaluate("() => window.__mutations.splice(0)")
    if not touched:
        raise ScenarioFailure("no DOM change recorded for a remote move")
    # The board's own data-seq says which change it shows; nothing else outside the two columns changes.
    stray = [m for m in touched if m != [None, None, "attributes:data-seq"] and (m[0] not in ("todo", "done") or m[1] not in (None, "t3"))]
    if stray:
        raise ScenarioFailure(f"the remote move of t3 from todo to done touched {stray[:8]} (of {len(touched)} changes)")
    by_move = len(touched)

    card(b, "d1").focus()
    b.keyboard.press("Space")
    wait_until("page A marks d1 as held by Bob", lambda: count(a, 'li.card.held[data-item-id="d1"]') == 1, timeout=5)
    a.wait_for_timeout(300)
    touched = a.evaluate("() => window.__mutations.splice(0)")
    stray = [m for m in touched if m[0] != "doing" or m[1] not in (None, "d1")]
    if stray:
        raise ScenarioFailure(f"Bob picking d1 up touched {stray[:8]} in page A (of {len(touched)} changes)")
    b.keyboard.press("Escape")
    return f"a remote move made {by_move} DOM change(s), in its two columns only; a pick-up {len(touched)}, on d1 and its ghost only"

# A long column as drawn: its cards in the DOM, and how many cards its spacers stand for.
WINDOW_JS = """(column) => {
  const list = document.querySelector(`section.column[data-collection-id="${column}"] ol.cards`);
  const drawn = [...list.querySelectorAll(':scope > li.card[data-item-id]')].map(el => el.dataset.itemId);
  const spaced = [...list.querySelectorAll(':scope > li.card-spacer')].reduce((sum, el) => sum + Number(el.dataset.cards), 0);
  const seen = drawn.filter(id => {
    const r = list.querySelector(`li.card[data-item-id="${id}"]`).getBoundingClientRect();
    const box = list.getBoundingClientRect();
    return r.height > 0 && r.bottom > box.top && r.top < box.bottom;
  });
  return { drawn, spaced, seen, scrollTop: list.scrollTop, scrollHeight: list.scrollHeight, clientHeight: list.clientHeight };
}"""

LONG = 2000

# Records the height a long column's spacers give each card they stand for (a card's height
# and the gap after it), at every change of them: it must not move while cards are dragged,
# lifted, glide or land, or the column jumps under the person's eyes.
RECORD_ROWS_JS = """(column) => {
  const list = document.querySelector(`section.column[data-collection-id="${column}"] ol.cards`);
  const gap = parseFloat(getComputedStyle(list).rowGap) || 0;
  window.__rows = [];
  const note = () => {
    for (const el of list.querySelectorAll(':scope > li.card-spacer')) {
      const cards = Number(el.dataset.cards);
      // Long runs only: a spacer's height is rounded to the pixel.
      if (cards >= 100) window.__rows.push((parseFloat(el.style.height) + gap) / cards);
    }
  };
  note();
  new MutationObserver(note).observe(list, {subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'data-cards']});
}"""


@scenario("card-link")
def card_link(run):
    """A link to one card (/b/ID#card-ITEM) opens the board with that card on screen, focused and
    highlighted for a moment, also deep in a long column that draws only part of its cards; a
    new fragment shows another card; a card no longer on the board is said so."""
    ids = [f"L{i}" for i in range(600)]
    board_id = run.new_board("linked", [("long", "Long", [(i, f"Card {i}") for i in ids]),
                                        ("side", "Side", [("s1", "Beside"), ("s2", "Beside too")])])
    page = run.new_page("A")
    page.goto(f"{run.server.origin}/b/{board_id}?name=Ada#card-L550")
    wait_until("the page is ready", lambda: page.get_attribute("body", "data-ready", timeout=2000) == "true")

    def shown(item):
        return page.evaluate("""(id) => {
            const card = document.querySelector(`li.card[data-item-id="${id}"]`);
            if (!card) return "not drawn";
            const list = card.closest("ul, ol") || card.parentElement;
            const box = card.getBoundingClientRect(), frame = list.getBoundingClientRect();
            if (box.bottom <= frame.top || box.top >= frame.bottom || box.bottom <= 0 || box.top >= innerHeight) return "off screen";
            if (document.activeElement !== card) return "not focused";
            return card.classList.contains("linked") ? "linked" : "not highlighted";
        }""", item)

    wait_until("L550 shown, focused and highlighted", lambda: shown("L550") == "linked", timeout=5)
    wait_until("the highlight fades", lambda: shown("L550") == "not highlighted", timeout=5)
    page.evaluate("() => { location.hash = '#card-s2'; }")
    wait_until("s2 shown after the fragment changed", lambda: shown("s2") == "linked", timeout=5)
    page.evaluate("() => { location.hash = '#card-gone'; }")
    wait_until("a card not on the board is said so",
               lambda: "no longer on this board" in (page.text_content("#announcer") or ""), timeout=5)
    return "L550 of 600 scrolled to, focused and highlighted; s2 after a new fragment; a missing card said so"


@scenario("long-column")
def long_column(run):
    """A column of 2,000 cards draws only those near the screen (spacers stand for the rest,
    so it scrolls its whole height), the others come as it scrolls; at its bottom a keyboard
    move (announced with the position among all 2,000), a pointer drag and a remote move land
    where they should; arrow keys walk past the drawn cards; Shift+click selects by the board's order."""
    ids = [f"L{i}" for i in range(LONG)]
    board_id = run.new_board("long", [("long", "Long", [(i, f"Card {i}") for i in ids]),
                                      ("side", "Side", [("s1", "Beside"), ("s2", "Beside too")])])
    a = run.open_board("A", board_id, "Ada")
    a.evaluate(RECORD_ANNOUNCEMENTS_JS)
    shown = wait_until("the long column draws a window of its cards, spacers standing for the rest",
                       lambda: (lambda w: w if 0 < len(w["drawn"]) < 200 and len(w["drawn"]) + w["spaced"] == LONG else None)(
                           a.evaluate(WINDOW_JS, "long")), timeout=5)
    if shown["drawn"] != ids[:len(shown["drawn"])] or "L0" not in shown["seen"]:
        raise ScenarioFailure(f"at the top the long column draws {shown['drawn'][:5]}…, sees {shown['seen'][:5]}…")
    if count(a, 'section.column[data-collection-id="side"] li.card') != 2:
        raise ScenarioFailure("the short column does not draw both its cards")
    # Its whole height scrolls: about 2,000 cards' worth.
    if shown["scrollHeight"] < 30 * LONG:
        raise ScenarioFailure(f"the long column scrolls {shown['scrollHeight']} px only, for {LONG} cards")

    # Scrolled to the bottom, the last cards are drawn and seen, the first are not.
    a.evaluate("() => { const l = document.querySelector('section.column[data-collection-id=\"long\"] ol.cards'); l.scrollTop = l.scrollHeight; }")
    bottom = wait_until("the last card is drawn and seen after scrolling to the bottom",
                        lambda: (lambda w: w if f"L{LONG - 1}" in w["seen"] and "L0" not in w["drawn"] else None)(
                            a.evaluate(WINDOW_JS, "long")), timeout=5)
    if len(bottom["drawn"]) + bottom["spaced"] != LONG or len(bottom["drawn"]) >= 200:
        raise ScenarioFailure(f"at the bottom: {len(bottom['drawn'])} drawn, spacers for {bottom['spaced']}")
    a.evaluate(RECORD_ROWS_JS, "long")

    # A keyboard move near the bottom: Space, ArrowUp twice, Space.
    card(a, "L1995").focus()
    heard = press_and_hear(a, "Space", 0, "Space (pick up L1995)")
    heard = press_and_hear(a, "ArrowUp", heard, "ArrowUp")
    heard = press_and_hear(a, "ArrowUp", heard, "ArrowUp")
    press_and_hear(a, "Space", heard, "Space (drop)")
    order = ids[:1993] + ["L1995", "L1993", "L1994"] + ids[1996:]
    expected = [("long", order), ("side", ["s1", "s2"])]
    wait_server_board(run, board_id, expected)
    said = announcements(a)
    if not any(f"Position 1994 of {LONG} in Long" in text for text in said):
        raise ScenarioFailure(f"no announcement gives the position among all {LONG} cards (1994): {said}")

    # A pointer drag: the last card over the upper part of L1993 (mid-screen: nothing scrolls) lands before it.
    pointer_pick_up(a, f"L{LONG - 1}")
    pointer_move_before(a, "long", "L1993")
    wait_until("the placeholder is right before L1993",
               lambda: a.evaluate("() => document.querySelector('li.placeholder')?.nextElementSibling?.dataset.itemId") == "L1993",
               timeout=5)
    a.mouse.up()
    order = [i for i in order if i != f"L{LONG - 1}"]
    order.insert(order.index("L1993"), f"L{LONG - 1}")
    expected = [("long", order), ("side", ["s1", "s2"])]
    seq = wait_server_board(run, board_id, expected)

    # Someone else moves the first card to the end: it shows at the bottom, where A is.
    a.evaluate("() => { const l = document.querySelector('section.column[data-collection-id=\"long\"] ol.cards'); l.scrollTop = l.scrollHeight; }")
    run.server.post_op(board_id, {"type": "move", "opId": "remote-long", "baseSeq": seq, "sources": ["L0"],
                                  "destination": {"collection": "long", "before": None}})
    order = order[1:] + ["L0"]
    def drawn_in_order():
        drawn = a.evaluate(WINDOW_JS, "long")
        there = set(drawn["drawn"])
        if drawn["drawn"][-1:] == ["L0"] and drawn["drawn"] == [i for i in order if i in there] and len(there) + drawn["spaced"] == LONG:
            return True
        raise ValueError(f"drawn {drawn['drawn'][:3]}…{drawn['drawn'][-4:]} and spacers for {drawn['spaced']}")

    wait_until("page A draws L0 last, after the cards it draws in the board's order", drawn_in_order, timeout=5)
    rows = a.evaluate("() => window.__rows")
    if max(rows) - min(rows) > 0.5:
        raise ScenarioFailure(f"the spacers' height per card moved from {min(rows):.2f} to {max(rows):.2f} px while cards were "
                              f"moved at the bottom ({len(rows)} changes)")

    # Arrow keys walk from the top past the cards drawn at first, the focused card always drawn.
    a.evaluate("() => { document.querySelector('section.column[data-collection-id=\"long\"] ol.cards').scrollTop = 0; }")
    wait_until("the first card is drawn again at the top", lambda: card(a, order[0]).count() == 1, timeout=5)
    card(a, order[0]).focus()
    steps = 120
    for _ in range(steps):
        a.keyboard.press("ArrowDown")
    focused = wait_until(f"the focus is on the card {steps} below the first ({order[steps]})",
                         lambda: a.evaluate("() => document.activeElement?.dataset?.itemId") == order[steps], timeout=5)
    if not focused or len(a.evaluate(WINDOW_JS, "long")["drawn"]) >= 200:
        raise ScenarioFailure("walking down drew too many cards")

    # Scrolled by a few cards, the window slides: only the cards that come and go are touched,
    # the others stay where they are in the DOM (moved, a card loses a click in progress).
    window_before = a.evaluate(WINDOW_JS, "long")
    a.evaluate("""() => {
      const list = document.querySelector('section.column[data-collection-id="long"] ol.cards');
      window.__moved = [];
      new MutationObserver((records) => {
        for (const record of records) for (const node of record.removedNodes) if (node.dataset?.itemId) window.__moved.push(node.dataset.itemId);
      }).observe(list, {childList: true});
      list.scrollTop += 5 * 53;
    }""")
    window_after = wait_until("the window slides after scrolling by 5 cards",
                              lambda: (lambda w: w if w["drawn"][0] != window_before["drawn"][0] else None)(a.evaluate(WINDOW_JS, "long")),
                              timeout=5)
    stayed = set(window_before["drawn"]) & set(window_after["drawn"])
    moved = [i for i in a.evaluate("() => window.__moved") if i in stayed]
    if moved:
        raise ScenarioFailure(f"sliding the window by 5 cards moved {len(moved)} of the {len(stayed)} cards it kept: {moved[:6]}…")

    # Shift+click selects the range by the board's order, drawn or not.
    card(a, order[steps]).click()
    card(a, order[steps + 3]).click(modifiers=["Shift"])
    wait_until("four cards are selected after click, Shift+click", lambda: selected_ids(a) == order[steps:steps + 4], timeout=3)
    return (f"{len(shown['drawn'])} of {LONG} cards drawn at the top, {len(bottom['drawn'])} at the bottom; keyboard, "
            f"pointer and remote moves landed (seq {seq + 1}); {steps} ArrowDowns reached {order[steps]}")

# ---------------------------------------------------------------------------------------------
# Drops from outside the board (HTML5 drag and drop, js/outside-drop.js). A real drag from
# another app cannot be driven from here, so the page gets what the browser would send: a
# DataTransfer made in the page, and dragenter/dragover/drop dispatched at a point over a
# column, at the element there.

# Starts a drag from outside carrying `data` ({type: value}); the transfer is kept for the events.
# Chromium ignores effectAllowed and dropEffect on a DataTransfer made by script (both stay
# "none"), so the transfer gets them as its own properties: what another app's drag allows
# (copy or link), and the drop effect the page chooses, as a real drag's transfer keeps them.
OUTSIDE_DRAG_JS = """(data) => {
  const transfer = new DataTransfer();
  for (const [type, value] of Object.entries(data)) transfer.setData(type, value);
  let dropEffect = 'none';
  Object.defineProperty(transfer, 'effectAllowed', {get: () => 'copyLink'});
  Object.defineProperty(transfer, 'dropEffect', {get: () => dropEffect, set: (value) => { dropEffect = value; }});
  window.__outsideTransfer = transfer;
}"""

# Dispatches one drag event of that drag at (x, y); says whether the page took it and the drop effect it chose.
OUTSIDE_DRAG_EVENT_JS = """([type, x, y, alt]) => {
  const transfer = window.__outsideTransfer;
  transfer.dropEffect = 'none';
  const target = document.elementFromPoint(x, y) ?? document.body;
  const event = new DragEvent(type, {bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y,
                                     dataTransfer: transfer, relatedTarget: null, altKey: !!alt});
  target.dispatchEvent(event);
  return {prevented: event.defaultPrevented, dropEffect: transfer.dropEffect};
}"""

# The labels of each column's cards, in order.
LABELS_JS = """() => [...document.querySelectorAll('section.column[data-collection-id]')].map(column =>
  [column.dataset.collectionId,
   [...column.querySelectorAll('ol.cards > li.card[data-item-id] .card-label')].map(label => label.textContent)])"""


def outside_drag(page, data):
    page.evaluate(OUTSIDE_DRAG_JS, data)


def outside_drag_event(page, kind, point, alt=False):
    return page.evaluate(OUTSIDE_DRAG_EVENT_JS, [kind, point[0], point[1], alt])


def point_over(page, collection_id, before_item=None):
    """Over the upper quarter of `before_item` in that column, or (None) below its last card."""
    if before_item:
        box = column_list(page, collection_id).locator(f'li.card[data-item-id="{before_item}"]').bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.25
    box = page.locator(f'section.column[data-collection-id="{collection_id}"] .add-card').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] - 4


def labels(page):
    return [(c, items) for c, items in page.evaluate(LABELS_JS)]


def server_columns(run, board_id):
    answer = run.server.document(board_id)
    return answer["seq"], [(c["id"], [(i["label"], i.get("data")) for i in c["items"]]) for c in answer["collections"]]


def with_labels(columns, collection_id, index, new_labels):
    """The standard columns' labels with `new_labels` put at `index` of that column."""
    out = [(c, [label for _, label in items]) for c, _, items in columns]
    for c, items in out:
        if c == collection_id:
            items[index:index] = new_labels
    return out


def wait_labels(page, label, expected, timeout=10.0):
    try:
        wait_until(f"page {label} shows the cards {expected}", lambda: labels(page) == expected, timeout)
    except ScenarioFailure as failure:
        raise ScenarioFailure(f"{failure}\n  page {label} shows {labels(page)}")


def drop_from_outside(run, a, b, board_id, data, collection_id, before_item, index):
    """Drags `data` from outside over `before_item` (None: the end) of that column in page A,
    checks the placeholder there, drops, and returns the server's board once it has the cards."""
    outside_drag(a, data)
    point = point_over(a, collection_id, before_item)
    for kind in ("dragenter", "dragover"):
        taken = outside_drag_event(a, kind, point)
        if not taken["prevented"] or taken["dropEffect"] != "copy":
            raise ScenarioFailure(f"page A did not take the {kind} of a drag from outside ({data}): {taken}")
    wait_placeholder(a, collection_id, index)
    if not a.locator("li.placeholder").is_visible():
        raise ScenarioFailure("the placeholder of the drag from outside is not visible")
    if count(b, "li.placeholder, li.ghost-slot"):
        raise ScenarioFailure("page B shows a placeholder or ghost for A's drag from outside (no presence is sent)")
    taken = outside_drag_event(a, "drop", point)
    if not taken["prevented"]:
        raise ScenarioFailure(f"page A did not take the drop: {taken}")
    wait_until("page A has no li.placeholder after the drop", lambda: count(a, "li.placeholder") == 0, timeout=3)


@scenario("outside-drop-link")
def outside_drop_link(run):
    """A link dragged from another tab (text/uri-list, its title in text/html) onto page A
    between d1 and d2: the placeholder shows there while it is over the column and leaves with
    the drag (dragleave out of the board); a drag that started in the page is not taken; the
    drop makes one card titled by the link, its URL in data, before d2 on both pages and on
    the server."""
    board_id = run.new_board("outside-link")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    url = "https://example.com/docs/reorder"
    data = {"text/uri-list": url, "text/plain": url,
            "text/html": f'<meta charset="utf-8"><a href="{url}">Reordering\n   items</a>'}
    # Over "todo", then out of the board: the placeholder goes with the drag.
    outside_drag(a, data)
    outside_drag_event(a, "dragenter", point_over(a, "todo", "t2"))
    outside_drag_event(a, "dragover", point_over(a, "todo", "t2"))
    wait_placeholder(a, "todo", 1)
    outside_drag_event(a, "dragleave", point_over(a, "todo", "t2"))
    wait_until("the placeholder is gone once the drag left the board", lambda: count(a, "li.placeholder") == 0, timeout=3)
    # A drag that starts in this page (its dragstart fired here) is not from outside: left to the browser.
    a.evaluate("() => document.querySelector('#board-title').dispatchEvent(new DragEvent('dragstart', {bubbles: true}))")
    taken = outside_drag_event(a, "dragover", point_over(a, "todo", "t2"))
    a.evaluate("() => document.querySelector('#board-title').dispatchEvent(new DragEvent('dragend', {bubbles: true}))")
    if taken["prevented"] or count(a, "li.placeholder"):
        raise ScenarioFailure(f"a drag that started in the page was taken as one from outside: {taken}")

    drop_from_outside(run, a, b, board_id, data, "doing", "d2", 1)
    expected = with_labels(standard_columns(), "doing", 1, ["Reordering items"])
    wait_labels(a, "A", expected)
    wait_labels(b, "B", expected)
    seq, columns = server_columns(run, board_id)
    doing = dict(columns)["doing"]
    if seq != 1 or doing[1] != ("Reordering items", {"url": url}):
        raise ScenarioFailure(f"the server has, at seq {seq}, doing = {doing}; expected the link card at 1 in one insert")
    # Both pages show the card's link under its label: its host, opening the URL in a new tab.
    for page, name in ((a, "A"), (b, "B")):
        link = page.evaluate(
            """() => { const a = [...document.querySelectorAll('li.card a.card-link')];
                       return a.map((l) => ({ text: l.textContent, href: l.href, target: l.target, rel: l.rel,
                                              card: l.closest('li.card').querySelector('.card-label').textContent })); }""")
        want = [{"text": "example.com", "href": url, "target": "_blank", "rel": "noopener noreferrer", "card": "Reordering items"}]
        if link != want:
            raise ScenarioFailure(f"page {name} shows the links {link}; expected {want}")
    no_page_problems(run)
    return f"the link became \"Reordering items\" ({url}) before d2 on A, B and the server (seq {seq}), shown as example.com"


@scenario("outside-drop-text")
def outside_drop_text(run):
    """Plain text of two lines (and a blank one) dragged from another app onto page A before
    t1, then a line to the end of "done": one card per non-empty line, in order, in one insert
    each, on both pages and on the server."""
    board_id = run.new_board("outside-text")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    drop_from_outside(run, a, b, board_id, {"text/plain": "  Call the printer \n\nOrder paper\n"}, "todo", "t1", 0)
    expected = with_labels(standard_columns(), "todo", 0, ["Call the printer", "Order paper"])
    wait_labels(a, "A", expected)
    wait_labels(b, "B", expected)
    drop_from_outside(run, a, b, board_id, {"text/plain": "Ship it"}, "done", None, 1)
    expected = [(c, items + ["Ship it"] if c == "done" else items) for c, items in expected]
    wait_labels(a, "A", expected)
    wait_labels(b, "B", expected)
    seq, columns = server_columns(run, board_id)
    shown = [(c, [label for label, _ in items]) for c, items in columns]
    if seq != 2 or shown != expected:
        raise ScenarioFailure(f"the server has {shown} at seq {seq}; expected {expected} at seq 2 (one insert a drop)")
    no_page_problems(run)
    return "two lines became two cards before t1, one line a card at the end of done, on A, B and the server"


@scenario("outside-drop-locked")
def outside_drop_locked(run):
    """On a locked board a drag from outside shows no placeholder (drop effect none) and its
    drop is refused with the notice a refused pick-up shows; nothing is inserted."""
    board_id = run.new_board("outside-locked")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    run.server.post_op(board_id, {"type": "lock", "opId": "lock-outside", "locked": True})
    wait_until("page A shows the read-only banner", lambda: a.locator("#readonly").is_visible(), timeout=5)
    outside_drag(a, {"text/plain": "Sneak in"})
    point = point_over(a, "doing", "d2")
    for kind in ("dragenter", "dragover"):
        taken = outside_drag_event(a, kind, point)
        if taken["dropEffect"] != "none":
            raise ScenarioFailure(f"on a locked board the {kind} of a drag from outside chose {taken}, not drop effect none")
    if count(a, "li.placeholder"):
        raise ScenarioFailure("a placeholder shows for a drag from outside over a locked board")
    a.evaluate("() => { document.querySelector('#notice').hidden = true; }")
    outside_drag_event(a, "drop", point)
    notice = wait_until("page A shows a #notice after the drop on the locked board",
                        lambda: a.locator("#notice").is_visible() and a.locator("#notice").inner_text().strip(), timeout=3)
    if "locked" not in notice.lower():
        raise ScenarioFailure(f"the notice after a drop on the locked board says {notice!r}")
    a.wait_for_timeout(300)
    seq, columns = server_columns(run, board_id)
    start = with_labels(standard_columns(), "todo", 0, [])
    if seq != 1 or [(c, [label for label, _ in items]) for c, items in columns] != start:
        raise ScenarioFailure(f"the server has {columns} at seq {seq} after a refused drop (the lock was seq 1)")
    wait_labels(a, "A", start)
    wait_labels(b, "B", start)
    no_page_problems(run)
    return f"no placeholder, drop effect none, notice {notice!r}, nothing inserted"


# Starts a drag at card `id`'s grip in this page as the browser would (dragstart on the grip,
# then dragend): what the drag carries, and whether the page let it start.
DRAG_OUT_JS = """(id) => {
  const grip = document.querySelector(`li.card[data-item-id="${CSS.escape(id)}"] .card-grip`);
  if (!grip) return null;
  const transfer = new DataTransfer();
  const event = new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: transfer});
  grip.dispatchEvent(event);
  grip.dispatchEvent(new DragEvent('dragend', {bubbles: true}));
  return {prevented: event.defaultPrevented, draggable: grip.draggable,
          data: Object.fromEntries([...transfer.types].map((type) => [type, transfer.getData(type)]))};
}"""


def drag_out(page, item_id):
    started = page.evaluate(DRAG_OUT_JS, item_id)
    if not started or started["prevented"] or not started["draggable"]:
        raise ScenarioFailure(f"the grip of {item_id} did not start a drag out of the page: {started}")
    return started


def drop_cards(page, data, collection_id, before_item, alt=False):
    """Drops what a drag out of another page carries over `before_item` of that column."""
    outside_drag(page, data)
    point = point_over(page, collection_id, before_item)
    for kind in ("dragenter", "dragover"):
        taken = outside_drag_event(page, kind, point, alt)
        if not taken["prevented"] or taken["dropEffect"] != ("copy" if alt else "move"):
            raise ScenarioFailure(f"the {kind} of cards from another board was not taken as a {'copy' if alt else 'move'}: {taken}")
    if not outside_drag_event(page, "drop", point, alt)["prevented"]:
        raise ScenarioFailure("the drop of cards from another board was not taken")


@scenario("drag-out-to-another-board")
def drag_out_to_another_board(run):
    """A card dragged by its grip out of board A's page carries its label (text/plain), a link
    to it (text/uri-list) and the Corkboard payload; dropped on board B's page before d2 it
    moves there: an insert on B, then a delete on A. With the delete held back, B's page is
    reloaded in the middle: the next page finishes the move, and the card is on B once and off
    A. A second card dropped with Alt is copied (still on A)."""
    board_a = run.new_board("out-a")
    board_b = run.new_board("out-b", [("todo", "To do", [("b1", "Plan")]), ("doing", "Doing", [("d1", "Sketch"), ("d2", "Build")])])
    a = run.open_board("A", board_a, "Ada")
    b = run.open_board("B", board_b, "Bob")
    started = drag_out(a, "t2")
    data = started["data"]
    link = f"{run.server.origin}/b/{board_a}#card-t2"
    if data.get("text/plain") != "Review the client" or data.get("text/uri-list") != link or "application/x-corkboard+json" not in data:
        raise ScenarioFailure(f"the drag out of t2 carries {data}")
    # The delete on A waits (the request hangs) while B's page is reloaded.
    held = []
    route = f"**/api/boards/{board_a}/ops"
    b.route(route, lambda r: held.append(r))
    drop_cards(b, {k: v for k, v in data.items()}, "doing", "d2")
    wait_until("board B has t2 before d2", lambda: dict(run.server.board(board_b)[1])["doing"] == ["d1", "t2", "d2"], timeout=10)
    # (Playwright calls the route's handler only while it is called: the wait gives it a turn.)
    wait_until("B's page asked board A to delete t2", lambda: b.wait_for_timeout(50) or len(held) == 1, timeout=10)
    if "t2" not in dict(run.server.board(board_a)[1])["todo"]:
        raise ScenarioFailure("t2 left board A before its delete was let through")
    b.unroute(route)
    b.reload()
    wait_until("page B is ready again", lambda: b.get_attribute("body", "data-ready", timeout=2000) == "true")
    wait_until("t2 is off board A once B's next page finished the move",
               lambda: "t2" not in dict(run.server.board(board_a)[1])["todo"], timeout=10)
    seq_b, columns_b = run.server.board(board_b)
    ids_b = [i for _, items in columns_b for i in items]
    if ids_b.count("t2") != 1 or seq_b != 1:
        raise ScenarioFailure(f"board B holds {ids_b} at seq {seq_b}: t2 should be there once, from one insert")
    seq_a, _ = run.server.board(board_a)
    if seq_a != 1:
        raise ScenarioFailure(f"board A is at seq {seq_a}: one delete was expected")
    wait_until("page A no longer shows t2", lambda: count(a, 'li.card[data-item-id="t2"]') == 0, timeout=10)
    wait_until("page B shows t2 once", lambda: count(b, 'li.card[data-item-id="t2"]') == 1, timeout=10)
    if b.evaluate("() => localStorage.getItem('corkboard.transfers')") not in (None, "{}"):
        raise ScenarioFailure("B's page still keeps the finished move")
    # With Alt: a copy. t3 stays on A.
    drop_cards(b, drag_out(a, "t3")["data"], "todo", None, alt=True)
    wait_until("board B has a copy of t3", lambda: dict(run.server.board(board_b)[1])["todo"] == ["b1", "t3"], timeout=10)
    b.wait_for_timeout(500)
    if "t3" not in dict(run.server.board(board_a)[1])["todo"]:
        raise ScenarioFailure("a copy (Alt) took t3 off board A")
    no_page_problems(run)
    return "t2 moved from A to B (one insert on B, one delete on A) across a reload of B in the middle; t3 copied with Alt"


# A drag by a card's grip that starts in this page (dragstart on the grip, no dragend yet):
# its DataTransfer is kept as the outside drag's, so OUTSIDE_DRAG_EVENT_JS carries it on.
GRIP_DRAG_START_JS = """(id) => {
  const grip = document.querySelector(`li.card[data-item-id="${CSS.escape(id)}"] .card-grip`);
  if (!grip) return null;
  const transfer = new DataTransfer();
  let dropEffect = 'none';
  Object.defineProperty(transfer, 'dropEffect', {get: () => dropEffect, set: (value) => { dropEffect = value; }});
  const event = new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: transfer});
  grip.dispatchEvent(event);
  window.__outsideTransfer = transfer;
  window.__gripDragged = grip;
  return {prevented: event.defaultPrevented, types: [...transfer.types]};
}"""


@scenario("grip-drag-within-board")
def grip_drag_within_board(run):
    """Issue #32, defect 3: a card dragged by its ⠿ grip to another column of its own board
    shows the placeholder there and moves there on release, once (the grip looked like a
    handle, but such a drag showed the browser's drag image, then nothing: no placeholder, no
    move, no message)."""
    board_id = run.new_board("grip")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    started = a.evaluate(GRIP_DRAG_START_JS, "t1")
    if not started or started["prevented"] or "application/x-corkboard+json" not in started["types"]:
        raise ScenarioFailure(f"the grip of t1 did not start a drag carrying the card: {started}")
    point = point_over(a, "done", "x1")
    for kind in ("dragenter", "dragover"):
        taken = outside_drag_event(a, kind, point)
        if not taken["prevented"] or taken["dropEffect"] != "move":
            raise ScenarioFailure(f"the {kind} of the grip's drag over Done was not taken as a move: {taken}")
    wait_placeholder(a, "done", 0)
    if not outside_drag_event(a, "drop", point)["prevented"]:
        raise ScenarioFailure("the drop of the grip's drag over Done was not taken")
    a.evaluate("() => window.__gripDragged.dispatchEvent(new DragEvent('dragend', {bubbles: true}))")
    wait_until("the server has t1 before x1 in Done",
               lambda: dict(run.server.board(board_id)[1]) == {"todo": ["t2", "t3"], "doing": ["d1", "d2"], "done": ["t1", "x1"]},
               timeout=10)
    for label, page in (("A", a), ("B", b)):
        wait_until(f"page {label} shows t1 before x1 in Done",
                   lambda page=page: dict(board_state(page)).get("done") == ["t1", "x1"], timeout=5)
    wait_until("page A has no li.placeholder after the drop", lambda: count(a, "li.placeholder") == 0, timeout=3)
    seq, _ = run.server.board(board_id)
    if seq != 1:
        raise ScenarioFailure(f"the board is at seq {seq}: one move was expected")
    no_page_problems(run)
    return "t1 dragged by its grip from To do to Done: placeholder before x1, one move, seen by B"


# ---------------------------------------------------------------------------------------------
# Folders: a folder is a card whose own list (board.folders[id]) opens in place under it.


def folder_columns():
    """To do holds the folder f1 "Ideas" (a1, a2 inside); Doing the folder f3 "Archive", which
    takes no drops (c1 inside). (id, label, accepts) is a folder."""
    return [("todo", "To do", [("f1", "Ideas", True), ("t1", "Write the tests"), ("t2", "Review the client")]),
            ("doing", "Doing", [("f3", "Archive", False), ("d1", "Drag me around")]),
            ("done", "Done", [("x1", "Start the server")])]


def folder_contents():
    return {"f1": [("a1", "Inside"), ("a2", "Also inside")], "f3": [("c1", "Kept")]}


def new_folder_board(run, prefix):
    run.boards += 1
    board_id = f"{prefix}-{run.boards}"
    run.server.create_board(board_id, f"{prefix} {run.boards}", folder_columns(), folders=folder_contents())
    return board_id


def server_folders(run, board_id):
    """{folder id: [item ids]} as the server has it, and {column id: [item ids]}."""
    document = run.server.document(board_id)
    return ({f: [i["id"] for i in items] for f, items in (document.get("folders") or {}).items()},
            {c["id"]: [i["id"] for i in c["items"]] for c in document["collections"]})


def wait_server_folders(run, board_id, what, probe, timeout=10.0):
    try:
        return wait_until(f"the server's board {board_id}: {what}", lambda: probe(*server_folders(run, board_id)), timeout)
    except ScenarioFailure as failure:
        raise ScenarioFailure(f"{failure}\n  the server has folders {server_folders(run, board_id)[0]}, "
                              f"columns {server_folders(run, board_id)[1]}")


def folder_card(page, folder_id):
    return page.locator(f'li.card.folder[data-item-id="{folder_id}"]')


# The cards drawn in an open folder's own list, in order (null when the folder is not drawn open).
FOLDER_CARDS_JS = """(folder) => {
  const list = document.querySelector(`li.card[data-item-id="${folder}"] > ol.folder-cards`);
  return list ? [...list.querySelectorAll(':scope > li.card[data-item-id]')].map(el => el.dataset.itemId) : null;
}"""

# Index of my placeholder among the cards of an open folder's list, my lifted card(s) left out.
FOLDER_PLACEHOLDER_JS = """(folder) => {
  const list = document.querySelector(`li.card[data-item-id="${folder}"] > ol.folder-cards`);
  if (!list) return null;
  const slots = [...list.children].filter(el => el.matches('li.placeholder') ||
    (el.matches('li.card[data-item-id]') && !el.classList.contains('lifted')));
  return slots.findIndex(el => el.matches('li.placeholder'));
}"""

# Index of someone's ghost among the cards of an open folder's list, the cards they hold left out.
FOLDER_GHOST_JS = """([folder, client]) => {
  const list = document.querySelector(`li.card[data-item-id="${folder}"] > ol.folder-cards`);
  if (!list) return null;
  const slots = [...list.children].filter(el => el.matches('li.ghost-slot') ||
    (el.matches('li.card[data-item-id]') && el.dataset.heldBy !== client));
  return slots.findIndex(el => el.matches(`li.ghost-slot[data-client="${client}"]`));
}"""


def folder_cards(page, folder_id):
    return page.evaluate(FOLDER_CARDS_JS, folder_id)


def set_folder_open(page, folder_id, wanted):
    """Clicks the folder's toggle unless it already is as wanted; waits for aria-expanded."""
    folder = folder_card(page, folder_id)
    if folder.get_attribute("aria-expanded") != ("true" if wanted else "false"):
        folder.locator(":scope > button.folder-toggle").click()
    state = "true" if wanted else "false"
    wait_until(f"folder {folder_id} has aria-expanded={state} on its card and its toggle",
               lambda: folder.get_attribute("aria-expanded") == state
               and folder.locator(":scope > button.folder-toggle").get_attribute("aria-expanded") == state, timeout=3)
    # The cards under it glide to their new places: a press aimed at one mid-glide would miss it.
    wait_until("no animation runs after the folder opened or closed",
               lambda: page.evaluate("() => document.getAnimations().length") == 0, timeout=3)


def hover_folder_head(page, folder_id):
    """Moves the pointer, in steps, onto the folder card's own row (its label), not its list."""
    box = folder_card(page, folder_id).locator(":scope > .card-label").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=12)


@scenario("folder-open-remembered")
def folder_open_remembered(run):
    """A folder card shows its count and opens in place (aria-expanded) into its cards; the
    choice outlives a reload, is this person's (another one sees it closed), and closing is
    remembered too."""
    board_id = new_folder_board(run, "folder-open")
    a = run.open_board("A", board_id, "Ada")
    count_text = folder_card(a, "f1").locator(":scope > .folder-count").inner_text().strip()
    if count_text != "2":
        raise ScenarioFailure(f"folder f1's count says {count_text!r}, not 2 (it holds a1 and a2)")
    if folder_cards(a, "f1") is not None or count(a, 'li.card[data-item-id="a1"]'):
        raise ScenarioFailure("a closed folder draws its cards")
    set_folder_open(a, "f1", True)
    wait_until("page A draws a1 and a2 inside the open folder f1", lambda: folder_cards(a, "f1") == ["a1", "a2"], timeout=3)
    a.reload()
    wait_until("page A is ready again after the reload", lambda: a.get_attribute("body", "data-ready", timeout=2000) == "true")
    wait_until("f1 is still open after the reload, its cards drawn",
               lambda: folder_card(a, "f1").get_attribute("aria-expanded") == "true" and folder_cards(a, "f1") == ["a1", "a2"])
    if folder_card(a, "f3").get_attribute("aria-expanded") != "false":
        raise ScenarioFailure("f3, never opened, is not closed after the reload")
    b = run.open_board("B", board_id, "Bob")
    if folder_card(b, "f1").get_attribute("aria-expanded") != "false":
        raise ScenarioFailure("Bob, in another browser, sees Ada's open folder open")
    set_folder_open(a, "f1", False)
    a.reload()
    wait_until("page A is ready again after the second reload", lambda: a.get_attribute("body", "data-ready", timeout=2000) == "true")
    wait_until("f1 stays closed after closing it and reloading", lambda: folder_card(a, "f1").get_attribute("aria-expanded") == "false")
    if folder_cards(a, "f1") is not None:
        raise ScenarioFailure("the closed folder f1 still draws its cards after the reload")
    no_page_problems(run)
    return "count 2; open, reloaded: open; another person: closed; closed, reloaded: closed"


@scenario("folder-drop")
def folder_drop(run):
    """Page A drags a card into an open folder between its cards (page B, with the folder
    open too, sees A's ghost inside it), holds another over a closed folder until it is marked
    drop-into and drops it there (its end), passes over a folder that takes no drops without
    a mark, and drags a card out of a folder into a column. The server has each in place."""
    board_id = new_folder_board(run, "folder-drop")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    set_folder_open(a, "f1", True)
    set_folder_open(b, "f1", True)

    # Into an open folder, before a2.
    pointer_pick_up(a, "t2")
    box = a.locator('li.card[data-item-id="f1"] > ol.folder-cards > li.card[data-item-id="a2"]').bounding_box()
    a.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.25, steps=15)
    wait_until("my placeholder is at index 1 of the open folder f1",
               lambda: a.evaluate(FOLDER_PLACEHOLDER_JS, "f1") == 1, timeout=5)
    held = b.locator('li.card.held[data-item-id="t2"][data-held-by]')
    held.wait_for(state="attached", timeout=5000)
    holder = held.get_attribute("data-held-by")
    wait_until(f"page B shows Ada's ghost (li.ghost-slot[data-client={holder}]) at index 1 inside the open folder f1",
               lambda: b.evaluate(FOLDER_GHOST_JS, ["f1", holder]) == 1, timeout=5)
    a.mouse.up()
    wait_server_folders(run, board_id, "f1 holds a1, t2, a2", lambda folders, columns: folders.get("f1") == ["a1", "t2", "a2"])
    for label, page in (("A", a), ("B", b)):
        wait_until(f"page {label} draws a1, t2, a2 in f1", lambda page=page: folder_cards(page, "f1") == ["a1", "t2", "a2"])
    wait_until("page B shows no ghost after the drop", lambda: count(b, "li.ghost-slot") == 0, timeout=5)

    # Onto a closed folder, held there: into its end.
    set_folder_open(a, "f1", False)
    pointer_pick_up(a, "t1")
    hover_folder_head(a, "f1")
    wait_until("f1 is marked drop-into after the pointer stays on it",
               lambda: count(a, 'li.card.folder.drop-into[data-item-id="f1"]') == 1, timeout=3)
    wait_until(f"page B shows Ada's ghost at the end of f1 (index 3) while the card is over f1",
               lambda: b.evaluate(FOLDER_GHOST_JS, ["f1", holder]) == 3, timeout=5)
    a.mouse.up()
    wait_server_folders(run, board_id, "t1 at the end of f1", lambda folders, columns: folders.get("f1") == ["a1", "t2", "a2", "t1"])
    wait_until("page B draws t1 at the end of its open f1", lambda: folder_cards(b, "f1") == ["a1", "t2", "a2", "t1"])
    wait_until("page A has no .drop-into, .lifted or placeholder after the drop",
               lambda: count(a, ".drop-into, .lifted, li.placeholder") == 0, timeout=3)
    count_text = folder_card(a, "f1").locator(":scope > .folder-count").inner_text().strip()
    if count_text != "4":
        raise ScenarioFailure(f"f1's count says {count_text!r} after the drop, not 4")

    # A folder that takes no drops is never marked; Escape cancels.
    pointer_pick_up(a, "d1")
    hover_folder_head(a, "f3")
    a.wait_for_timeout(900)
    if count(a, ".drop-into"):
        raise ScenarioFailure("the folder f3, which takes no drops, was marked drop-into")
    a.keyboard.press("Escape")
    wait_until("no .lifted card after Escape", lambda: count(a, ".lifted") == 0, timeout=5)

    # Out of a folder, into a column.
    set_folder_open(a, "f1", True)
    pointer_pick_up(a, "a1")
    pointer_move_before(a, "done", "x1")
    wait_placeholder(a, "done", 0)
    a.mouse.up()
    wait_server_folders(run, board_id, "a1 out of f1, before x1 in done",
                        lambda folders, columns: folders.get("f1") == ["t2", "a2", "t1"] and columns["done"] == ["a1", "x1"])
    wait_until("page B draws f1 without a1", lambda: folder_cards(b, "f1") == ["t2", "a2", "t1"])
    no_page_problems(run)
    return "into an open folder (B saw the ghost inside), onto a closed one after the dwell, none onto a folder refusing drops, out to a column"


@scenario("folder-stays-under-pointer")
def folder_stays_under_pointer(run):
    """Issue #32, defect 5: a card carried from another column onto the top of a closed folder
    that takes it does not open the placeholder before the folder, pushing the folder from
    under the pointer (the drop into it then never armed until the person chased it): the
    folder stays where it was, held there it is marked drop-into, and a release puts the card
    at its end."""
    board_id = new_folder_board(run, "folder-stays")
    a = run.open_board("A", board_id, "Ada")
    set_folder_open(a, "f1", False)
    pointer_pick_up(a, "d1")
    before = folder_card(a, "f1").bounding_box()
    x, y = before["x"] + before["width"] / 2, before["y"] + before["height"] * 0.2
    a.mouse.move(x, y, steps=12)
    try:
        wait_until("f1 is marked drop-into with the pointer held on its upper part",
                   lambda: count(a, 'li.card.folder.drop-into[data-item-id="f1"]') == 1, timeout=3)
    except ScenarioFailure as failure:
        now = folder_card(a, "f1").bounding_box()
        raise ScenarioFailure(f"{failure}\n  f1 was at y {before['y']:.0f} when the pointer went to y {y:.0f}; it is at "
                              f"y {now['y']:.0f} now (placeholder index in To do: {a.evaluate(PLACEHOLDER_INDEX_JS, 'todo')})")
    after = folder_card(a, "f1").bounding_box()
    if abs(after["y"] - before["y"]) > 1:
        raise ScenarioFailure(f"f1 moved from y {before['y']:.0f} to {after['y']:.0f} under the pointer")
    a.mouse.up()
    wait_server_folders(run, board_id, "d1 at the end of f1",
                        lambda folders, columns: folders.get("f1") == ["a1", "a2", "d1"] and columns["doing"] == ["f3"])
    wait_until("page A has no .drop-into, .lifted or placeholder after the drop",
               lambda: count(a, ".drop-into, .lifted, li.placeholder") == 0, timeout=3)
    no_page_problems(run)
    return f"f1 stayed at y {before['y']:.0f} under the pointer, armed and took d1 at its end"


@scenario("folder-keyboard")
def folder_keyboard(run):
    """Move to… lists the folders that take drops ("Ideas (folder in To do)", not the one that
    refuses them) and moves a card into one; a folder's own Move to… leaves itself out; "+
    Folder" makes a folder; the folder's menu stops it accepting drops, after which a move into
    it that the page had offered is refused with a notice."""
    board_id = new_folder_board(run, "folder-keys")
    a = run.open_board("A", board_id, "Ada")
    dialog = a.locator("dialog#move-to")

    def open_move_to(item_id):
        card(a, item_id).focus()
        a.keyboard.press("m")
        a.get_by_role("menuitem", name="Move to…").click()
        wait_until("the Move to… dialog is open", lambda: dialog.is_visible(), timeout=3)
        return dialog.locator("select[name=collection] option").evaluate_all(
            "options => options.map(o => [o.value, o.textContent])")

    offered = open_move_to("t1")
    if ["f1", "Ideas (folder in To do)"] not in offered:
        raise ScenarioFailure(f"Move to… does not offer the folder as \"Ideas (folder in To do)\": {offered}")
    if any(value == "f3" for value, _ in offered):
        raise ScenarioFailure(f"Move to… offers f3, which takes no drops: {offered}")
    dialog.locator("select[name=collection]").select_option("f1")
    positions = dialog.locator("select[name=position] option").evaluate_all("options => options.map(o => o.value)")
    if positions != ["top", "bottom", "a1", "a2"]:
        raise ScenarioFailure(f"the positions offered in f1 are {positions}, not top, bottom, before a1, before a2")
    dialog.locator("button[value=move]").click()
    wait_server_folders(run, board_id, "t1 at the end of f1", lambda folders, columns: folders.get("f1") == ["a1", "a2", "t1"])

    offered = open_move_to("f1")
    if any(value == "f1" for value, _ in offered):
        raise ScenarioFailure(f"a folder's Move to… offers the folder itself: {offered}")
    dialog.locator("button[value=cancel]").click()

    # A new folder, from the column's "+ Folder".
    a.locator('section.column[data-collection-id="done"] button.add-folder').click()
    a.keyboard.type("Someday")
    a.keyboard.press("Enter")
    wait_server_folders(run, board_id, "done holds a new folder",
                        lambda folders, columns: len(columns["done"]) == 2 and columns["done"][1] in folders)
    wait_until("page A draws the new folder in done",
               lambda: count(a, 'section.column[data-collection-id="done"] li.card.folder') == 1, timeout=5)

    # Stop f1 accepting drops from its menu; the server has it.
    card(a, "f1").focus()
    a.keyboard.press("m")
    a.get_by_role("menuitem", name="Stop accepting drops").click()
    wait_until("the server's f1 no longer accepts drops",
               lambda: run.server.document(board_id)["collections"][0]["items"][0].get("folder") == {"accepts": False})
    wait_until("page A marks f1 data-accepts=false", lambda: folder_card(a, "f1").get_attribute("data-accepts") == "false", timeout=5)
    offered = open_move_to("t2")
    if any(value == "f1" for value, _ in offered):
        raise ScenarioFailure(f"Move to… still offers f1 after it stopped accepting drops: {offered}")
    # The dialog chose while f1 took drops; it stops (someone else) before the move: refused, with a notice.
    run.server.post_op(board_id, {"type": "update", "opId": "accepts-on", "baseSeq": 0, "item": "f1", "accepts": True})
    wait_until("page A marks f1 data-accepts=true", lambda: folder_card(a, "f1").get_attribute("data-accepts") == "true", timeout=5)
    dialog.locator("button[value=cancel]").click()
    open_move_to("t2")
    dialog.locator("select[name=collection]").select_option("f1")
    run.server.post_op(board_id, {"type": "update", "opId": "accepts-off", "baseSeq": 0, "item": "f1", "accepts": False})
    wait_until("page A marks f1 data-accepts=false again", lambda: folder_card(a, "f1").get_attribute("data-accepts") == "false", timeout=5)
    dialog.locator("button[value=move]").click()
    notice = a.locator("#notice")
    wait_until("the notice says the folder takes no cards now",
               lambda: notice.is_visible() and "folder" in notice.inner_text(), timeout=5)
    _, columns = server_folders(run, board_id)
    if "t2" not in columns["todo"]:
        raise ScenarioFailure(f"t2 left To do although the move was refused: {columns}")
    no_page_problems(run)
    return f"Move to… offered {offered}; t1 moved into f1; a new folder; accepts switched; a refused move noticed: {notice.inner_text()!r}"


@scenario("folder-delete-asks")
def folder_delete_asks(run):
    """Deleting a folder that holds cards asks first, in the page's own dialog (a modal
    <dialog>, not window.confirm), naming how many cards go with it: Cancel keeps everything,
    Delete removes the folder and its cards for everyone, and Ctrl+Z brings them all back
    (issue #32's defect 4)."""
    board_id = new_folder_board(run, "folder-delete")
    a = run.open_board("A", board_id, "Ada")
    asked_natively = []
    a.on("dialog", lambda native: (asked_natively.append(native.message), native.dismiss()))
    dialog = a.locator("#delete-confirm")

    def ask_to_delete_f1():
        card(a, "f1").focus()
        a.keyboard.press("m")
        a.get_by_role("menuitem", name="Delete").click()
        wait_until("the page asks in its own dialog before deleting the folder f1",
                   lambda: dialog.evaluate("d => d.open") or bool(asked_natively), timeout=3)
        if asked_natively:
            raise ScenarioFailure(f"the page asked with window.confirm: {asked_natively}")

    ask_to_delete_f1()
    question = dialog.inner_text()
    if "2 cards" not in question or "Ideas" not in question:
        raise ScenarioFailure(f"the question does not name the folder and its 2 cards: {question!r}")
    dialog.locator("button[value=cancel]").click()
    wait_until("the dialog closes on Cancel", lambda: not dialog.evaluate("d => d.open"), timeout=3)
    folders, columns = server_folders(run, board_id)
    if "f1" not in columns["todo"] or folders.get("f1") != ["a1", "a2"]:
        raise ScenarioFailure(f"Cancel deleted something: folders {folders}, columns {columns}")

    ask_to_delete_f1()
    dialog.locator("button[value=delete]").click()
    wait_server_folders(run, board_id, "f1 and its cards deleted",
                        lambda folders, columns: "f1" not in columns["todo"] and "f1" not in folders)
    notice = a.locator("#notice")
    wait_until("the notice names the cards that went", lambda: notice.is_visible() and "2 cards" in notice.inner_text(), timeout=5)
    said = notice.inner_text()
    a.keyboard.press("Control+z")
    wait_server_folders(run, board_id, "Ctrl+Z brought f1 back with a1 and a2",
                        lambda folders, columns: "f1" in columns["todo"] and folders.get("f1") == ["a1", "a2"])
    no_page_problems(run)
    return f"asked {question.splitlines()[0]!r}; cancelled, then deleted ({said!r}); undone"


# ---------------------------------------------------------------------------------------------
# Columns reordered and removed with their cards (issue #32)

COLUMN_ORDER_JS = """() => [...document.querySelectorAll('#board > section.column[data-collection-id]')]
  .map(column => column.dataset.collectionId)"""

# Index of my column placeholder among the columns, the carried (hidden) one left out.
COLUMN_PLACEHOLDER_INDEX_JS = """() => [...document.querySelectorAll('#board > section.column[data-collection-id], #board > .column-placeholder')]
  .filter(el => !el.classList.contains('column-lifted')).findIndex(el => el.matches('.column-placeholder'))"""


# Someone else's drag of a column as a page shows it: the name on the held column's badge,
# and the index of their ghost among the columns with the held one left out (as drag.over counts).
REMOTE_COLUMN_DRAG_JS = """(column) => {
  const held = document.querySelector(`#board > section.column.column-held[data-collection-id="${column}"]`);
  const badge = held?.querySelector(':scope > .column-held-badge')?.textContent ?? null;
  const others = [...document.querySelectorAll('#board > section.column[data-collection-id], #board > .column-ghost')]
    .filter(el => el.dataset.collectionId !== column);
  return [badge, others.findIndex(el => el.matches('.column-ghost'))];
}"""


def column_order(page):
    return page.evaluate(COLUMN_ORDER_JS)


def remote_column_drag(page, column):
    """[holder's name on the held column's badge or None, the ghost's index among the others or -1]."""
    return page.evaluate(REMOTE_COLUMN_DRAG_JS, column)


def wait_remote_column_drag(page, label, column, holder, index):
    """Page `label` shows `column` held by `holder` and their ghost at `index` (None: any index
    from 1) among the other columns: a drag in progress, before its drop."""
    def shown():
        badge, at = remote_column_drag(page, column)
        return badge == holder and (at == index if index is not None else at >= 1)
    try:
        wait_until(f"page {label} shows the column {column} held by {holder} (section.column.column-held, "
                   f".column-held-badge) and their .column-ghost at index {index if index is not None else '≥ 1'}",
                   shown, timeout=5)
    except ScenarioFailure as failure:
        raise ScenarioFailure(f"{failure}\n  page {label} shows [badge, ghost index] = {remote_column_drag(page, column)}")


def wait_no_remote_column_drag(page, label, what):
    wait_until(f"page {label} shows no column held and no .column-ghost ({what})",
               lambda: count(page, ".column-held, .column-ghost, .column-held-badge") == 0, timeout=5)


def grip(page, collection_id):
    return page.locator(f'section.column[data-collection-id="{collection_id}"] .column-grip')


def server_column_order(run, board_id):
    _, shown = run.server.board(board_id)
    return [c for c, _ in shown]


def wait_columns(run, board_id, pages, expected, what):
    """The server and every page of `pages` ({label: page}) show the columns in `expected` order."""
    try:
        wait_until(f"the server has the columns in the order {expected} ({what})",
                   lambda: server_column_order(run, board_id) == expected, timeout=10)
    except ScenarioFailure as failure:
        raise ScenarioFailure(f"{failure}\n  the server has {server_column_order(run, board_id)}")
    for label, page in pages.items():
        try:
            wait_until(f"page {label} shows the columns in the order {expected} ({what})",
                       lambda page=page: column_order(page) == expected, timeout=10)
        except ScenarioFailure as failure:
            raise ScenarioFailure(f"{failure}\n  page {label} shows {column_order(page)}")


def open_column_menu(page, collection_id, entry):
    page.locator(f'section.column[data-collection-id="{collection_id}"] .column-menu').click()
    page.get_by_role("menuitem", name=entry).click()


@scenario("column-pointer-drag")
def column_pointer_drag(run):
    """A column dragged by its grip with the mouse: a placeholder opens among the columns where
    it would land, and the drop is one move that page B shows at once."""
    board_id = run.new_board("column-pointer")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    name = grip(a, "todo").get_attribute("aria-label")
    if name != "Move the column To do":
        raise ScenarioFailure(f"the grip's accessible name is {name!r}, not 'Move the column To do'")
    x, y = center(grip(a, "todo"))
    a.mouse.move(x, y)
    a.mouse.down()
    a.mouse.move(x + 20, y + 4, steps=4)
    wait_until("the To do column is lifted (section.column.column-lifted) and a .column-placeholder shows",
               lambda: count(a, 'section.column.column-lifted[data-collection-id="todo"]') == 1
               and count(a, ".column-placeholder") == 1, timeout=5)
    done = a.locator('section.column[data-collection-id="done"]').bounding_box()
    a.mouse.move(done["x"] + done["width"] * 0.8, y + 40, steps=15)
    wait_until("the column placeholder is after Doing and Done (index 2)",
               lambda: a.evaluate(COLUMN_PLACEHOLDER_INDEX_JS) == 2, timeout=5)
    # In progress, before the drop: B sees who holds To do and where it would land.
    wait_remote_column_drag(b, "B", "todo", "Ada", 2)
    a.mouse.up()
    wait_columns(run, board_id, {"A": a, "B": b}, ["doing", "done", "todo"], "To do dropped after Done")
    if count(a, ".column-placeholder, .column-lifted, .column-avatar"):
        raise ScenarioFailure("page A still shows traces of the column drag after the drop")
    wait_no_remote_column_drag(b, "B", "after A's drop")
    return "B saw To do held by Ada with its ghost after Done, then the drop"


@scenario("column-touch-drag")
def column_touch_drag(run):
    """On a phone, a finger held on a column's grip picks the column up; near the screen's right
    edge the board scrolls; released there, the column moves, and page B shows it."""
    board_id = run.new_board("column-touch")
    a = run.open_board("A", board_id, "Ada", device=PHONE)
    b = run.open_board("B", board_id, "Bob")
    finger = Finger(a)
    x, y = center(grip(a, "todo"))
    finger.down(x, y)
    try:
        wait_until("the To do column is picked up after the finger held still on its grip",
                   lambda: count(a, 'section.column.column-lifted[data-collection-id="todo"]') == 1, timeout=3)
        # Held, before it moves: B sees To do held by Ada, its ghost where it was.
        wait_remote_column_drag(b, "B", "todo", "Ada", 0)
        finger.move(PHONE["viewport"]["width"] - 6, y + 60, steps=10)
        wait_until("the board scrolls while the finger waits at the right edge, the placeholder passing Doing",
                   lambda: (a.evaluate(COLUMN_PLACEHOLDER_INDEX_JS) or 0) >= 1, timeout=8)
        wait_remote_column_drag(b, "B", "todo", "Ada", None)
    finally:
        finger.up()
    wait_until("the server moved To do", lambda: server_column_order(run, board_id)[0] != "todo", timeout=10)
    order = server_column_order(run, board_id)
    wait_columns(run, board_id, {"A": a, "B": b}, order, "To do dropped by a finger")
    wait_no_remote_column_drag(b, "B", "after A's drop")
    return f"B saw To do carried by a finger; the columns are now {order} on the server and both pages"


@scenario("column-keyboard-drag")
def column_keyboard_drag(run):
    """On a focused grip: Space picks the column up, ArrowRight and End carry it, Escape puts it
    back (nothing sent); Space, ArrowRight, Space moves it, every step announced; B sees it."""
    board_id = run.new_board("column-keys")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    a.evaluate(RECORD_ANNOUNCEMENTS_JS)
    grip(a, "todo").focus()
    heard = press_and_hear(a, "Space", 0, "Space (pick up the column)")
    wait_until("To do is carried by keyboard (section.column.column-keyboard-lifted)",
               lambda: count(a, 'section.column.column-keyboard-lifted[data-collection-id="todo"]') == 1, timeout=5)
    wait_remote_column_drag(b, "B", "todo", "Ada", 0)
    heard = press_and_hear(a, "End", heard, "End")
    if column_order(a) != ["doing", "done", "todo"]:
        raise ScenarioFailure(f"End did not carry To do to the end: {column_order(a)}")
    wait_remote_column_drag(b, "B", "todo", "Ada", 2)
    heard = press_and_hear(a, "Escape", heard, "Escape (cancel)")
    wait_until("To do is back first after Escape", lambda: column_order(a) == ["todo", "doing", "done"], timeout=5)
    wait_no_remote_column_drag(b, "B", "A cancelled with Escape")
    a.wait_for_timeout(300)
    if run.server.board(board_id)[0] != 0:
        raise ScenarioFailure(f"a cancelled column move changed the board: {run.server.board(board_id)}")
    grip(a, "todo").focus()
    heard = press_and_hear(a, "Space", heard, "Space (pick up again)")
    heard = press_and_hear(a, "ArrowRight", heard, "ArrowRight")
    wait_remote_column_drag(b, "B", "todo", "Ada", 1)
    heard = press_and_hear(a, "Space", heard, "Space (drop)")
    wait_columns(run, board_id, {"A": a, "B": b}, ["doing", "todo", "done"], "To do carried one place right")
    wait_no_remote_column_drag(b, "B", "after A's drop")
    said = announcements(a)
    if not any("To do" in text and "Position 2 of 3" in text for text in said):
        raise ScenarioFailure(f"no announcement says where the column To do is (\"Position 2 of 3\"): {said}")
    focused = a.evaluate("() => document.activeElement?.closest('section.column')?.dataset.collectionId")
    if focused != "todo":
        raise ScenarioFailure(f"after the drop the focus is not on To do's grip but in {focused!r}")
    return f"announced: {said}"


@scenario("column-held-busy")
def column_held_busy(run):
    """While A carries Doing by keyboard, B sees it held: B's grip does not pick it up (a notice
    names Ada), and B's Move to… of it is refused busy, shown in B's notice, the column staying
    put; once A drops it, both pages and the server show A's move."""
    board_id = run.new_board("column-busy")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    grip(a, "doing").focus()
    a.keyboard.press("Space")
    wait_remote_column_drag(b, "B", "doing", "Ada", 1)
    notice = b.locator("#notice")
    grip(b, "doing").focus()
    b.keyboard.press("Space")
    wait_until("B's notice says Ada is moving the column Doing",
               lambda: notice.is_visible() and "Ada is moving the column Doing" in notice.inner_text(), timeout=5)
    if count(b, ".column-keyboard-lifted, .column-placeholder"):
        raise ScenarioFailure("page B picked up a column Ada holds")
    open_column_menu(b, "doing", "Move to…")
    b.locator("#column-move-to select[name=position]").select_option("first")
    b.locator("#column-move-to button[value=move]").click()
    wait_until("B's notice says someone is moving that column (the move refused busy)",
               lambda: notice.is_visible() and "moving that column" in notice.inner_text(), timeout=5)
    wait_until("page B shows Doing back in its place", lambda: column_order(b) == ["todo", "doing", "done"], timeout=5)
    if run.server.board(board_id)[0] != 0:
        raise ScenarioFailure(f"B's move of a held column changed the board: {run.server.board(board_id)}")
    a.keyboard.press("ArrowRight")
    wait_remote_column_drag(b, "B", "doing", "Ada", 2)
    a.keyboard.press("Space")
    wait_columns(run, board_id, {"A": a, "B": b}, ["todo", "done", "doing"], "Ada dropped Doing last")
    wait_no_remote_column_drag(b, "B", "after A's drop")
    no_page_problems(run)
    return f"B was told {notice.inner_text()!r}; A's move went through"


@scenario("column-removed-while-carried")
def column_removed_while_carried(run):
    """Someone removes the column A carries by keyboard: A's move ends, a notice says why, and A
    shows the server's columns; nothing is sent for the ended move."""
    board_id = run.new_board("column-gone")
    a = run.open_board("A", board_id, "Ada")
    grip(a, "doing").focus()
    a.keyboard.press("Space")
    a.keyboard.press("ArrowLeft")
    wait_until("page A carries Doing first", lambda: column_order(a) == ["doing", "todo", "done"], timeout=5)
    run.server.post_op(board_id, {"type": "collection.remove", "opId": "remove-doing", "baseSeq": 0,
                                  "collection": "doing", "withItems": True})
    wait_columns(run, board_id, {"A": a}, ["todo", "done"], "Doing removed by someone else")
    notice = a.locator("#notice")
    wait_until("A's notice says the column was removed", lambda: notice.is_visible() and "removed" in notice.inner_text(), timeout=5)
    if count(a, ".column-keyboard-lifted, .column-placeholder"):
        raise ScenarioFailure("page A still shows the ended column move")
    a.wait_for_timeout(300)
    if run.server.board(board_id)[0] != 1:
        raise ScenarioFailure(f"the ended move sent something: {run.server.board(board_id)}")
    no_page_problems(run)
    return f"the move ended with {notice.inner_text()!r}"


@scenario("columns-and-cards-converge")
def columns_and_cards_converge(run):
    """Two people at once: A carries a column by keyboard while B drags a card by pointer to
    another column, both drop; then B moves a column by its menu while A holds a card. Both
    pages end with the server's board, column order and cards alike."""
    board_id = run.new_board("column-race")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    grip(a, "todo").focus()
    a.keyboard.press("Space")
    a.keyboard.press("End")
    pointer_pick_up(b, "t1")
    pointer_move_before(b, "done", "x1")
    wait_placeholder(b, "done", 0)
    a.keyboard.press("Space")
    b.mouse.up()

    def settled():
        seq, shown = run.server.board(board_id)
        return seq if seq >= 2 else None
    wait_until("the server committed both moves", settled, timeout=10)
    _, shown = run.server.board(board_id)
    if [c for c, _ in shown] != ["doing", "done", "todo"] or dict(shown)["done"] != ["t1", "x1"]:
        raise ScenarioFailure(f"the server's board is not the two moves: {shown}")
    for label, page in (("A", a), ("B", b)):
        wait_board(page, label, shown)
    # A holds a card over To do while B moves Done first from its menu: A's columns move under
    # the card in hand, its placeholder stays where it was, and the drop lands there.
    pointer_pick_up(a, "d1")
    pointer_move_before(a, "todo", "t2")
    wait_placeholder(a, "todo", 0)
    open_column_menu(b, "done", "Move to…")
    b.locator("#column-move-to select[name=position]").select_option("first")
    b.locator("#column-move-to button[value=move]").click()
    wait_until("page A, a card in hand, shows Done first", lambda: column_order(a)[0] == "done", timeout=10)
    wait_placeholder(a, "todo", 0)
    a.mouse.up()
    wait_until("the server committed the next two", lambda: run.server.board(board_id)[0] >= 4, timeout=10)
    _, shown = run.server.board(board_id)
    if [c for c, _ in shown][0] != "done" or dict(shown)["todo"][0] != "d1":
        raise ScenarioFailure(f"the server's board is not the next two moves: {shown}")
    for label, page in (("A", a), ("B", b)):
        wait_board(page, label, shown)
    return f"both pages show the server's {shown}"


@scenario("column-move-to")
def column_move_to(run):
    """The column's menu (⋯) offers Move to…: a dialog with First, Before each other column and
    Last; Move moves it, and B sees it; Cancel moves nothing."""
    board_id = run.new_board("column-move-to")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    menu = a.locator('section.column[data-collection-id="done"] .column-menu')
    if menu.get_attribute("aria-haspopup") != "menu" or "Done" not in (menu.get_attribute("aria-label") or ""):
        raise ScenarioFailure(f"the column's menu button is not named for it: {menu.evaluate('el => el.outerHTML')}")
    open_column_menu(a, "done", "Move to…")
    dialog = a.locator("#column-move-to")
    wait_until("the column's Move to… dialog is open", lambda: dialog.evaluate("d => d.open"), timeout=3)
    options = dialog.locator("select[name=position] option").all_inner_texts()
    if options != ["First", "Before “To do”", "Before “Doing”", "Last"]:
        raise ScenarioFailure(f"the positions offered are {options}")
    dialog.locator("button[value=cancel]").click()
    a.wait_for_timeout(300)
    if run.server.board(board_id)[0] != 0:
        raise ScenarioFailure("Cancel moved the column")
    open_column_menu(a, "done", "Move to…")
    dialog.locator("select[name=position]").select_option("first")
    dialog.locator("button[value=move]").click()
    wait_columns(run, board_id, {"A": a, "B": b}, ["done", "todo", "doing"], "Done moved first")
    focused = a.evaluate("() => document.activeElement?.className")
    return f"Done moved first from its menu; focus back on {focused!r}"


@scenario("column-move-undo")
def column_move_undo(run):
    """A column moved by keyboard; the notice offers Undo; Ctrl+Z puts it back for everyone and
    Shift+Ctrl+Z moves it again."""
    board_id = run.new_board("column-undo")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    grip(a, "done").focus()
    a.keyboard.press("Space")
    a.keyboard.press("Home")
    a.keyboard.press("Space")
    pages = {"A": a, "B": b}
    wait_columns(run, board_id, pages, ["done", "todo", "doing"], "Done carried first")
    undo_button = a.locator("#notice .notice-action")
    wait_until("A's notice offers Undo after the column move",
               lambda: undo_button.is_visible() and undo_button.text_content() == "Undo", timeout=5)
    a.keyboard.press("Control+z")
    wait_columns(run, board_id, pages, ["todo", "doing", "done"], "Ctrl+Z")
    a.keyboard.press("Control+Shift+z")
    wait_columns(run, board_id, pages, ["done", "todo", "doing"], "Shift+Ctrl+Z")
    return "moved, undone and redone on both pages and the server"


@scenario("column-remove-with-cards")
def column_remove_with_cards(run):
    """Removing a column that holds cards asks first in the page's dialog naming the column and
    how many cards go; Cancel keeps it; Remove takes it and its cards for everyone; Ctrl+Z brings
    them back. An empty column goes at once."""
    board_id = run.new_board("column-remove")
    start = as_state(standard_columns())
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    asked_natively = []
    a.on("dialog", lambda native: (asked_natively.append(native.message), native.dismiss()))
    dialog = a.locator("#delete-confirm")

    def ask():
        open_column_menu(a, "doing", "Remove the column")
        wait_until("the page asks in its own dialog before removing Doing",
                   lambda: dialog.evaluate("d => d.open") or bool(asked_natively), timeout=3)
        if asked_natively:
            raise ScenarioFailure(f"the page asked with window.confirm: {asked_natively}")

    ask()
    question = dialog.inner_text()
    if "2 cards" not in question or "Doing" not in question:
        raise ScenarioFailure(f"the question does not name the column and its 2 cards: {question!r}")
    dialog.locator("button[value=cancel]").click()
    a.wait_for_timeout(300)
    if run.server.board(board_id)[0] != 0:
        raise ScenarioFailure("Cancel removed something")
    ask()
    dialog.locator("button[value=delete]").click()
    without = [(c, items) for c, items in start if c != "doing"]
    seq = wait_server_board(run, board_id, without)
    wait_board(a, "A", without, seq)
    wait_board(b, "B", without, seq)
    a.keyboard.press("Control+z")
    seq = wait_server_board(run, board_id, start)
    wait_board(a, "A", start, seq)
    wait_board(b, "B", start, seq)
    # An empty column goes at once, without a question.
    run.server.post_op(board_id, {"type": "collection.add", "opId": "add-empty", "baseSeq": run.server.board(board_id)[0],
                                  "collection": {"id": "empty", "title": "Empty"}, "before": None})
    wait_until("page A shows the column Empty", lambda: "empty" in column_order(a), timeout=5)
    open_column_menu(a, "empty", "Remove the column")
    wait_until("the empty column is removed without a question",
               lambda: "empty" not in server_column_order(run, board_id) and not dialog.evaluate("d => d.open"), timeout=5)
    no_page_problems(run)
    return f"asked {question.splitlines()[0]!r}; cancelled, removed with its cards, undone; an empty one went at once"


MENU_ITEMS_JS = """() => [...document.querySelectorAll('.menu [role=menuitem]')].map(item => item.textContent)"""


def menu_items(page, item_id):
    """The entries of the card's menu, opened with M on the focused card ([] when none opens)."""
    page.keyboard.press("Escape")
    card(page, item_id).focus()
    page.keyboard.press("m")
    return page.evaluate(MENU_ITEMS_JS)


@scenario("viewer-and-refused")
def viewer_and_refused(run):
    """A viewer's page offers no change: a card's menu has no Move to…/Edit/Delete (a card shows
    no ⋯ and no grip), a folder's only Open folder. A page with no token, or a wrong one, on a
    server that asks for tokens says so in its header (badge and title), not "Offline" and "…"
    (issue #32's defect 7); `/` without a token there says one is needed without a 401 in the
    console (defect 8)."""
    board_id = new_folder_board(run, "viewer")
    tokens = os.path.join(run.args.output, "viewer-tokens.json")
    with open(tokens, "w", encoding="utf-8") as file:
        json.dump({"tokens": [{"token": "viewer-token-for-the-scenario", "role": "viewer", "boards": "*"}]}, file)
    try:
        run.restart_server(("--tokens", tokens))
        # The board list without a token learns from GET /api that it needs one: no 401 (a
        # console error in every browser) on the way.
        home = run.new_page("H")
        home.goto(run.server.origin + "/")
        wait_until("/ without a token says the server asks for one",
                   lambda: "asks for a token" in home.locator("#board-list").inner_text(timeout=2000), timeout=10)
        no_page_problems(run)
        run.recorder.begin_refusals(run.server.origin)
        viewer = run.new_page("V")
        viewer.goto(f"{run.server.origin}/b/{board_id}?token=viewer-token-for-the-scenario&name=Vi")
        wait_until("the viewer's page is live", lambda: connection_state(viewer) == "connected", timeout=10)
        wait_until("the viewer's page says it is view only", lambda: viewer.locator("#readonly").is_visible(), timeout=5)
        offered = menu_items(viewer, "t1")
        if offered:
            raise ScenarioFailure(f"a viewer's card menu offers {offered}")
        if card(viewer, "t1").locator(".card-menu").is_visible() or card(viewer, "t1").locator(".card-grip").is_visible():
            raise ScenarioFailure("a viewer's card shows its ⋯ or its grip")
        card(viewer, "t1").hover()
        if card(viewer, "t1").locator(".card-menu").is_visible() or card(viewer, "t1").locator(".card-grip").is_visible():
            raise ScenarioFailure("a viewer's card shows its ⋯ or its grip under the pointer")
        folder_offers = menu_items(viewer, "f1")
        if folder_offers != ["Open folder"]:
            raise ScenarioFailure(f"a viewer's folder menu offers {folder_offers}, not only Open folder")
        if viewer.locator("button.add-card:visible, button.add-folder:visible, button.add-column:visible").count():
            raise ScenarioFailure("a viewer's page shows a button that adds cards, folders or columns")

        shown = {}
        for label, query, heading in (("N", "", "Token needed"), ("W", "?token=not-a-token", "Token refused")):
            page = run.new_page(label)
            page.goto(f"{run.server.origin}/b/{board_id}{query}")
            wait_until(f"page {label} settles on its refusal", lambda: connection_state(page) == "refused", timeout=10)
            title = page.locator("#board-title").inner_text()
            badge = page.locator("#connection").inner_text()
            if title != heading or badge == "Offline" or page.title() != f"{heading} · Corkboard":
                raise ScenarioFailure(f"page {label}: title {title!r} (tab {page.title()!r}), badge {badge!r}; "
                                      f"wanted the title {heading!r} and a badge other than Offline")
            if "?token=" not in page.locator("#board").inner_text():
                raise ScenarioFailure(f"page {label} does not say what to do: {page.locator('#board').inner_text()!r}")
            shown[label] = (title, badge)
        run.recorder.end_refusals()
        return f"viewer's menus: card {offered}, folder {folder_offers}; no token: {shown['N']}; a wrong one: {shown['W']}"
    finally:
        run.recorder.end_refusals()
        run.close_pages()
        run.restart_server()


# axe-core's impacts that fail the check; "moderate" and "minor" are listed, not failed.
AXE_FAILING_IMPACTS = ("serious", "critical")


def axe_findings(page, what):
    """axe-core (axe-playwright-python's bundled copy) over the page as it is now: its violations
    as (what, rule id, impact, count of nodes, first targets)."""
    from axe_playwright_python.sync_playwright import Axe
    results = Axe().run(page).response
    return [(what, v["id"], v["impact"], len(v["nodes"]), [", ".join(n["target"]) for n in v["nodes"][:3]])
            for v in results["violations"]]


@scenario("axe")
def axe_check(run):
    """axe-core over the home page, a board, an open folder, the Move to… dialog, a viewer's page
    and a phone: no serious or critical violation (issue #32, defect 9)."""
    findings = []
    home = run.new_page("H")
    home.goto(run.server.origin + "/")
    wait_until("the home page lists the boards", lambda: home.get_attribute("body", "data-ready", timeout=2000) == "true")
    findings += axe_findings(home, "home page")

    board_id = new_folder_board(run, "axe")
    a = run.open_board("A", board_id, "Ada")
    card(a, "t1").click(modifiers=["Control"])
    card(a, "t2").click(modifiers=["Control"])
    findings += axe_findings(a, "a board (two cards selected)")
    set_folder_open(a, "f1", True)
    findings += axe_findings(a, "an open folder")
    card(a, "t1").focus()
    a.keyboard.press("m")
    a.get_by_role("menuitem", name="Move to…").click()
    wait_until("the Move to… dialog is open", lambda: a.locator("#move-to").evaluate("d => d.open"), timeout=3)
    findings += axe_findings(a, "the Move to… dialog")
    a.keyboard.press("Escape")

    phone = run.open_board("P", board_id, "Pat", device=PHONE)
    findings += axe_findings(phone, "a phone")

    tokens = os.path.join(run.args.output, "axe-tokens.json")
    with open(tokens, "w", encoding="utf-8") as file:
        json.dump({"tokens": [{"token": "viewer-token-for-axe", "role": "viewer", "boards": "*"}]}, file)
    try:
        run.close_pages()
        run.restart_server(("--tokens", tokens))
        viewer = run.new_page("V")
        viewer.goto(f"{run.server.origin}/b/{board_id}?token=viewer-token-for-axe&name=Vi")
        wait_until("the viewer's page is live", lambda: connection_state(viewer) == "connected", timeout=10)
        findings += axe_findings(viewer, "a viewer's page")
    finally:
        run.close_pages()
        run.restart_server()
    failing = [f for f in findings if f[2] in AXE_FAILING_IMPACTS]
    listed = "\n".join(f"  {what}: {rule} ({impact}) on {nodes} node(s): {targets}" for what, rule, impact, nodes, targets in findings)
    if failing:
        raise ScenarioFailure(f"axe-core found {len(failing)} serious or critical violation(s):\n{listed}")
    return "no serious or critical violation on 6 pages" + (f"; lesser ones:\n{listed}" if findings else "")


PRESENCE_NAMES_JS = "() => [...document.querySelectorAll('#presence li[data-client]')].map(li => li.textContent.trim())"


@scenario("set-name")
def set_name(run):
    """Ada opens her own chip from the keyboard: a labelled name field. A name over the
    server's 256 bytes is refused at the field with a message; "Ada Lovelace" is saved, page B
    names her so (and no longer "Ada"), and page A, loaded again without ?name=, keeps it."""
    board_id = run.new_board("set-name")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    wait_until("page B names Ada", lambda: "Ada" in b.evaluate(PRESENCE_NAMES_JS))
    a.locator("#presence li.self button").focus()
    a.keyboard.press("Enter")
    dialog = a.get_by_role("dialog", name="Your name on this board")
    wait_until("A's name dialog is open", lambda: dialog.is_visible(), timeout=3)
    field = dialog.get_by_label("Name", exact=True)
    field.fill("é" * 200)
    dialog.get_by_role("button", name="Save").click()
    if not dialog.is_visible():
        raise ScenarioFailure("a 400-byte name must be refused at the field: the dialog closed")
    refused = dialog.locator(".name-editor-problem").inner_text()
    if "256 bytes" not in refused or field.get_attribute("aria-invalid") != "true":
        raise ScenarioFailure(f"a 400-byte name must be refused at the field with a message: {refused!r}, "
                              f"aria-invalid {field.get_attribute('aria-invalid')!r}")
    run.save_screenshot(a, "name-refused")
    field.fill("Ada Lovelace")
    dialog.get_by_role("button", name="Save").click()
    wait_until("A's name dialog closed", lambda: not dialog.is_visible(), timeout=3)
    wait_until("page B names Ada Lovelace, and not the old Ada",
               lambda: sorted(b.evaluate(PRESENCE_NAMES_JS)) == ["Ada Lovelace", "Bob"])
    wait_until("page A's own chip says Ada Lovelace",
               lambda: a.locator("#presence li.self").inner_text().strip() == "Ada Lovelace", timeout=5)
    stored = a.evaluate("() => localStorage.getItem('corkboard.name')")
    if stored != "Ada Lovelace":
        raise ScenarioFailure(f"the name is not remembered in this browser: corkboard.name is {stored!r}")
    if "name=" in a.url:
        raise ScenarioFailure(f"?name= stays in A's address and would win over the new name: {a.url}")
    a.reload()
    wait_until("page A is live again", lambda: connection_state(a) == "connected")
    wait_until("page A, loaded again, is still Ada Lovelace",
               lambda: a.locator("#presence li.self").inner_text().strip() == "Ada Lovelace", timeout=5)
    no_page_problems(run)
    return f"refused: {refused!r}; B shows {sorted(b.evaluate(PRESENCE_NAMES_JS))}"


CHIP_COLOURS_JS = """() => Object.fromEntries([...document.querySelectorAll('#presence li[data-client]')]
  .map(li => [li.textContent.trim(), getComputedStyle(li, '::before').backgroundColor]))"""

# A CSS colour as the page computes it (rgb(…)), for comparing with a chip's.
COMPUTED_COLOUR_JS = """(colour) => { const probe = document.createElement('div'); probe.style.background = colour;
  document.body.append(probe); const computed = getComputedStyle(probe).backgroundColor; probe.remove(); return computed; }"""


@scenario("choose-colour")
def choose_colour(run):
    """Ada opens her own chip and chooses a colour in the radio group of swatches from the
    keyboard ("From my name" checked at first; from Teal, ArrowRight checks Sky blue, hue 210).
    Page B shows her chip in that colour (its computed style, not her name's colour), and so
    does page B after Ada's page is loaded again: the hue is remembered in her browser."""
    board_id = run.new_board("choose-colour")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    wait_until("page B names Ada", lambda: "Ada" in b.evaluate(CHIP_COLOURS_JS))
    by_name = b.evaluate(CHIP_COLOURS_JS)["Ada"]
    chosen = b.evaluate(COMPUTED_COLOUR_JS, "hsl(210 70% 42%)")
    if by_name == chosen:
        raise ScenarioFailure(f"the test needs a name whose own colour is not hue 210: {by_name}")
    a.locator("#presence li.self button").focus()
    a.keyboard.press("Enter")
    dialog = a.get_by_role("dialog", name="Your name on this board")
    wait_until("A's name dialog is open", lambda: dialog.is_visible(), timeout=3)
    group = dialog.get_by_role("group", name="Colour")
    if not group.get_by_role("radio", name="From my name").is_checked():
        raise ScenarioFailure("'From my name' must be the colour chosen until another is")
    group.get_by_role("radio", name="Teal").focus()
    a.keyboard.press("ArrowRight")
    sky = group.get_by_role("radio", name="Sky blue")
    wait_until("ArrowRight checks Sky blue", lambda: sky.is_checked(), timeout=3)
    focused = a.evaluate("() => document.activeElement?.getAttribute('aria-label')")
    outline = sky.evaluate("input => getComputedStyle(input).outlineStyle")
    if focused != "Sky blue" or outline in ("none", ""):
        raise ScenarioFailure(f"the checked swatch must hold a visible focus: focused {focused!r}, outline {outline!r}")
    run.save_screenshot(a, "choose-colour")
    dialog.get_by_role("button", name="Save").click()
    wait_until("A's name dialog closed", lambda: not dialog.is_visible(), timeout=3)
    wait_until("page B shows Ada's chip in hue 210", lambda: b.evaluate(CHIP_COLOURS_JS).get("Ada") == chosen, timeout=5)
    own = a.evaluate(CHIP_COLOURS_JS).get("Ada")
    if own != chosen:
        raise ScenarioFailure(f"page A's own chip must show the chosen colour too: {own}, not {chosen}")
    stored = a.evaluate("() => localStorage.getItem('corkboard.hue')")
    if stored != "210":
        raise ScenarioFailure(f"the hue is not remembered in this browser: corkboard.hue is {stored!r}")
    first_client = b.evaluate("() => document.querySelector('#presence li[data-client]:not(.self)')?.dataset.client")
    a.reload()
    wait_until("page A is live again", lambda: connection_state(a) == "connected")
    wait_until("page B sees Ada again after her reload",
               lambda: b.evaluate("() => document.querySelector('#presence li[data-client]:not(.self)')?.dataset.client")
               not in (None, first_client), timeout=10)
    wait_until("page B shows Ada, loaded again, still in hue 210",
               lambda: b.evaluate(CHIP_COLOURS_JS).get("Ada") == chosen, timeout=5)
    no_page_problems(run)
    return f"Ada's name colour {by_name}; chosen {chosen}, seen by B before and after A's reload"


def editing_badge(page, item_id):
    """The text of the "is editing" badge on the card, read at once (None without one)."""
    return page.evaluate("""(id) => document.querySelector(
      `section.column ol.cards > li.card[data-item-id="${id}"] .editing-badge`)?.textContent.trim() ?? null""", item_id)


@scenario("editing-mark")
def editing_mark(run):
    """While Ada edits t2's label, page B shows "Ada is editing" on t2 (in the card's text, which
    a screen reader reads); it goes when she presses Escape, and when she leaves mid-edit."""
    board_id = run.new_board("editing-mark")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    card(a, "t2").locator(".card-label").dblclick()
    wait_until("A's editor on t2 is open", lambda: (editor(a, "t2") or {}).get("editing") is True, timeout=5)
    wait_until("page B shows 'Ada is editing' on t2", lambda: editing_badge(b, "t2") == "Ada is editing", timeout=5)
    read = card(b, "t2").evaluate("card => card.textContent")
    hidden = card(b, "t2").locator(".editing-badge").evaluate("badge => badge.closest('[aria-hidden=true]') !== null")
    if "Ada is editing" not in read or hidden:
        raise ScenarioFailure(f"the mark must be part of the card's text for screen readers: {read!r}, hidden {hidden}")
    run.save_screenshot(b, "editing-mark")
    a.keyboard.press("Escape")
    wait_until("page B's mark on t2 goes when Ada's edit ends", lambda: editing_badge(b, "t2") is None, timeout=5)
    card(a, "t3").locator(".card-label").dblclick()
    wait_until("page B shows 'Ada is editing' on t3", lambda: editing_badge(b, "t3") == "Ada is editing", timeout=5)
    a.context.close()
    wait_until("page B's mark on t3 goes when Ada leaves", lambda: editing_badge(b, "t3") is None, timeout=10)
    no_page_problems(run)
    return "seen on t2, gone after Escape; seen on t3, gone when Ada left"


@scenario("lost-edit-told")
def lost_edit_told(run):
    """Ada and Bob edit t1's label at once; Ada saves first. Bob's save does not silently
    overwrite hers: his page says Ada changed it, keeps his text, and "Use my text" applies it."""
    board_id = run.new_board("lost-edit")
    a = run.open_board("A", board_id, "Ada")
    b = run.open_board("B", board_id, "Bob")
    card(a, "t1").locator(".card-label").dblclick()
    card(b, "t1").locator(".card-label").dblclick()
    wait_until("both editors on t1 are open", lambda: (editor(a, "t1") or {}).get("focused") is True
               and (editor(b, "t1") or {}).get("focused") is True, timeout=5)
    b.keyboard.type("Bob's words")
    a.keyboard.type("Ada's words")
    a.keyboard.press("Enter")
    wait_until("the server has Ada's label", lambda: server_item(run, board_id, "t1")["label"] == "Ada's words", timeout=5)
    wait_until("page B has Ada's commit", lambda: page_seq(b) == "1", timeout=5)
    b.keyboard.press("Enter")
    panel = b.locator(".lost-edit")
    wait_until("page B tells Bob his edit lost", lambda: panel.is_visible(), timeout=5)
    said = panel.locator("p").inner_text()
    kept = panel.locator("textarea").input_value()
    if "Ada" not in said or kept != "Bob's words":
        raise ScenarioFailure(f"the panel must name Ada and keep Bob's text: {said!r}, {kept!r}")
    if not b.evaluate("() => document.activeElement?.closest('.lost-edit') != null"):
        raise ScenarioFailure("the focus must be in the panel, on Bob's kept text")
    if server_item(run, board_id, "t1")["label"] != "Ada's words":
        raise ScenarioFailure("Bob's losing edit was sent anyway")
    panel.get_by_role("button", name="Use my text").click()
    wait_until("the server has Bob's label after 'Use my text'",
               lambda: server_item(run, board_id, "t1")["label"] == "Bob's words", timeout=5)
    no_page_problems(run)
    return f"told: {said!r}; kept and applied {kept!r}"


@scenario("token-name")
def token_name(run):
    """With a signed token that names its holder, that name wins over ?name=: the page's own
    chip shows it, and the name dialog says why it cannot be changed instead of a field."""
    secret = "a-browser-scenario-secret-of-more-than-thirty-two-bytes"
    secret_file = os.path.join(run.args.output, "token-secret")
    with open(secret_file, "w", encoding="utf-8") as file:
        file.write(secret)

    def b64url(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")
    now = int(time.time())
    claims = {"sub": "user-grace", "name": "Grace Hopper", "boards": "*", "role": "editor", "iat": now - 5, "exp": now + 3600}
    signed = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64url(json.dumps(claims).encode())
    token = signed + "." + b64url(hmac.new(secret.encode(), signed.encode(), hashlib.sha256).digest())
    try:
        run.restart_server(("--token-secret-file", secret_file))
        page = run.new_page("A")
        page.goto(f"{run.server.origin}/b/demo?token={token}&name=Ada")
        wait_until("page A is connected with the signed token", lambda: connection_state(page) == "connected")
        wait_until("page A's own chip shows the token's name",
                   lambda: page.locator("#presence li.self").inner_text().strip() == "Grace Hopper", timeout=5)
        page.locator("#presence li.self button").click()
        dialog = page.get_by_role("dialog", name="Your name on this board")
        wait_until("the name dialog is open", lambda: dialog.is_visible(), timeout=3)
        said = dialog.inner_text()
        if "token names you “Grace Hopper”" not in said or dialog.locator("input").count() != 0:
            raise ScenarioFailure(f"the dialog must say the token names you, without a field: {said!r}")
        dialog.get_by_role("button", name="Close").click()
        wait_until("the name dialog closed", lambda: not dialog.is_visible(), timeout=3)
        return f"chip 'Grace Hopper'; the dialog says {' '.join(said.split())!r}"
    finally:
        run.close_pages()
        run.restart_server()


def console_clean(run):
    """No console error or warning, page error or failed response on any page, all run long."""
    if run.recorder.problems:
        raise ScenarioFailure(f"{len(run.recorder.problems)} console error(s)/warning(s), page error(s) or failed "
                              f"response(s):\n" + Recorder.describe(run.recorder.problems))
    tolerated = len(run.recorder.tolerated)
    return "none" + (f" (besides {tolerated} browser network error(s) while the server was down)" if tolerated else "")


def save_screenshot(run, page, name):
    path = os.path.join(run.args.output, f"{name}.png")
    page.screenshot(path=path, full_page=True, timeout=5000)
    log(f"   screenshot: {path}")
    return path


Run.save_screenshot = save_screenshot


# ---------------------------------------------------------------------------------------------
# Main


def main():
    args, recorder, server, summary = start_run(extra_arguments=[("--only", "")], watchdog=150)
    only = [n for n in args.only.split(",") if n]
    results = summary.results
    try:
        server.start()
        log(f"corkboard serve listening at {server.origin} (log: {server.log_path})")
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            log(f"Chromium {browser.version} from {CHROMIUM}")
            run = Run(args, server, recorder, browser)
            chosen = [(n, f) for n, f in SCENARIOS if not only or n in only]
            if not only or "console-clean" in only:
                chosen.append(("console-clean", console_clean))
            for name, function in chosen:
                recorder.scenario = name
                log(f"== {name}")
                begin = time.monotonic()
                problems_before = len(recorder.problems)
                try:
                    if name != "smoke" and name != "console-clean" and not server.running():
                        raise ScenarioFailure("the server is not running (an earlier scenario broke it):\n" + server.tail())
                    message = function(run) or ""
                    passed = True
                except Exception as error:
                    passed = False
                    kind = "" if isinstance(error, ScenarioFailure) else f"{type(error).__name__}: "
                    message = f"{kind}{error}\n  at {short_traceback(error)}"
                    evidence = run.save_evidence(name)
                    if evidence:
                        message += "\n  evidence: " + ", ".join(evidence)
                    during = recorder.problems[problems_before:]
                    if during and name != "console-clean":
                        message += "\n  console problems during this scenario:\n" + Recorder.describe(during)
                finally:
                    run.close_pages()
                seconds = round(time.monotonic() - begin, 1)
                results.append({"name": name, "passed": passed, "seconds": seconds, "message": message})
                log(f"   {'PASS' if passed else 'FAIL'} ({seconds} s): {message}")
            browser.close()
    except Exception as error:
        traceback.print_exc()
        server.kill()
        summary.timer.cancel()
        return summary.finish(2, f"the run broke: {type(error).__name__}: {error}")
    server_problem = None
    try:
        server.stop()
    except ScenarioFailure as failure:
        server_problem = str(failure)
    summary.timer.cancel()
    failed = [r["name"] for r in results if not r["passed"]]
    log(f"== {len(results) - len(failed)} of {len(results)} scenarios passed in {time.monotonic() - summary.started:.1f} s"
        + (f"; failed: {', '.join(failed)}" if failed else ""))
    return summary.finish(1 if failed else 0, server_problem)


if __name__ == "__main__":
    sys.exit(main())
