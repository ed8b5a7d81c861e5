"""The Corkboard protocol subset (hello -> welcome, move -> committed broadcast, echo) on
uWebSockets through PyPI's socketify (issue #36).

uWebSockets does the sockets, HTTP, WebSocket framing and the fan-out: every member of a
board subscribes to the board's topic, and a commit is one `app.publish` of one encoded
text, which uWS copies into every subscriber's buffer in C++ and writes ("corks") once per
socket per loop iteration. Python decodes each message, checks and applies the move and
encodes the `committed` once. It all runs on uWS's one thread (libuv), which is each
board's serialization.

Run: PYTHONPATH=bench/peers/.venv/uws python3 bench/peers/uws/server.py --port 0
(bench/peers/build.sh installs socketify there; it needs Debian's libuv1).
"""

import json
import sys

from socketify import App, CompressOptions, OpCode

SUBPROTOCOL = "corkboard.v1"
EPOCH = "e1"
# The limit Corkboard's benchmarks give Corkboard, so a large echo is measured alike.
MAX_MESSAGE_BYTES = 16 << 20
# A slow reader is buffered up to this much before uWS stops sending to it (ws's and the
# Swift peers' queues are unbounded; 64 MiB keeps a benchmark client from being cut off).
MAX_BACKPRESSURE_BYTES = 64 << 20


def parse_options(args):
    options = {"host": "127.0.0.1", "port": 8080}
    if len(args) % 2:
        usage(f"{args[-1]} needs a value")
    for flag, value in zip(args[0::2], args[1::2]):
        if flag == "--port":
            if not value.isdigit() or int(value) > 65535:
                usage(f"bad port {value}")
            options["port"] = int(value)
        elif flag == "--host":
            options["host"] = value
        else:
            usage(f"unknown option {flag}")
    return options


def usage(problem):
    sys.stderr.write(f"{problem}\nusage: server.py [--host 127.0.0.1] [--port N]\n")
    sys.exit(2)


