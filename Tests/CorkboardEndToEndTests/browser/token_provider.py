"""A page of an app of its own on the SDK, with `connect({ getToken })` asking the app's backend
for signed tokens (docs/security.md#the-tokens-life-in-a-page): a small HTTP server this script
runs on a second loopback origin serves the page and, at /token, mints HS256 tokens as a
backend would, for a real `corkboard serve --token-secret-file` with `--allowed-origins` for
that origin.

    python3 token_provider.py --corkboard BIN --web-root WEB --data DIR --output DIR

The checks run in order on one page and are reported one by one in OUTPUT/summary.json:
`refresh` (the first token is minted 25 s past its `exp`, inside the server's 30 s leeway, so the
server closes the connection 4001 five seconds after the join unless the token is refreshed: the
SDK refreshes it over the open socket at once, and the page is still live, on its first
connection, seven seconds later), `restart` (the server stops and starts again on the same port:
the page asks the backend for a new token and is live again, its move made while the server was
away committed once), `revoked` (an owner revokes the user: the page is refused with the server's
reason and stays refused) and `console-clean` (no console error or warning, page error or response
>= 400 apart from the server's outage). Exit status 0 when every check passed, 1 when one failed,
2 when the run itself broke, 3 on the watchdog."""

import base64
import hashlib
import hmac
import http.server
import json
import os
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
import urllib.request

from playwright.sync_api import sync_playwright

from harness import ScenarioFailure, launch_chromium, log, run_checks, start_run, wait_until

SECRET = "a-browser-test-secret-of-more-than-thirty-two-bytes"
OWNER_TOKEN = "owner-token"
BOARD = "tokens"
USER = "user-ada"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>token provider</title></head>
<body><p id="status">Connecting…</p>
<script type="module">
  const params = new URLSearchParams(location.search);
  const server = params.get("server");
  const { connect } = await import(server + "/sdk/v1/corkboard.js");
  window.tokenAnswers = [];
  window.states = [];
  window.fatal = null;
  const live = connect({
    url: server, board: params.get("board"), storage: null,
    getToken: async () => (await fetch("/token")).text(),
  });
  window.live = live;
  live.addEventListener("state", () => {
    window.states.push(live.state);
    document.getElementById("status").textContent = live.state;
  });
  live.addEventListener("token", (event) => window.tokenAnswers.push(event.detail.status));
  live.addEventListener("fatal", (event) => {
    window.fatal = event.detail;
    document.getElementById("status").textContent = event.detail.message;
  });
