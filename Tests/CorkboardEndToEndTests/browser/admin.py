"""The operator's page (`/admin`, docs/security.md#the-admin-page) in Chromium against a real
`corkboard serve --token-secret-file` with signed tokens minted here:

    python3 admin.py --corkboard BIN --web-root WEB --data DIR --output DIR

The checks run in order and are reported one by one in OUTPUT/summary.json: `editor-refused` (an
editor's token opens /admin and is told, clearly, that the page is for an owner of every board;
nothing of the admin API is shown), `member-online` (an owner opens /admin and sees the demo
board with the member another browser has open on it), `drain` (the owner drains the node:
/readyz answers 503 and the page says draining; taking it back makes the node ready again, and
the member the drain sent away is back on the list), `revoke` (the owner revokes that member's
user with the form: the revocation is listed, the member is gone from the board's list, and
withdrawing it empties the list again), `phone` (the page fits a phone's width), `webhooks` (two
webhooks made through the API, one whose receiver refuses connections and has a committed event
waiting: both are rows, the failing one marked with its backlog and error) and `console-clean` (no
console error or warning, page error or response >= 400 on any page). Exit status 0 when every
check passed, 1 when one failed, 2 when the run itself broke, 3 on the watchdog."""

import base64
import hashlib
import hmac
import json
import os
import socket
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

from harness import PHONE, VIEWPORT, ScenarioFailure, launch_chromium, log, run_checks, start_run, wait_until

