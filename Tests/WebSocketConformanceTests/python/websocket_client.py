"""A Python `websockets` client for PythonClientTests: runs one scenario against a server and
prints what it observed as one JSON object on standard output. The Swift test asserts on it, so
this script judges nothing; it only fails (exit 1) when the scenario could not run at all.

Usage: websocket_client.py SCENARIO URL
"""

import asyncio
import json
import sys
import time

from websockets.asyncio.client import connect

# Every wait is bounded so a server that never answers fails the test instead of hanging it.
STEP_TIMEOUT = 10

# The client's own cap on incoming messages; the largest echo below (1 MiB - 100 bytes) fits.
MAX_MESSAGE = 2**20

ECHO_SIZES = [13, 64 * 1024, 2**20 - 100]


def text_of_size(size):
    """Text of exactly `size` UTF-8 bytes, with 2-, 3- and 4-byte characters in it, so the
    server's UTF-8 validation sees sequences cut at frame and read boundaries."""
    unit = "corkboard é ★ 📌 "
    encoded_unit = len(unit.encode())
    text = unit * (size // encoded_unit)
    return text + "x" * (size - len(text.encode()))


def binary_of_size(size):
    return bytes((index * 31 + 7) % 256 for index in range(size))


def open_connection(url, **options):
    return connect(url, open_timeout=STEP_TIMEOUT, close_timeout=STEP_TIMEOUT,
                   max_size=MAX_MESSAGE, ping_interval=None, **options)


async def echo(url):
    """Sends text and binary messages of several sizes; reports what came back for each."""
    results = []
    async with open_connection(url) as ws:
        for kind in ("text", "binary"):
            for size in ECHO_SIZES:
                sent = text_of_size(size) if kind == "text" else binary_of_size(size)
                await asyncio.wait_for(ws.send(sent), STEP_TIMEOUT)
                received = await asyncio.wait_for(ws.recv(), STEP_TIMEOUT)
                received_kind = "text" if isinstance(received, str) else "binary"
                received_size = len(received.encode() if isinstance(received, str) else received)
                results.append({"kind": kind, "size": size, "receivedKind": received_kind,
                                "receivedSize": received_size, "identical": received == sent})
        extensions = [extension.name for extension in ws.protocol.extensions]
    return {"messages": results, "extensions": extensions}


async def subprotocol(url):
    """Offers corkboard.v1 (after an unknown one, so the server must pick, not take the first)
    and, on a second connection, only an unknown protocol."""
    async with open_connection(url, subprotocols=["unknown.v9", "corkboard.v1"]) as ws:
        selected = ws.subprotocol
    async with open_connection(url, subprotocols=["unknown.v9"]) as ws:
        selected_for_unknown = ws.subprotocol
    return {"selected": selected, "selectedForUnknownOnly": selected_for_unknown}


async def ping(url):
    """Pings with a payload and waits for the matching pong (websockets matches the payload)."""
    async with open_connection(url) as ws:
        waiter = await ws.ping(b"corkboard ping")
        latency = await asyncio.wait_for(waiter, STEP_TIMEOUT)
        # The connection still works after the ping.
        await ws.send("after ping")
        echoed = await asyncio.wait_for(ws.recv(), STEP_TIMEOUT)
    return {"pongReceived": True, "latencySeconds": latency, "echoAfterPing": echoed}


async def close(url):
    """Starts the close handshake with 1000; reports the server's close frame and how long
    the whole close took (websockets waits for the server to end TCP, up to STEP_TIMEOUT)."""
    ws = await open_connection(url)
    await ws.send("before close")
    await asyncio.wait_for(ws.recv(), STEP_TIMEOUT)
    started = time.monotonic()
    await ws.close(code=1000, reason="done")
    elapsed = time.monotonic() - started
    received = ws.protocol.close_rcvd
    return {"closeCodeReceived": received.code if received else None,
            "closeReasonReceived": received.reason if received else None,
            "closeSeconds": elapsed}


SCENARIOS = {"echo": echo, "subprotocol": subprotocol, "ping": ping, "close": close}


def main():
    scenario, url = sys.argv[1], sys.argv[2]
    observed = asyncio.run(SCENARIOS[scenario](url))
    print(json.dumps(observed))


if __name__ == "__main__":
    main()