</script></body></html>
"""


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def mint(claims):
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = b64url(json.dumps(claims).encode())
    signature = hmac.new(SECRET.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{b64url(signature)}"


class Backend:
    """The app's backend: serves the page and mints a token per GET /token. The first token is
    minted already past its `exp` (inside the server's leeway); the later ones live a minute."""

    def __init__(self):
        self.minted = 0
        backend = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, format, *args):  # noqa: A002 (the base class's name)
                pass

            def do_GET(self):  # noqa: N802 (the base class's name)
                if self.path.startswith("/token"):
                    backend.minted += 1
                    now = int(time.time())
                    expires = now - 25 if backend.minted == 1 else now + 60
                    body = mint({"sub": USER, "name": "Ada", "boards": [BOARD], "role": "editor", "exp": expires, "iat": now - 1})
                    kind = "text/plain"
                else:
                    body, kind = PAGE, "text/html; charset=utf-8"
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Story:
    def __init__(self, server, backend, page, options, recorder):
        self.server, self.backend, self.page, self.options, self.recorder = server, backend, page, options, recorder

    def state(self):
        return self.page.evaluate("() => window.live?.state ?? null")

    def wait_state(self, expected, timeout=15.0):
        wait_until(f"the page is {expected}", lambda: self.state() == expected, timeout)

    def owner_http(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server.origin + path, data=data, method=method,
                                         headers={"Authorization": f"Bearer {OWNER_TOKEN}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def refresh(story):
    story.wait_state("live")
    wait_until("the SDK refreshed the token over the socket (a token event 'accepted')",
               lambda: "accepted" in story.page.evaluate("() => window.tokenAnswers"), 10)
    # Past the moment the server would have closed an unrefreshed connection (5 s after the join).
    time.sleep(7)
    states = story.page.evaluate("() => window.states")
    if states[-1] != "live" or states.count("live") != 1:
        raise ScenarioFailure(f"the page left its first connection: states {states}")
    if story.backend.minted != 2:
        raise ScenarioFailure(f"the backend minted {story.backend.minted} tokens, not 2 (one to join, one refresh)")


def restart(story):
    minted = story.backend.minted
    # Chromium logs each refused attempt while the server is away: expected here.
    story.recorder.begin_outage(story.server.origin)
    story.server.stop()
    story.wait_state("connecting")
    # A move while the server is away: kept, sent once the page is back.
    story.page.evaluate("() => { window.moved = window.live.move(['t2'], { collection: 'c', before: 't1' }); }")
    story.server.start(port=story.server.port, options=story.options)
    story.wait_state("live", timeout=30)
    story.recorder.end_outage()
    if story.backend.minted <= minted:
        raise ScenarioFailure("the page reconnected without asking the backend for a new token")
    outcome = story.page.evaluate("async () => { const r = await window.moved; return r?.status ?? String(r); }")
    if outcome != "committed":
        raise ScenarioFailure(f"the move made while the server was away: {outcome}")
    status, text = story.owner_http("GET", f"/api/boards/{BOARD}")
    order = [item["id"] for item in json.loads(text)["collections"][0]["items"]] if status == 200 else text
    if order != ["t2", "t1", "t3"]:
        raise ScenarioFailure(f"the server's order is {order}")


def revoked(story):
    status, answer = story.owner_http("POST", "/api/revocations", {"sub": USER})
    if status != 201:
        raise ScenarioFailure(f"POST /api/revocations: {status} {answer}")
    story.wait_state("refused", timeout=5)
    fatal = story.page.evaluate("() => window.fatal")
    if not fatal or fatal.get("message") != "the token was revoked":
        raise ScenarioFailure(f"the refusal the page got: {fatal}")
    time.sleep(2)
    if story.state() != "refused":
        raise ScenarioFailure(f"the revoked page came back: {story.state()}")


CHECKS = [("refresh", refresh), ("restart", restart), ("revoked", revoked)]


def main():
    args, recorder, server, summary = start_run()
    results = summary.results
    backend = Backend()
    folder = tempfile.mkdtemp(prefix="corkboard-token-browser-")
    try:
        with open(os.path.join(folder, "secret"), "w", encoding="utf-8") as file:
            file.write(SECRET)
        with open(os.path.join(folder, "tokens.json"), "w", encoding="utf-8") as file:
            json.dump({"tokens": [{"token": OWNER_TOKEN, "role": "owner", "boards": "*"}]}, file)
        options = ["--no-demo", "--allowed-origins", backend.origin, "--token-secret-file", os.path.join(folder, "secret"),
                   "--tokens", os.path.join(folder, "tokens.json")]
        server.start(options=options)
        log(f"corkboard serve at {server.origin}, the app at {backend.origin}")
        request = urllib.request.Request(
            server.origin + "/api/boards", method="POST",
            data=json.dumps({"id": BOARD, "title": "Tokens", "collections": [
                {"id": "c", "title": "C", "items": [{"id": f"t{n}", "label": f"T{n}"} for n in (1, 2, 3)]}]}).encode(),
            headers={"Authorization": f"Bearer {OWNER_TOKEN}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            if response.status != 201:
                raise ScenarioFailure(f"POST /api/boards: {response.status}")
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_context().new_page()
            recorder.attach(page, "A")
            page.goto(f"{backend.origin}/?" + urllib.parse.urlencode({"server": server.origin, "board": BOARD}))
            story = Story(server, backend, page, options, recorder)
            run_checks(CHECKS, story, recorder, results)
            browser.close()
        server.stop()
    except Exception as error:
        traceback.print_exc()
        server.kill()
        summary.timer.cancel()
        backend.stop()
        return summary.finish(2, f"the run broke: {type(error).__name__}: {error}\n{server.tail()}")
    summary.timer.cancel()
    backend.stop()
    return summary.finish(0 if all(r["passed"] for r in results) else 1)


if __name__ == "__main__":
    sys.exit(main())