def encode(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# ---- Boards ---------------------------------------------------------------------------

rooms = {}


class Room:
    def __init__(self, board):
        self.board = board
        self.seq = 0
        # item id -> index of its collection
        self.location = {
            item["id"]: index
            for index, collection in enumerate(board["collections"])
            for item in collection["items"]
        }
        self.clients_joined = 0
        # The pub/sub topic every member subscribes to.
        self.topic = "board/" + board["id"]

    def document(self):
        return {**self.board, "seq": self.seq, "epoch": EPOCH}

    def join(self, ws):
        self.clients_joined += 1
        client = f"c{self.clients_joined}"
        ws.subscribe(self.topic)
        ws.send(
            encode(
                {
                    "type": "welcome", "client": client, "role": "owner", "epoch": EPOCH,
                    "seq": self.seq, "resumed": False, "board": self.board, "peers": [],
                }
            ),
            OpCode.TEXT,
        )
        return client

    def move(self, app, ws, client, op_id, base_seq, sources, destination):
        problem = self.problem(base_seq, sources, destination)
        if problem:
            send(ws, {"type": "rejected", "opId": op_id, "code": "invalid", "message": problem})
            return
        self.apply(sources, destination)
        self.seq += 1
        # Encoded once; uWS sends the same bytes to every subscriber, the sender included.
        text = encode(
            {
                "type": "committed", "seq": self.seq, "opId": op_id, "client": client,
                "op": {"type": "move", "sources": sources, "destination": destination},
                "adjusted": False,
            }
        )
        app.publish(self.topic, text, OpCode.TEXT)

    def problem(self, base_seq, sources, destination):
        if base_seq < 0 or base_seq > self.seq:
            return f"baseSeq {base_seq} is not a seq of this board (now {self.seq})"
        if not sources:
            return "a move needs at least one source"
        if len(set(sources)) != len(sources):
            return "a source appears twice"
        for source in sources:
            if source not in self.location:
                return f'there is no item "{source}"'
        target = self.collection_index(destination["collection"])
        if target < 0:
            return f'there is no collection "{destination["collection"]}"'
        before = destination["before"]
        if before is not None:
            if self.location.get(before) != target:
                return f'"{before}" is not in "{destination["collection"]}"'
            if before in sources:
                return f'"{before}" is one of the sources'
        return None

    def collection_index(self, collection_id):
        for index, collection in enumerate(self.board["collections"]):
            if collection["id"] == collection_id:
                return index
        return -1

    # Removes the sources from wherever they are and inserts them, in the given order,
    # before the anchor or at the end. The move has been checked.
    def apply(self, sources, destination):
        moving = set(sources)
        taken = {}
        for index in {self.location[source] for source in sources}:
            collection = self.board["collections"][index]
            kept = []
            for item in collection["items"]:
                if item["id"] in moving:
                    taken[item["id"]] = item
                else:
                    kept.append(item)
            collection["items"] = kept
        target = self.collection_index(destination["collection"])
        items = self.board["collections"][target]["items"]
        at = len(items)
        if destination["before"] is not None:
            at = next(i for i, item in enumerate(items) if item["id"] == destination["before"])
        items[at:at] = [taken[source] for source in sources]
        for source in sources:
            self.location[source] = target


def is_id(value):
    return isinstance(value, str) and 0 < len(value.encode("utf-8")) <= 128


SHAPE = 'the body must be {"id","title","collections":[{"id","title","items":[{"id","label"}]}]}'


def read_board(body):
    """A new board's body, checked and copied field by field; returns (board, problem)."""
    if not isinstance(body, dict):
        return None, SHAPE
    if not is_id(body.get("id")) or not isinstance(body.get("title"), str) or not isinstance(body.get("collections"), list):
        return None, SHAPE
    if "locked" in body and not isinstance(body["locked"], bool):
        return None, SHAPE
    collection_ids, item_ids, collections = set(), set(), []
    for collection in body["collections"]:
        if (
            not isinstance(collection, dict) or not is_id(collection.get("id"))
            or not isinstance(collection.get("title"), str) or not isinstance(collection.get("items"), list)
        ):
            return None, SHAPE
        if collection["id"] in collection_ids:
            return None, f'collection "{collection["id"]}" appears twice'
        collection_ids.add(collection["id"])
        items = []
        for item in collection["items"]:
            if not isinstance(item, dict) or not is_id(item.get("id")) or not isinstance(item.get("label"), str):
                return None, SHAPE
            if item["id"] in item_ids:
                return None, f'item "{item["id"]}" appears twice'
            item_ids.add(item["id"])
            items.append({"id": item["id"], "label": item["label"]})
        collections.append({"id": collection["id"], "title": collection["title"], "items": items})
    board = {"id": body["id"], "title": body["title"], "locked": body.get("locked") is True, "collections": collections}
    return board, None


# ---- HTTP -----------------------------------------------------------------------------

app = App()


def send_json(res, status, value):
    res.cork(
        lambda res: res.write_status(status).write_header("Content-Type", "application/json").end(encode(value))
    )


def healthz(res, req):
    res.write_status(200).write_header("Content-Type", "text/plain").end("ok")


def create_board(res, req):
    chunks = []

    def on_data(res, chunk, is_end):
        if chunk:
            chunks.append(chunk)
        if not is_end:
            return
        try:
            body = json.loads(b"".join(chunks).decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return send_json(res, 400, {"error": "bad request", "message": "the body must be JSON"})
        board, problem = read_board(body)
        if problem:
            return send_json(res, 400, {"error": "bad request", "message": problem})
        if board["id"] in rooms:
            return send_json(res, 409, {"error": "conflict", "message": f'board "{board["id"]}" exists'})
        room = Room(board)
        rooms[board["id"]] = room
        send_json(res, 201, room.document())

    res.on_aborted(lambda res: None)
    res.on_data(on_data)


def not_found(res, req):
    path = req.get_url()
    method = req.get_method().upper()
    send_json(res, 404, {"error": "not found", "message": f"no route for {method} {path}"})


# ---- WebSockets -----------------------------------------------------------------------


class Member:
    """One /ws connection's state, kept as the socket's user data."""

    __slots__ = ("room", "client")

    def __init__(self):
        self.room = None
        self.client = None


def upgrade(res, req, socket_context, offers_protocol):
    key = req.get_header("sec-websocket-key")
    offered = [p.strip() for p in (req.get_header("sec-websocket-protocol") or "").split(",")]
    protocol = SUBPROTOCOL if offers_protocol and SUBPROTOCOL in offered else ""
    # No extensions: permessage-deflate is not offered back.
    res.upgrade(key, protocol, "", socket_context, Member())


def send(ws, value):
    ws.send(encode(value), OpCode.TEXT)


def error(ws, code, message):
    send(ws, {"type": "error", "code": code, "message": message})


def refuse(ws, code, message):
    error(ws, code, message)
    ws.end(1008, code)


def board_message(ws, data, opcode):
    if opcode != OpCode.TEXT:
        return ws.end(1003, "messages are JSON text")
    member = ws.get_user_data()
    try:
        message = json.loads(data)
    except ValueError:
        message = None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        if member.room is None:
            return refuse(ws, "invalid", "the first message must be hello with a board")
        return error(ws, "invalid", "not a message of this protocol (a JSON object with a string type)")
    kind = message["type"]
    if member.room is None:
        if kind != "hello" or not isinstance(message.get("board"), str):
            return refuse(ws, "invalid", "the first message must be hello with a board")
        room = rooms.get(message["board"])
        if room is None:
            return refuse(ws, "not-found", f'there is no board "{message["board"]}"')
        member.room = room
        member.client = room.join(ws)
        return
    if kind == "move":
        op_id = message.get("opId")
        if not isinstance(op_id, str):
            return error(ws, "invalid", "a move needs a string opId")
        base_seq, sources, destination = message.get("baseSeq"), message.get("sources"), message.get("destination")
        before = destination.get("before") if isinstance(destination, dict) else None
        if (
            not isinstance(base_seq, int) or isinstance(base_seq, bool)
            or not isinstance(sources, list) or not all(isinstance(s, str) for s in sources)
            or not isinstance(destination, dict) or not isinstance(destination.get("collection"), str)
            or (before is not None and not isinstance(before, str))
        ):
            return send(ws, {
                "type": "rejected", "opId": op_id, "code": "invalid",
                "message": "a move needs baseSeq, sources and destination {collection, before}",
            })
        member.room.move(app, ws, member.client, op_id, base_seq, sources,
                         {"collection": destination["collection"], "before": before})
    elif kind == "hello":
        error(ws, "invalid", "already joined")
    else:
        error(ws, "invalid", f'this server handles only hello and move, not "{kind}"')


# Members leave on close: uWS drops a closed socket's subscriptions itself.
def board_close(ws, code, message):
    pass


def echo_message(ws, data, opcode):
    ws.send(data, opcode)


common = {
    "compression": CompressOptions.DISABLED,
    "max_payload_length": MAX_MESSAGE_BYTES,
    "max_backpressure": MAX_BACKPRESSURE_BYTES,
    "close_on_backpressure_limit": False,
    # Like the other peers: no idle timeout and no pings of the server's own (uWS's
    # idle_timeout is in seconds; 0 turns it off).
    "idle_timeout": 0,
    "send_pings_automatically": False,
}
app.ws("/ws", {**common, "upgrade": lambda res, req, ctx: upgrade(res, req, ctx, True),
               "message": board_message, "close": board_close})
app.ws("/ws/echo", {**common, "upgrade": lambda res, req, ctx: upgrade(res, req, ctx, False),
                    "message": echo_message})
app.get("/healthz", healthz)
app.post("/api/boards", create_board)
app.any("/*", not_found)


def listening(config):
    sys.stdout.write(f"listening on http://{options['host']}:{config.port}\n")
    sys.stdout.flush()


if __name__ == "__main__":
    options = parse_options(sys.argv[1:])
    from socketify import AppListenOptions

    app.listen(AppListenOptions(port=options["port"], host=options["host"]), listening)
    app.run()
