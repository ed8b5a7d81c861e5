"""What the package's tests need around a client: signed tokens minted as an app's backend
would (docs/security.md), the server's HTTP API, and a loopback proxy that can cut connections
as a network failure would, without any hook inside the client."""

import asyncio
import base64
import hashlib
import hmac
import json
import os
import time
import unittest
import urllib.error
import urllib.request
from typing import Any

# Set by the Swift suite that starts the server (PythonClientPackageTests).
SERVER = os.environ.get("CORKBOARD_TEST_SERVER")  # http://127.0.0.1:PORT
SECRET = os.environ.get("CORKBOARD_TEST_TOKEN_SECRET")


def needs_server(case: unittest.TestCase) -> tuple[str, str]:
    if not SERVER or not SECRET:
        raise unittest.SkipTest("CORKBOARD_TEST_SERVER and CORKBOARD_TEST_TOKEN_SECRET name no server")
    return SERVER, SECRET


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def mint(secret: str, sub: str, name: str, boards: Any, role: str, ttl: float = 600) -> str:
    """An HS256 token, as the snippet of docs/security.md mints it."""
    header = {"alg": "HS256", "typ": "JWT"}
    claims = {"sub": sub, "name": name, "boards": boards, "role": role, "exp": int(time.time() + ttl)}
    signing_input = ".".join(_b64url(json.dumps(p, separators=(",", ":")).encode()) for p in (header, claims))
    signature = hmac.new(secret.encode(), signing_input.encode("ascii"), hashlib.sha256).digest()
    return signing_input + "." + _b64url(signature)


def http(method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
    """One request to the server's API (blocking; bounded by a 10 s timeout)."""
    assert SERVER
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(SERVER + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def socket_url() -> str:
    assert SERVER
    return SERVER.replace("http://", "ws://") + "/ws"


class SeveringProxy:
    """Forwards loopback TCP connections to the server. `hold_answers()` stops passing what the
    server sends (an answer lost on the way), `hold_requests()` what the client sends (a request
    lost); `sever()` resets every connection."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.holding_answers = False
        self.holding_requests = False
        self._writers: list[asyncio.StreamWriter] = []
        self._server: asyncio.Server | None = None
        self.connections = 0

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers += [writer, up_writer]
        await asyncio.gather(self._pipe(reader, up_writer, False), self._pipe(up_reader, writer, True))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, downstream: bool) -> None:
        try:
            while chunk := await reader.read(65536):
                if self.holding_answers if downstream else self.holding_requests:
                    continue  # dropped, as a network that dies with data in flight
                writer.write(chunk)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    def hold_answers(self) -> None:
        self.holding_answers = True

    def hold_requests(self) -> None:
        self.holding_requests = True

    def sever(self) -> None:
        self.holding_answers = self.holding_requests = False
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()

    async def stop(self) -> None:
        self.sever()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
