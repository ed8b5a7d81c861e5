"""An in-process WebSocket server that a test scripts message by message, for what a real
server cannot be made to do on cue: tokens that expire in a second, refreshes over the socket
(the token lifecycle, which the server of this version does not speak yet), closes with 4001 or 1008,
snapshots on resume, events that do not fit."""

import asyncio
import json
import time
import unittest
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve

from corkboard import Client

WAIT = 10.0


class FakeConnection:
    def __init__(self, socket: ServerConnection, hello: dict[str, Any]) -> None:
        self.socket = socket
        self.hello = hello
        self.finished = asyncio.Event()

    async def send(self, message: dict[str, Any]) -> None:
        await self.socket.send(json.dumps(message))

    async def receive(self, timeout: float = WAIT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        return message

    async def welcome(self, board: dict[str, Any], seq: int = 0, epoch: str = "e1", **fields: Any) -> None:
        await self.send(
            {"type": "welcome", "client": "c1", "role": "editor", "epoch": epoch, "seq": seq, "resumed": False,
             "board": board, "peers": [], "count": 1, **fields}
        )

    async def close(self, code: int, reason: str = "") -> None:
        await self.socket.close(code, reason)
        self.finished.set()


class FakeServer:
    """Each connection's hello waits in `connections` for the test to answer it."""

    def __init__(self) -> None:
        self.connections: asyncio.Queue[FakeConnection] = asyncio.Queue()
        self.accepted = 0
        self._server: Server | None = None

    async def start(self) -> str:
        self._server = await serve(self._handle, "127.0.0.1", 0)
        port = list(self._server.sockets)[0].getsockname()[1]
        return f"ws://127.0.0.1:{port}/ws"

    async def _handle(self, socket: ServerConnection) -> None:
        self.accepted += 1
        hello = json.loads(await socket.recv())
        connection = FakeConnection(socket, hello)
        await self.connections.put(connection)
        # The connection lives until the test or the client ends it.
        closed = asyncio.ensure_future(socket.wait_closed())
        finished = asyncio.ensure_future(connection.finished.wait())
        await asyncio.wait([closed, finished], return_when=asyncio.FIRST_COMPLETED)
        for task in (closed, finished):
            task.cancel()

    async def next_connection(self, timeout: float = WAIT) -> FakeConnection:
        return await asyncio.wait_for(self.connections.get(), timeout)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


class FakeServerTestCase(unittest.IsolatedAsyncioTestCase):
    """A fake server per test, and `join` to connect a client to it through a welcome."""

    async def asyncSetUp(self) -> None:
        self.server = FakeServer()
        self.url = await self.server.start()

    async def asyncTearDown(self) -> None:
        await self.server.stop()

    async def connect(self, client: Client, **welcome: Any) -> FakeConnection:
        """Connects `client`, answering its hello with a welcome to `board()` with `welcome`'s fields."""
        connecting = asyncio.ensure_future(client.connect())
        connection = await self.server.next_connection()
        await connection.welcome(board(), **welcome)
        await asyncio.wait_for(connecting, WAIT)
        return connection

    async def join(self, welcome: dict[str, Any] | None = None, **options: Any) -> tuple[Client, FakeConnection]:
        """A client to board "b" as "bot" with `options`, connected (`connect`)."""
        client = Client(self.url, "b", name="bot", **options)
        return client, await self.connect(client, **(welcome or {}))


def board(**fields: Any) -> dict[str, Any]:
    return {
        "id": "b",
        "title": "Board",
        "locked": False,
        "collections": [{"id": "todo", "title": "To do", "items": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}],
        **fields,
    }


def in_ms(seconds: float) -> int:
    """A wire time (ms since 1970) `seconds` from now."""
    return int((time.time() + seconds) * 1000)
