"""Plumbing for the browser scenarios: the `corkboard serve` process (started, stopped and
started again on the same port and data folder), the HTTP API, Chromium through Playwright,
and a log of every console error or warning, page error and failed response on any page."""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import traceback
import urllib.error
import urllib.request

CHROMIUM = "/usr/bin/chromium"
# Every Playwright wait and action is bounded by this unless a call says otherwise.
DEFAULT_TIMEOUT_MS = 10_000
VIEWPORT = {"width": 1280, "height": 800}
# A phone: its screen size, touch, and the mobile viewport rules.
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


class ScenarioFailure(Exception):
    """A check that did not hold; its message says what was expected and what was seen."""


def log(message):
    print(message, flush=True)


# ---------------------------------------------------------------------------------------------
# The server process


class Server:
    """`corkboard serve` as a child process; its output goes to a log file."""

    def __init__(self, binary, web_root, data, log_path):
        self.binary, self.web_root, self.data, self.log_path = binary, web_root, data, log_path
        self.process = None
        self.port = None
        self.starts = 0
        self._log = open(log_path, "a", encoding="utf-8")
        self._lines = []
        self._lock = threading.Lock()

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self, port=0, timeout=20, options=()):
        """Starts the server (port 0: any free port) with `options` besides the usual ones, and
        waits for its listening line."""
        self.starts += 1
        run = self.starts
        listening = threading.Event()
        found = {}
        environment = {k: v for k, v in os.environ.items() if not k.startswith("CORKBOARD_")}
        args = [self.binary, "serve", "--port", str(port), "--web-root", self.web_root, "--data", self.data,
                "--sync", "normal", *options]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, env=environment, text=True, bufsize=1)
        process = self.process

        def read():
            for line in process.stdout:
                with self._lock:
                    self._lines.append(f"[start {run}] {line.rstrip()}")
                    self._log.write(f"[start {run}] {line}")
                    self._log.flush()
                match = re.match(r"corkboard listening on http://[^ ]+:(\d+)", line)
                if match:
                    found["port"] = int(match.group(1))
                    listening.set()
            listening.set()

        threading.Thread(target=read, daemon=True).start()
        if not listening.wait(timeout) or "port" not in found:
            self.kill()
            raise ScenarioFailure(f"corkboard serve (start {run}) did not print its listening line within {timeout} s:\n"
                                  + self.tail())
        self.port = found["port"]
        if port and self.port != port:
            raise ScenarioFailure(f"corkboard serve listened on {self.port}, asked for {port}")

    def stop(self, timeout=20):
        """SIGTERM, as an operator stops it; waits for a clean exit."""
        if not self.running():
            raise ScenarioFailure("the server was not running when it was to be stopped:\n" + self.tail())
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise ScenarioFailure(f"corkboard serve did not exit within {timeout} s of SIGTERM:\n" + self.tail())
        if status != 0:
            raise ScenarioFailure(f"corkboard serve exited {status} after SIGTERM:\n" + self.tail())

    def running(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        if self.running():
            self.process.kill()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                pass

    def tail(self, lines=30):
        with self._lock:
            return "\n".join(self._lines[-lines:])

    # HTTP API

    def http(self, method, path, body=None, timeout=10):
        """(status, decoded JSON body or text)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.origin + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        text = raw.decode("utf-8", "replace")
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def create_board(self, board_id, title, columns, folders=None):
        """columns: [(id, title, [(item id, label), ...]), ...]; an item (id, label, accepts) is a
        folder, whose items are folders[id] (items alike)."""
        def item(entry):
            if len(entry) == 3:
                return {"id": entry[0], "label": entry[1], "folder": {"accepts": entry[2]}}
            return {"id": entry[0], "label": entry[1]}
        body = {"id": board_id, "title": title,
                "collections": [{"id": c, "title": t, "items": [item(i) for i in items]}
                                for c, t, items in columns]}
        if folders:
            body["folders"] = {f: [item(i) for i in items] for f, items in folders.items()}
        status, answer = self.http("POST", "/api/boards", body)
        if status != 201:
            raise ScenarioFailure(f"POST /api/boards {board_id}: {status} {answer}")
        return answer

    def document(self, board_id):
        """The board as the server has it (GET /api/boards/ID), or a failure saying what it answered."""
        status, answer = self.http("GET", f"/api/boards/{board_id}")
        if status != 200:
            raise ScenarioFailure(f"GET /api/boards/{board_id}: {status} {answer}")
        return answer

    def board(self, board_id):
        """(seq, [(collection id, [item ids])]) as the server has it."""
        answer = self.document(board_id)
        return answer["seq"], [(c["id"], [i["id"] for i in c["items"]]) for c in answer["collections"]]

    def post_op(self, board_id, op):
        status, answer = self.http("POST", f"/api/boards/{board_id}/ops", op)
        if status != 200 or answer.get("type") != "committed":
            raise ScenarioFailure(f"POST /api/boards/{board_id}/ops {op}: {status} {answer}")
        return answer


# ---------------------------------------------------------------------------------------------
# Console errors and warnings, page errors, failed responses


class Recorder:
    """Collects every console error or warning, uncaught page error, crash and HTTP response
    >= 400 of every page, with the scenario and page it came from.

    While the test has deliberately taken the server down (an outage), Chromium itself logs a
    console error for each refused (or emulated offline) connection attempt to the server; a
    page cannot prevent those. Only those exact browser network errors, for this server's
    origin and only during the outage, are set apart as tolerated (and still listed)."""

    NETWORK_ERROR = re.compile(r"net::ERR_(CONNECTION_REFUSED|INTERNET_DISCONNECTED|CONNECTION_RESET|"
                               r"CONNECTION_CLOSED|EMPTY_RESPONSE|ABORTED|NETWORK_CHANGED)\b")

    def __init__(self):
        self.scenario = "setup"
        self.problems = []
        self.tolerated = []
        self.outage_origin = None
        self.refusal_origin = None
        self._lock = threading.Lock()

    def begin_outage(self, origin):
        self.outage_origin = origin

    def end_outage(self):
        self.outage_origin = None

    def begin_refusals(self, origin):
        """The scenario asks on purpose without a token or with a wrong one: the server's 401s,
        and the console line Chromium writes for each, are expected (and still listed)."""
        self.refusal_origin = origin

    def end_refusals(self):
        self.refusal_origin = None

    def _is_expected_refusal(self, kind, text, url):
        origin = self.refusal_origin
        if origin is None or not (url or "").startswith(origin + "/"):
            return False
        if kind == "http response":
            return text.startswith("401 ")
        return kind == "console error" and text.startswith("Failed to load resource: the server responded with a status of 401")

    def _is_outage_noise(self, text, url):
        origin = self.outage_origin
        if origin is None or not self.NETWORK_ERROR.search(text):
            return False
        ws = origin.replace("http://", "ws://", 1)
        if text.startswith(f"WebSocket connection to '{ws}/"):
            return True
        return text.startswith("Failed to load resource: net::ERR_") and (url or "").startswith(origin + "/")

    def add(self, page_label, kind, text, url=""):
        entry = {"scenario": self.scenario, "page": page_label, "kind": kind, "text": text, "url": url or ""}
        with self._lock:
            if (kind == "console error" and self._is_outage_noise(text, url)) or self._is_expected_refusal(kind, text, url):
                self.tolerated.append(entry)
            else:
                self.problems.append(entry)

    def attach(self, page, label):
        def on_console(message):
            if message.type in ("error", "warning"):
                location = message.location or {}
                where = location.get("url", "")
                if location.get("lineNumber") or location.get("line"):
                    where += f":{location.get('lineNumber', location.get('line'))}"
                self.add(label, f"console {message.type}", message.text, where)

        def on_response(response):
            if response.status >= 400:
                self.add(label, "http response", f"{response.status} {response.request.method} {response.url}",
                         response.url)

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.add(label, "page error", str(error)))
        page.on("crash", lambda _: self.add(label, "page crash", "the page crashed"))
        page.on("response", on_response)

    @staticmethod
    def describe(entries):
        return "\n".join(f"  [{e['scenario']} / {e['page']}] {e['kind']}: {e['text']}"
                         + (f"  ({e['url']})" if e["url"] and e["url"] not in e["text"] else "")
                         for e in entries)


# ---------------------------------------------------------------------------------------------
# Waiting


class RunSummary:
    """What a run leaves in OUTPUT/summary.json for the Swift suite that drives it (BrowserRun):
    each scenario's result, the console problems, and a note when the run broke; a watchdog
    writes it and ends the process when the run takes longer than `seconds`."""

    def __init__(self, output, recorder, server, seconds):
        self.output = output
        self.recorder = recorder
        self.server = server
        self.results = []
        self.started = time.monotonic()
        self.timer = threading.Timer(seconds, self._watchdog, args=(seconds,))
        self.timer.daemon = True
        self.timer.start()

    def finish(self, status, note=None):
        summary = {"scenarios": self.results, "seconds": round(time.monotonic() - self.started, 1), "note": note,
                   "problems": self.recorder.problems, "tolerated": self.recorder.tolerated, "output": self.output}
        with open(os.path.join(self.output, "summary.json"), "w", encoding="utf-8") as file:
            json.dump(summary, file, indent=2)
        log(f"BROWSER-SUMMARY {json.dumps(summary)}")
        return status

    def _watchdog(self, seconds):
        log(f"!! watchdog: the run took longer than {seconds:g} s; stopping")
        self.server.kill()
        self.finish(3, f"watchdog: the run took longer than {seconds:g} s (during {self.recorder.scenario})")
        sys.stdout.flush()
        os._exit(3)


# Records how long after the finger touched down its first move reached the page (ms), in
# window.__firstMove. A swipe sent from here (each move waits for an answer through Playwright's
# driver) can reach a loaded machine's page later than a hold time: it is then rightly a hold,
# and a check of swipes tries again.
FIRST_MOVE_JS = """() => {
  window.__firstMove = null;
  let down = null;
  addEventListener('pointerdown', event => { down = event.timeStamp; window.__firstMove = null; }, {capture: true});
  addEventListener('pointermove', event => {
    if (down !== null && window.__firstMove === null) window.__firstMove = event.timeStamp - down;
  }, {capture: true});
}"""

def start_run(extra_arguments=(), watchdog=120):
    """What every browser script begins with: its arguments (`--corkboard`, `--web-root`,
    `--data`, `--output`, `--watchdog`, and each (name, default) of `extra_arguments`, required
    when the default is None), its output folder, and its run's Recorder, Server and RunSummary
    (whose watchdog starts now). Returns (args, recorder, server, summary)."""
    parser = argparse.ArgumentParser()
    for name in ("--corkboard", "--web-root", "--data", "--output"):
        parser.add_argument(name, required=True)
    for name, default in extra_arguments:
        parser.add_argument(name, required=default is None, default=default)
    parser.add_argument("--watchdog", type=float, default=watchdog)
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    recorder = Recorder()
    server = Server(args.corkboard, args.web_root, args.data, os.path.join(args.output, "server.log"))
    return args, recorder, server, RunSummary(args.output, recorder, server, args.watchdog)


def launch_chromium(playwright):
    """Debian's Chromium, headless, as every browser script runs it."""
    return playwright.chromium.launch(executable_path=CHROMIUM, chromium_sandbox=False,
                                      args=["--no-sandbox", "--disable-gpu"], timeout=30_000)


def wait_until(description, probe, timeout=10.0, interval=0.05):
    """Polls `probe()` until it returns something truthy and returns that; on timeout raises
    with the description and the last value seen (or the last exception)."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = probe()
            if last:
                return last
        except ScenarioFailure:
            raise
        except Exception as error:  # a page navigating, a node not there yet
            last = f"{type(error).__name__}: {error}"
        if time.monotonic() >= deadline:
            raise ScenarioFailure(f"timed out after {timeout:g} s waiting until {description}; last seen: {last!r}")
        time.sleep(interval)


def short_traceback(error):
    frames = traceback.extract_tb(error.__traceback__)
    here = [f for f in frames if f.filename.endswith(("scenarios.py", "harness.py"))]
    return " <- ".join(f"{os.path.basename(f.filename)}:{f.lineno} {f.name}" for f in reversed(here[-4:]))


def run_checks(checks, story, recorder, results, evidence=None, where=lambda error: ""):
    """Runs `checks` ((name, function of story) pairs) in order on one story, then
    `console-clean` (no console problem recorded by then), each reported in `results`. The
    checks build on each other: after one fails, the rest are reported not run. `evidence(name)`
    saves what the failing check left on screen (its files are named in the message); `where`
    says which lines an error came through."""
    failed_before = False
    for name, check in checks + [("console-clean", None)]:
        recorder.scenario = name
        begin = time.monotonic()
        try:
            if check is None:
                if recorder.problems:
                    raise ScenarioFailure("console problems:\n" + Recorder.describe(recorder.problems))
            elif failed_before:
                raise ScenarioFailure("not run: an earlier check failed and the pages are not as this one needs")
            else:
                check(story)
            passed, message = True, ""
        except Exception as error:
            passed = False
            kind = "" if isinstance(error, ScenarioFailure) else f"{type(error).__name__}: "
            message = f"{kind}{error}" + where(error)
            if check is not None and not failed_before and evidence is not None:
                message += "\n  evidence: " + ", ".join(evidence(name))
            failed_before = failed_before or check is not None
        seconds = round(time.monotonic() - begin, 1)
        results.append({"name": name, "passed": passed, "seconds": seconds, "message": message})
        log(f"== {name}: {'PASS' if passed else 'FAIL'} ({seconds} s) {message}")
