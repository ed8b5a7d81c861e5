#!/usr/bin/env python3
"""Checks that a server speaks the protocol subset the benchmark peers share with Corkboard.

usage: check.py [--name NAME] -- COMMAND [ARG...]

Starts COMMAND with `--port 0` appended (it must print a line ending in
`http://HOST:PORT`), then over loopback: GET /healthz; POST /api/boards (201, 409, 400);
WebSocket /ws: subprotocol, refusals (not-found, non-hello first: error + close 1008),
three clients' welcomes, 40 moves each from two clients sent concurrently (every client
receives every `committed` exactly once, in seq order, byte for byte the same), rejected
and error answers, and the board a late client is given; /ws/echo for text and binary.
Stops the server at the end. Exit status 0 when every check passed.

Uses the `websockets` package when it is importable, else a small client of its own on
raw sockets. Neither offers permessage-deflate.
"""

import argparse
import asyncio
import base64
import hashlib
import http.client
import json
import os
import random
import re
import signal
import struct
import sys
import tempfile
import time

try:
    import websockets  # noqa: F401
    HAVE_WEBSOCKETS = True
except ImportError:
    HAVE_WEBSOCKETS = False

SUBPROTOCOL = "corkboard.v1"
TIMEOUT = 10.0
MOVES_PER_CLIENT = 40

TEXT, BINARY, CLOSE, PING, PONG = 1, 2, 8, 9, 10


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


class Closed(Exception):
    """The server closed the WebSocket; `code` from its close frame (None if none)."""

    def __init__(self, code):
        super().__init__(f"closed with {code}")
        self.code = code


# ---- WebSocket clients ------------------------------------------------------------------

