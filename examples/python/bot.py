#!/usr/bin/env python3
"""A small Corkboard bot: joins a board, prints it, and sorts one column alphabetically.

It speaks the protocol directly (docs/protocol.md) with the `websockets` package, to show
that Corkboard is usable from any language:

    pip install websockets
    python3 examples/python/bot.py --url ws://127.0.0.1:8080/ws --board demo --column todo

On a server with tokens (a token file or signed tokens, docs/security.md), give the bot its
token with --token or the CORKBOARD_TOKEN variable (kept off the command line, which other users
of the machine can see); it goes in `hello`.

The sort is a series of anchor moves ("put this card before that one"), each sent with the
seq the bot had applied (`baseSeq`) and a fresh opId. The bot keeps a replica by applying
every `committed` event in seq order, so it sees other people's moves as it goes; if
someone else reorders the column meanwhile, it simply plans its next move from the new
order. Exit status: 0 sorted, 1 refused by the server, 2 cannot connect.
"""

import argparse
import asyncio
import json
import os
import secrets
import sys
import urllib.parse

import websockets


class Replica:
    """The board as the server confirmed it, at `seq`: the welcome snapshot plus every
    committed event applied in order (the same rules the server applies). A list is a
    column, or a folder's contents, named by the folder's item id (docs/protocol.md#1-the-model)."""

    def __init__(self, board, seq):
        self.board = board
        self.seq = seq

    def column(self, collection_id):
        return next(c for c in self.board["collections"] if c["id"] == collection_id)

    def items_of(self, list_id):
        """The items of a column or a folder, as the board's own list (KeyError: neither)."""
        for column in self.board["collections"]:
            if column["id"] == list_id:
                return column["items"]
        return self.board.get("folders", {})[list_id]

    def lists(self):
        return [c["items"] for c in self.board["collections"]] + list(self.board.get("folders", {}).values())

    def find(self, item_id):
        return next((i for items in self.lists() for i in items if i["id"] == item_id), None)

    def apply(self, event):
        if event["seq"] != self.seq + 1:
            raise RuntimeError(f"expected seq {self.seq + 1}, got {event['seq']}")
        op = event["op"]
        columns = self.board["collections"]
        folders = self.board.setdefault("folders", {})
        if op["type"] in ("move", "delete"):
            ids = op["sources"] if op["type"] == "move" else op["items"]
            if any(self.find(i) is None for i in ids):
                raise RuntimeError(f"{op['type']}: an item is not on the board")
            taken = {}
            for items in self.lists():
                taken.update({i["id"]: i for i in items if i["id"] in ids})
                items[:] = [i for i in items if i["id"] not in ids]
            if op["type"] == "move":
                self._insert([taken[i] for i in op["sources"]], op["destination"])
            else:
                # A deleted folder takes what is inside it along.
                doomed = [i for i in taken.values() if "folder" in i]
                while doomed:
                    inside = folders.pop(doomed.pop()["id"], [])
                    doomed += [i for i in inside if "folder" in i]
        elif op["type"] == "insert":
            self._insert(op["items"], op["destination"])
            for item in op["items"]:
                if "folder" in item:
                    folders[item["id"]] = []
        elif op["type"] == "update" and "item" in op:
            item = self.find(op["item"])
            if item is None:
                raise RuntimeError(f"update: no item {op['item']}")
            if "accepts" in op:
                item["folder"] = {"accepts": op["accepts"]}
            if "label" in op:
                item["label"] = op["label"]
            if "data" in op:
                if op["data"] is None:
                    item.pop("data", None)
                else:
                    item["data"] = op["data"]
        elif op["type"] == "update" and "collection" in op:
            self.column(op["collection"])["title"] = op["title"]
        elif op["type"] == "update":
            # Neither an item nor a collection: the board's own title (docs/protocol.md#4-operations).
            self.board["title"] = op["title"]
        elif op["type"] == "collection.add":
            new = {"id": op["collection"]["id"], "title": op["collection"]["title"], "items": []}
            at = next((n for n, c in enumerate(columns) if c["id"] == op.get("before")), len(columns))
            columns.insert(at, new)
        elif op["type"] == "collection.remove":
            self.board["collections"] = [c for c in columns if c["id"] != op["collection"]]
        elif op["type"] == "lock":
            self.board["locked"] = op["locked"]
        if not folders:
            # As on the wire: no "folders" on a board without folders.
            self.board.pop("folders", None)
        self.seq = event["seq"]

    def _insert(self, items, destination):
        into = self.items_of(destination["collection"])
        before = destination.get("before")
        at = next((n for n, i in enumerate(into) if i["id"] == before), len(into))
        into[at:at] = items