SECRET = "an-admin-browser-test-secret-of-more-than-thirty-two-bytes"
BOARD = "demo"
MEMBER_USER = "user-ada"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def mint(sub, name, boards, role):
    """An HS256 token of an hour, issued a few seconds ago (a revocation of the user refuses it)."""
    now = int(time.time())
    claims = {"sub": sub, "name": name, "boards": boards, "role": role, "iat": now - 5, "exp": now + 3600}
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = b64url(json.dumps(claims).encode())
    signature = hmac.new(SECRET.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{b64url(signature)}"


OWNER = mint("user-olive", "Olive", "*", "owner")
MEMBER = mint(MEMBER_USER, "Ada", [BOARD], "editor")
EDITOR = mint("user-bob", "Bob", [BOARD], "editor")


def readyz(server):
    try:
        with urllib.request.urlopen(server.origin + "/readyz", timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class Story:
    def __init__(self, server, browser, recorder):
        self.server, self.browser, self.recorder = server, browser, recorder
        self.owner = None
        self.member = None

    def open(self, label, path, device=None, prepare=None):
        """A page in a browser context of its own (each keeps its own token in its storage);
        `prepare(page)` runs before it loads."""
        context = self.browser.new_context(**(device or {"viewport": VIEWPORT}))
        page = context.new_page()
        self.recorder.attach(page, label)
        if prepare:
            prepare(page)
        page.goto(self.server.origin + path)
        wait_until(f"page {label} is ready (body[data-ready=\"true\"])",
                   lambda: page.get_attribute("body", "data-ready", timeout=2000) == "true")
        return page


def editor_refused(story):
    page = story.open("editor", f"/admin?token={EDITOR}")
    status = page.locator("#admin-status")
    if status.get_attribute("data-refused") != "true":
        raise ScenarioFailure(f"the editor's page was not refused: {status.inner_text()!r}")
    text = status.inner_text()
    if "owner of every board" not in text:
        raise ScenarioFailure(f"the refusal does not say who may use the page: {text!r}")
    if page.locator("#admin-sections").is_visible():
        raise ScenarioFailure("the admin sections are shown to an editor")
    page.context.close()


def member_online(story):
    story.member = story.open("member", f"/b/{BOARD}?token={MEMBER}")
    wait_until("the member's board is live",
               lambda: story.member.get_attribute("#connection", "data-state", timeout=2000) == "connected")
    story.owner = story.open("owner", f"/admin?token={OWNER}")
    page = story.owner
    if page.locator("#admin-sections").is_hidden():
        raise ScenarioFailure(f"the owner's page shows no sections: {page.locator('#admin-status').inner_text()!r}")
    row = page.locator(f'section[data-board="{BOARD}"] tr[data-user="{MEMBER_USER}"]')
    wait_until("the member is listed on the demo board", lambda: row.count() == 1, timeout=10)
    cells = row.locator("td").all_inner_texts()
    if cells[:3] != ["Ada", MEMBER_USER, "editor"]:
        raise ScenarioFailure(f"the member's row reads {cells}")
    if page.locator("#webhook-list").inner_text().strip() != "No webhooks are configured.":
        raise ScenarioFailure(f"the webhooks section says {page.locator('#webhook-list').inner_text()!r}")


def revoke(story):
    page = story.owner
    page.get_by_label("User id").fill(MEMBER_USER)
    page.get_by_role("button", name="Revoke").click()
    wait_until("the revocation is listed", lambda: page.locator(f'li[data-revoked="{MEMBER_USER}"]').count() == 1)
    row = page.locator(f'section[data-board="{BOARD}"] tr[data-user="{MEMBER_USER}"]')
    wait_until("the revoked member is gone from the board's list", lambda: row.count() == 0, timeout=10)
    page.get_by_role("button", name=f"Withdraw the revocation of {MEMBER_USER}").click()
    wait_until("the revocation is withdrawn",
               lambda: page.locator("#revocation-list").inner_text().strip() == "Nobody is revoked.")


def drain(story):
    page = story.owner
    page.get_by_role("button", name="Drain this node").click()
    wait_until("the page says the node is draining",
               lambda: page.get_attribute("#node-facts", "data-draining", timeout=2000) == "true")
    if readyz(story.server) != 503:
        raise ScenarioFailure("/readyz does not answer 503 while the node is drained")
    if "draining" not in page.locator("#admin-status").inner_text():
        raise ScenarioFailure(f"the status line says {page.locator('#admin-status').inner_text()!r}")
    undrain = page.get_by_role("button", name="Take the drain back")
    undrain.focus()
    page.keyboard.press("Enter")
    wait_until("the page says the node serves again",
               lambda: page.get_attribute("#node-facts", "data-draining", timeout=2000) == "false")
    wait_until("/readyz answers 200 again", lambda: readyz(story.server) == 200)
    # The member sent away by the drain (1001) joined again by itself.
    wait_until("the member's page is connected again",
               lambda: story.member.get_attribute("#connection", "data-state", timeout=2000) == "connected", timeout=15)
    row = page.locator(f'section[data-board="{BOARD}"] tr[data-user="{MEMBER_USER}"]')
    wait_until("the member is listed again", lambda: row.count() == 1, timeout=10)


def phone(story):
    page = story.open("phone", f"/admin?token={OWNER}", device=PHONE)
    wait_until("the phone's page lists the board", lambda: page.locator(f'section[data-board="{BOARD}"]').count() == 1)
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    if widths[0] > widths[1]:
        raise ScenarioFailure(f"the page is wider than the phone: {widths[0]} px in {widths[1]} px")
    page.context.close()


def api(server, method, path, body):
    """An owner's request to the server's API; its JSON answer."""
    request = urllib.request.Request(server.origin + path, method=method, data=json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {OWNER}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def webhooks(story):
    """Webhooks made through the API, as the page lists them: one for the demo board whose
    receiver refuses connections (a socket bound and never listening), with a rename of the board
    committed after it, so an event waits and its attempts fail; one for a board with nothing."""
    refusing = socket.socket()
    refusing.bind(("127.0.0.1", 0))
    try:
        failing = api(story.server, "POST", "/api/webhooks",
                      {"url": f"http://127.0.0.1:{refusing.getsockname()[1]}/hook", "boards": [BOARD]})
        idle = api(story.server, "POST", "/api/webhooks", {"url": "https://hooks.example.com/in", "boards": ["quiet"]})
        api(story.server, "PATCH", f"/api/boards/{BOARD}", {"title": "Demo, renamed for the webhook"})
        page = story.open("webhooks", f"/admin?token={OWNER}")
        rows = page.locator("#webhook-list tr[data-webhook]")
        wait_until("both webhooks are listed", lambda: rows.count() == 2)
        row = page.locator(f'#webhook-list tr[data-webhook="{failing["id"]}"]')
        # The page refreshes every few seconds; the first attempt fails within one.
        wait_until("the refused webhook is marked failing", lambda: row.get_attribute("data-failing") == "true", timeout=15)
        cells = row.locator("td").all_inner_texts()
        if cells[1:4] != [BOARD, "the API", "1 event waiting"] or "HTTP" in cells[4] or cells[4] == "never":
            raise ScenarioFailure(f"the failing webhook's row reads {cells}")
        quiet = page.locator(f'#webhook-list tr[data-webhook="{idle["id"]}"]').locator("td").all_inner_texts()
        if quiet[1:5] != ["quiet", "the API", "0 events waiting", "never"]:
            raise ScenarioFailure(f"the idle webhook's row reads {quiet}")
        page.context.close()
    finally:
        refusing.close()


# The drain before the revocation: a page whose user was revoked stops (close 1008) and does
# not join again by itself, while a drained one does (1001).
CHECKS = [("editor-refused", editor_refused), ("member-online", member_online), ("drain", drain), ("revoke", revoke),
          ("phone", phone), ("webhooks", webhooks)]


def main():
    args, recorder, server, summary = start_run()
    results = summary.results
    folder = tempfile.mkdtemp(prefix="corkboard-admin-browser-")
    try:
        with open(os.path.join(folder, "secret"), "w", encoding="utf-8") as file:
            file.write(SECRET)
        server.start(options=["--token-secret-file", os.path.join(folder, "secret")])
        log(f"corkboard serve at {server.origin}")
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            run_checks(CHECKS, Story(server, browser, recorder), recorder, results)
            browser.close()
        server.stop()
    except Exception as error:
        traceback.print_exc()
        server.kill()
        summary.timer.cancel()
        return summary.finish(2, f"the run broke: {type(error).__name__}: {error}\n{server.tail()}")
    summary.timer.cancel()
    return summary.finish(0 if all(r["passed"] for r in results) else 1)


if __name__ == "__main__":
    sys.exit(main())