class RawClient:
    """A minimal RFC 6455 client on asyncio streams: enough for these checks."""

    GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    @classmethod
    async def connect(cls, host, port, path, subprotocol=None):
        self = cls()
        self.reader, self.writer = await asyncio.wait_for(asyncio.open_connection(host, port), TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket",
                 "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if subprotocol:
            lines.append(f"Sec-WebSocket-Protocol: {subprotocol}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), TIMEOUT)
        status, *header_lines = head.decode("latin-1").split("\r\n")
        expect(status.split(" ")[1] == "101", f"{path}: upgrade answered {status!r}")
        headers = {}
        for line in header_lines:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        accept = base64.b64encode(hashlib.sha1(key.encode() + cls.GUID).digest()).decode()
        expect(headers.get("sec-websocket-accept") == accept, f"{path}: wrong Sec-WebSocket-Accept")
        expect("sec-websocket-extensions" not in headers, f"{path}: an extension was negotiated unasked")
        self.subprotocol = headers.get("sec-websocket-protocol")
        expect(subprotocol or self.subprotocol is None, f"{path}: a subprotocol was selected though none was offered")
        self.closed = None
        return self

    def _frame(self, opcode, payload):
        head = bytes([0x80 | opcode])
        length = len(payload)
        if length < 126:
            head += bytes([0x80 | length])
        elif length < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack("!H", length)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if length < 4096 else \
            (int.from_bytes(payload, "big") ^ int.from_bytes((mask * (length // 4 + 1))[:length], "big")).to_bytes(length, "big")
        return head + mask + masked

    async def send(self, opcode, payload):
        if isinstance(payload, str):
            payload = payload.encode()
        self.writer.write(self._frame(opcode, payload))
        await self.writer.drain()

    async def _read_frame(self):
        first, second = await self.reader.readexactly(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", await self.reader.readexactly(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", await self.reader.readexactly(8))[0]
        expect(not second & 0x80, "the server masked a frame")
        return first & 0x80, first & 0x0F, await self.reader.readexactly(length)

    async def recv(self):
        """The next message as (TEXT|BINARY, bytes); raises Closed when the server closes."""
        if self.closed is not None:
            raise Closed(self.closed)
        opcode, parts = None, []
        while True:
            try:
                fin, frame_opcode, payload = await self._read_frame()
            except (asyncio.IncompleteReadError, ConnectionError):
                self.closed = None
                raise Closed(None)
            if frame_opcode == PING:
                await self.send(PONG, payload)
                continue
            if frame_opcode == PONG:
                continue
            if frame_opcode == CLOSE:
                self.closed = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                try:
                    await self.send(CLOSE, payload[:2])
                except ConnectionError:
                    pass
                raise Closed(self.closed)
            if frame_opcode != 0:
                opcode = frame_opcode
            parts.append(payload)
            if fin:
                return opcode, b"".join(parts)

    async def close(self):
        try:
            await self.send(CLOSE, struct.pack("!H", 1000))
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                await asyncio.wait_for(self._read_frame(), 2)
        except Exception:
            pass
        self.writer.close()


class WebsocketsClient:
    """The same interface on the `websockets` package (asyncio API)."""

    @classmethod
    async def connect(cls, host, port, path, subprotocol=None):
        self = cls()
        self.socket = await asyncio.wait_for(websockets.connect(
            f"ws://{host}:{port}{path}", subprotocols=[subprotocol] if subprotocol else None,
            compression=None, max_size=None, ping_interval=None), TIMEOUT)
        self.subprotocol = self.socket.subprotocol
        return self

    async def send(self, opcode, payload):
        if opcode == TEXT and isinstance(payload, bytes):
            payload = payload.decode()
        if opcode == BINARY and isinstance(payload, str):
            payload = payload.encode()
        await self.socket.send(payload)

    async def recv(self):
        try:
            message = await self.socket.recv()
        except websockets.exceptions.ConnectionClosed as closed:
            received = getattr(closed, "rcvd", None)
            raise Closed(received.code if received is not None else None)
        if isinstance(message, str):
            return TEXT, message.encode()
        return BINARY, bytes(message)

    async def close(self):
        try:
            await asyncio.wait_for(self.socket.close(), 3)
        except Exception:
            pass


Client = WebsocketsClient if HAVE_WEBSOCKETS else RawClient


class BoardClient:
    """A /ws connection that sorts what it receives: committed events (raw text kept), and
    everything else in arrival order."""

    def __init__(self, socket, name):
        self.socket, self.name = socket, name
        self.committed = []          # raw text of every committed event, in arrival order
        self.others = asyncio.Queue()  # every other message, decoded
        self.reader = None

    @classmethod
    async def join(cls, host, port, board, name):
        socket = await Client.connect(host, port, "/ws", SUBPROTOCOL)
        expect(socket.subprotocol == SUBPROTOCOL, f"/ws did not select {SUBPROTOCOL} (got {socket.subprotocol!r})")
        self = cls(socket, name)
        await self.send({"type": "hello", "board": board, "name": name})
        opcode, raw = await asyncio.wait_for(socket.recv(), TIMEOUT)
        expect(opcode == TEXT, f"{name}: welcome is not a text message")
        self.welcome = json.loads(raw)
        expect(self.welcome.get("type") == "welcome", f"{name}: expected welcome, got {raw[:200]!r}")
        self.reader = asyncio.ensure_future(self._read())
        return self

    async def send(self, message):
        await self.socket.send(TEXT, json.dumps(message, separators=(",", ":")))

    async def _read(self):
        try:
            while True:
                opcode, raw = await self.socket.recv()
                message = json.loads(raw)
                if message.get("type") == "committed" and "noop" not in message:
                    self.committed.append(raw)
                else:
                    await self.others.put(message)
        except Closed as closed:
            await self.others.put({"type": "(closed)", "code": closed.code})

    async def next_other(self, types):
        """The next non-committed message whose type is in `types` (presence and peer
        messages Corkboard sends, which the peers do not, are passed over)."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = await asyncio.wait_for(self.others.get(), max(0.01, deadline - time.monotonic()))
            if message.get("type") in types or message.get("type") == "(closed)":
                return message

    async def wait_committed(self, count):
        deadline = time.monotonic() + TIMEOUT * 3
        while len(self.committed) < count and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        expect(len(self.committed) >= count,
               f"{self.name}: {len(self.committed)} committed events arrived, {count} expected")

    async def close(self):
        await self.socket.close()
        if self.reader:
            self.reader.cancel()


# ---- The board and its moves --------------------------------------------------------------

def make_board(board_id):
    """Three collections; items a1..a9 are moved only by client A, b1..b9 only by B."""
    names = ["todo", "doing", "done"]
    collections = [{"id": name, "title": name.title(), "items": []} for name in names]
    for n in range(1, 10):
        collections[n % 3]["items"].append({"id": f"a{n}", "label": f"A{n}"})
        collections[(n + 1) % 3]["items"].append({"id": f"b{n}", "label": f"B{n} ✓"})
    return {"id": board_id, "title": "Check / peers", "collections": collections}


def apply_move(collections, op):
    """Applies a committed move (anchor form) to a list of collections, in place."""
    sources = op["sources"]
    destination = op["destination"]
    taken = {}
    for collection in collections:
        kept = []
        for item in collection["items"]:
            (taken.__setitem__(item["id"], item) if item["id"] in sources else kept.append(item))
        collection["items"] = kept
    expect(len(taken) == len(sources), f"committed move of missing items: {op}")
    target = next(c for c in collections if c["id"] == destination["collection"])
    before = destination.get("before")
    at = len(target["items"]) if before is None else [i["id"] for i in target["items"]].index(before)
    target["items"][at:at] = [taken[s] for s in sources]


class Mover:
    """Plans one client's moves of its own items. Only this client moves them, so where they
    are is known without waiting for the server. Every move takes its first source to
    another collection, so no move is a no-op."""

    def __init__(self, prefix, board, rng):
        self.rng = rng
        self.collections = [c["id"] for c in board["collections"]]
        self.where = {}   # own item → collection
        self.order = {c: [] for c in self.collections}   # own items per collection, in order
        for c in board["collections"]:
            for item in c["items"]:
                if item["id"].startswith(prefix):
                    self.where[item["id"]] = c["id"]
                    self.order[c["id"]].append(item["id"])

    def plan(self, use_anchors):
        own = sorted(self.where)
        sources = self.rng.sample(own, self.rng.choice([1, 1, 2, 3]))
        destination = self.rng.choice([c for c in self.collections if c != self.where[sources[0]]])
        candidates = [i for i in self.order[destination] if i not in sources]
        before = self.rng.choice(candidates + [None]) if use_anchors and candidates else None
        for source in sources:
            self.order[self.where[source]].remove(source)
        at = len(self.order[destination]) if before is None else self.order[destination].index(before)
        self.order[destination][at:at] = sources
        for source in sources:
            self.where[source] = destination
        return sources, {"collection": destination, "before": before}


# ---- HTTP -----------------------------------------------------------------------------

def http_request(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


async def http_call(port, method, path, body=None):
    return await asyncio.to_thread(http_request, port, method, path, body)


# ---- The checks ---------------------------------------------------------------------------

async def check_http(port, board):
    status, _ = await http_call(port, "GET", "/healthz")
    expect(status == 200, f"GET /healthz: {status}")
    status, data = await http_call(port, "POST", "/api/boards", json.dumps(board))
    expect(status == 201, f"POST /api/boards: {status} {data[:200]!r}")
    created = json.loads(data)
    for key in ("id", "title", "collections"):
        expect(created.get(key) == board[key], f"POST /api/boards answered a different {key}: {created.get(key)!r}")
    expect(created.get("locked") is False, "the created board is not locked: false")
    expect(created.get("seq") == 0, f"a new board has seq 0, not {created.get('seq')!r}")
    status, _ = await http_call(port, "POST", "/api/boards", json.dumps(board))
    expect(status == 409, f"POST of an existing id: {status}, expected 409")
    for bad in ["{", "[]", json.dumps({"id": "x"}), json.dumps({"id": 5, "title": "t", "collections": []}),
                json.dumps({"id": "dup", "title": "t", "collections": [
                    {"id": "c", "title": "C", "items": [{"id": "i", "label": "I"}, {"id": "i", "label": "J"}]}]})]:
        status, _ = await http_call(port, "POST", "/api/boards", bad)
        expect(status == 400, f"POST /api/boards with {bad!r}: {status}, expected 400")
    print("  ok  GET /healthz 200; POST /api/boards 201 (board echoed, seq 0), 409 again, 400 for 5 bad bodies")


async def check_refusals(port, board_id):
    socket = await Client.connect("127.0.0.1", port, "/ws", SUBPROTOCOL)
    client = BoardClient(socket, "stranger")
    await client.send({"type": "hello", "board": board_id + "-missing", "name": "x"})
    client.reader = asyncio.ensure_future(client._read())
    error = await client.next_other({"error"})
    expect(error.get("type") == "error" and error.get("code") == "not-found", f"hello for an unknown board: {error}")
    closed = await client.next_other(set())
    expect(closed == {"type": "(closed)", "code": 1008}, f"after not-found: {closed}, expected close 1008")
    await client.close()

    socket = await Client.connect("127.0.0.1", port, "/ws")
    client = BoardClient(socket, "rude")
    await client.send({"type": "move", "opId": "x-1", "baseSeq": 0, "sources": ["a1"],
                       "destination": {"collection": "done", "before": None}})
    client.reader = asyncio.ensure_future(client._read())
    error = await client.next_other({"error"})
    expect(error.get("type") == "error" and error.get("code") == "invalid", f"a move before hello: {error}")
    closed = await client.next_other(set())
    expect(closed == {"type": "(closed)", "code": 1008}, f"after a move before hello: {closed}, expected close 1008")
    await client.close()
    print("  ok  unknown board: error not-found + close 1008; move before hello: error invalid + close 1008")


def check_welcome(client, board):
    welcome = client.welcome
    expect(re.fullmatch(r"c\d+", str(welcome.get("client"))), f"{client.name}: client {welcome.get('client')!r}")
    expect(welcome.get("role") == "owner", f"{client.name}: role {welcome.get('role')!r}")
    expect(isinstance(welcome.get("epoch"), str) and welcome["epoch"], f"{client.name}: epoch {welcome.get('epoch')!r}")
    expect(welcome.get("seq") == 0, f"{client.name}: seq {welcome.get('seq')!r}, expected 0")
    expect(welcome.get("resumed") is False, f"{client.name}: resumed {welcome.get('resumed')!r}")
    expect(isinstance(welcome.get("peers"), list), f"{client.name}: peers {welcome.get('peers')!r}")
    snapshot = welcome.get("board") or {}
    expect(snapshot.get("id") == board["id"] and snapshot.get("title") == board["title"]
           and snapshot.get("locked") is False and snapshot.get("collections") == board["collections"],
           f"{client.name}: the welcome's board is not the board created")


async def send_moves(client, mover, prefix, use_anchors):
    sent = []
    for n in range(MOVES_PER_CLIENT):
        sources, destination = mover.plan(use_anchors)
        op_id = f"{prefix}-{n}"
        sent.append((op_id, sources, destination))
        await client.send({"type": "move", "opId": op_id, "baseSeq": 0, "sources": sources, "destination": destination})
        if n % 7 == 0:
            await asyncio.sleep(0.001)   # let the two senders interleave
    return sent


async def check_board(port, board):
    rng = random.Random(11)
    a = await BoardClient.join("127.0.0.1", port, board["id"], "Ada")
    b = await BoardClient.join("127.0.0.1", port, board["id"], "Bob")
    c = await BoardClient.join("127.0.0.1", port, board["id"], "Cy")
    clients = [a, b, c]
    for client in clients:
        check_welcome(client, board)
    ids = {client.welcome["client"] for client in clients}
    expect(len(ids) == 3, f"client ids are not distinct: {ids}")
    print(f"  ok  3 welcomes (clients {', '.join(sorted(ids))}; role owner, seq 0, resumed false, the board as created)")

    # A appends at the end of another collection; B uses anchors. Sent concurrently, pipelined.
    sent_a, sent_b = await asyncio.gather(
        send_moves(a, Mover("a", board, rng), "ka", use_anchors=False),
        send_moves(b, Mover("b", board, rng), "kb", use_anchors=True))
    total = len(sent_a) + len(sent_b)
    for client in clients:
        await client.wait_committed(total)

    # Every client: every event once, seq 1..N in order, the same bytes as every other client.
    for client in clients:
        seqs = [json.loads(raw)["seq"] for raw in client.committed]
        expect(seqs == list(range(1, total + 1)), f"{client.name}: seqs {seqs[:10]}..., expected 1..{total} in order")
        expect(client.committed == a.committed, f"{client.name}: committed bytes differ from {a.name}'s")
    events = [json.loads(raw) for raw in a.committed]
    by_op = {event["opId"]: event for event in events}
    expect(len(by_op) == total, "an opId was committed twice")
    for sender, sent in ((a, sent_a), (b, sent_b)):
        for op_id, sources, destination in sent:
            event = by_op.get(op_id)
            expect(event is not None, f"{op_id} was not committed")
            expect(event.get("client") == sender.welcome["client"], f"{op_id}: client {event.get('client')!r}")
            expect(event.get("op") == {"type": "move", "sources": sources, "destination": destination},
                   f"{op_id}: op {event.get('op')} is not the move sent")
            expect(event.get("adjusted") is False, f"{op_id}: adjusted {event.get('adjusted')!r}")
    # Each sender's own events come back in the order it sent them.
    for prefix, sent in (("ka", sent_a), ("kb", sent_b)):
        order = [e["opId"] for e in events if e["opId"].startswith(prefix + "-")]
        expect(order == [op_id for op_id, _, _ in sent], f"{prefix}: committed out of send order")
    print(f"  ok  {total} moves from 2 clients: each of 3 clients got {total} committed, seq 1..{total}, "
          f"identical bytes; ops as sent, adjusted false")

    # Rejections and errors go to the sender alone; the connection stays usable.
    await c.send({"type": "move", "opId": "kc-future", "baseSeq": total + 100, "sources": ["a1"],
                  "destination": {"collection": "todo", "before": None}})
    rejected = await c.next_other({"rejected", "error"})
    expect(rejected.get("type") == "rejected" and rejected.get("opId") == "kc-future"
           and rejected.get("code") == "invalid", f"a move with baseSeq above the board's seq: {rejected}")
    await c.send({"type": "move", "opId": "kc-nowhere", "baseSeq": total, "sources": ["a1"],
                  "destination": {"collection": "nowhere", "before": None}})
    rejected = await c.next_other({"rejected", "error"})
    # The peers say invalid; Corkboard resolves fully (rule 4 of docs/protocol.md#5-resolution)
    # and says gone.
    expect(rejected.get("type") == "rejected" and rejected.get("opId") == "kc-nowhere"
           and rejected.get("code") in ("invalid", "gone"), f"a move to a missing collection: {rejected}")
    nowhere_code = rejected["code"]
    await c.send({"type": "shout", "opId": "kc-shout"})
    error = await c.next_other({"rejected", "error"})
    expect(error.get("type") == "error" and error.get("code") == "invalid", f"an unknown type: {error}")
    await c.send({"type": "move", "opId": "kc-last", "baseSeq": total, "sources": ["a1"],
                  "destination": {"collection": "todo" if "a1" in [i["id"] for i in board_after(a, board)["done"]]
                                  else "done", "before": None}})
    for client in clients:
        await client.wait_committed(total + 1)
        expect(json.loads(client.committed[-1])["opId"] == "kc-last", f"{client.name}: the last event is not kc-last")
    print(f"  ok  rejected invalid (baseSeq ahead), rejected {nowhere_code} (missing collection), "
          "error invalid (unknown type), connection kept and its next move committed to all")

    # A late client is given the board every client holds after applying the events.
    expected = board_after(a, board)
    late = await BoardClient.join("127.0.0.1", port, board["id"], "Late")
    expect(late.welcome.get("seq") == total + 1, f"late welcome seq {late.welcome.get('seq')}, expected {total + 1}")
    snapshot = {col["id"]: col["items"] for col in late.welcome["board"]["collections"]}
    expect(snapshot == expected, "the late client's board differs from the events applied to the first snapshot")
    ids = [item["id"] for items in snapshot.values() for item in items]
    expect(len(ids) == len(set(ids)) == 18, "items were lost or doubled")
    print(f"  ok  late welcome at seq {total + 1} holds exactly the board the events build")

    # Members leave on close; the board keeps working for who stays.
    for client in clients:
        await client.close()
    await asyncio.sleep(0.2)
    await late.send({"type": "move", "opId": "kl-1", "baseSeq": total + 1, "sources": ["b1"],
                     "destination": {"collection": "doing" if "b1" in [i["id"] for i in expected["todo"]] else "todo",
                                     "before": None}})
    await late.wait_committed(1)
    expect(json.loads(late.committed[0])["seq"] == total + 2, "the move after the others left has the wrong seq")
    await late.close()
    print("  ok  after 3 members closed, a move commits for the one left")


def board_after(client, board):
    collections = [dict(c, items=list(c["items"])) for c in client.welcome["board"]["collections"]]
    for raw in client.committed:
        apply_move(collections, json.loads(raw)["op"])
    return {c["id"]: c["items"] for c in collections}


async def check_echo(port):
    socket = await Client.connect("127.0.0.1", port, "/ws/echo")
    messages = [(TEXT, "héllo ✓ {\"type\":\"x\"}".encode()), (BINARY, bytes(range(256)) * 3),
                (TEXT, ("x" * 100_000).encode()), (BINARY, b"\x00")]
    for opcode, payload in messages:
        await socket.send(opcode, payload)
    for opcode, payload in messages:
        got = await asyncio.wait_for(socket.recv(), TIMEOUT)
        expect(got == (opcode, payload), f"/ws/echo returned {got[0]} of {len(got[1])} bytes for {opcode} of {len(payload)}")
    print("  ok  /ws/echo returns text and binary (1 B to 100 kB) unchanged")
    # Empty messages are not part of any benchmark: noted, not required (FlyingFox 0.27.1
    # sends no frame at all for an empty message).
    await socket.send(BINARY, b"")
    await socket.send(TEXT, b"end")
    got = await asyncio.wait_for(socket.recv(), TIMEOUT)
    if got != (BINARY, b""):
        print(f"  note  /ws/echo did not return an empty binary message (next came {got[0]} of {len(got[1])} bytes)")
    await socket.close()


async def run_checks(port, board_id):
    board = make_board(board_id)
    await check_http(port, board)
    await check_refusals(port, board_id)
    await check_board(port, board)
    await check_echo(port)


# ---- The server process ---------------------------------------------------------------------

async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--name", help="what to call the server in the output")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the server's command line after --")
    name = args.name or os.path.basename(command[0])
    print(f"{name}: {' '.join(command)} --port 0  (client: {'websockets ' + websockets.__version__ if HAVE_WEBSOCKETS else 'raw sockets'})")

    log = tempfile.TemporaryFile()
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(*command, "--port", "0", stdout=asyncio.subprocess.PIPE,
                                                   stderr=log, start_new_session=True)
    try:
        line = await asyncio.wait_for(process.stdout.readline(), 120)
        match = re.search(r"http://[^\s]*:(\d+)\s*$", line.decode())
        if not match:
            raise Failure(f"no listening line, got {line!r}")
        port = int(match.group(1))
        print(f"  listening on port {port} after {time.monotonic() - started:.1f} s")
        drain = asyncio.ensure_future(process.stdout.read())   # keep its stdout from filling
        await run_checks(port, f"check-{os.getpid()}")
        expect(process.returncode is None, "the server exited during the checks")
        print(f"{name}: all checks passed")
        drain.cancel()
        return 0
    except (Failure, asyncio.TimeoutError, OSError, ValueError) as problem:
        print(f"{name}: FAILED: {type(problem).__name__}: {problem}")
        log.seek(0)
        tail = log.read()[-2000:].decode(errors="replace")
        if tail:
            print(f"--- {name} stderr (last 2000 bytes) ---\n{tail}")
        return 1
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 10)
            except asyncio.TimeoutError:
                process.kill()
                await process.wait()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