class Bot:
    def __init__(self, socket, name, token=None):
        self.socket = socket
        self.name = name
        self.token = token
        self.replica = None
        # People on the board, the bot included (docs/protocol.md#peers): the welcome's count,
        # then one up or down per peer.joined / peer.left, or a tick's `peers` count on a big board.
        self.member_count = 0
        self.prefix = f"{name}-{secrets.token_hex(3)}"
        self.counter = 0

    async def join(self, board):
        hello = {"type": "hello", "board": board, "name": self.name}
        if self.token:
            hello["token"] = self.token
        await self.socket.send(json.dumps(hello))
        welcome = json.loads(await self.socket.recv())
        if welcome["type"] != "welcome":
            raise PermissionError(welcome.get("message", welcome))
        self.replica = Replica(welcome["board"], welcome["seq"])
        self.member_count = welcome["count"]

    def follow_membership(self, message):
        if message["type"] == "peer.joined":
            self.member_count += 1
        elif message["type"] == "peer.left":
            self.member_count -= 1
        elif message["type"] in ("peers", "peers.page"):
            self.member_count = message["count"]

    async def perform(self, operation):
        """Sends one operation and reads until its answer, applying whatever is committed
        meanwhile. Returns the answer: a committed event, a noop, or a rejection."""
        self.counter += 1
        op_id = f"{self.prefix}-{self.counter}"
        await self.socket.send(json.dumps({**operation, "opId": op_id, "baseSeq": self.replica.seq}))
        while True:
            message = json.loads(await self.socket.recv())
            if message["type"] == "committed" and not message.get("noop") and message["seq"] > self.replica.seq:
                self.replica.apply(message)
            self.follow_membership(message)
            if message.get("opId") == op_id:
                return message

    async def sort_column(self, column_id):
        """Alphabetical by label: repeatedly take the first card that is out of place and put
        it before the card that should follow it. Each move is one round trip."""
        moves = 0
        for _ in range(10_000):  # bounded: a column never needs more moves than it has cards, twice
            items = self.replica.column(column_id)["items"]
            wanted = sorted(items, key=lambda i: (i["label"].casefold(), i["id"]))
            position = next((n for n, (have, want) in enumerate(zip(items, wanted)) if have["id"] != want["id"]), None)
            if position is None:
                return moves
            card = wanted[position]
            before = items[position]["id"]
            answer = await self.perform({"type": "move", "sources": [card["id"]],
                                         "destination": {"collection": column_id, "before": before}})
            if answer["type"] == "rejected":
                if answer["code"] in ("busy", "rate-limited", "unavailable"):
                    await asyncio.sleep(0.2)  # someone holds the card, or the server is busy: try again
                    continue
                raise RuntimeError(f"{answer['code']}: {answer.get('message', '')}")
            moves += 1
        raise RuntimeError("the column kept changing under the bot")


def show(board):
    print(f"{board['title']} ({board['id']})")
    for column in board["collections"]:
        print(f"  {column['title']}:")
        for item in column["items"]:
            print(f"    - {item['label']}")


def socket_url(url, board):
    """The URL with board=ID in its query: a load balancer in front of several nodes sends
    every member of a board to the same node (docs/protocol.md#2-transport). Encoded as
    JavaScript's encodeURIComponent does, like the other clients: the balancer hashes the
    text as sent."""
    parts = urllib.parse.urlsplit(url)
    board = "board=" + urllib.parse.quote(board, safe="-_.!~*'()")
    return urllib.parse.urlunsplit(parts._replace(query=f"{parts.query}&{board}" if parts.query else board))


async def main():
    parser = argparse.ArgumentParser(description="Join a Corkboard board and sort one column alphabetically.")
    parser.add_argument("--url", default="ws://127.0.0.1:8080/ws")
    parser.add_argument("--board", default="demo")
    parser.add_argument("--column", default="todo")
    parser.add_argument("--name", default="sorter-bot")
    parser.add_argument("--token", default=os.environ.get("CORKBOARD_TOKEN"), help="the bot's token (default: $CORKBOARD_TOKEN)")
    arguments = parser.parse_args()
    try:
        socket = await websockets.connect(socket_url(arguments.url, arguments.board), subprotocols=["corkboard.v1"])
    except OSError as error:
        print(f"bot: cannot connect to {arguments.url}: {error}", file=sys.stderr)
        return 2
    async with socket:
        bot = Bot(socket, arguments.name, arguments.token)
        try:
            await bot.join(arguments.board)
            show(bot.replica.board)
            print(f"{bot.member_count} on the board, the bot included")
            moves = await bot.sort_column(arguments.column)
        except (PermissionError, RuntimeError, StopIteration) as error:
            print(f"bot: {error or 'no such column'}", file=sys.stderr)
            return 1
        print(f"sorted {arguments.column} with {moves} move{'s' if moves != 1 else ''}; the board is now at seq {bot.replica.seq}:")
        show(bot.replica.board)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
