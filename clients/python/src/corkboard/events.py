"""What a client tells whoever listens (`Client.events()`): the server's messages about the
board and its people, and the connection's own changes."""

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ConnectionState(StrEnum):
    CONNECTING = "connecting"
    JOINED = "joined"
    # Dropped; trying again with backoff, to resume where it was.
    RECONNECTING = "reconnecting"
    # The server said no for good (close 1008: the token, the board); the client stopped.
    REFUSED = "refused"
    CLOSED = "closed"


@dataclass(frozen=True)
class StateChanged:
    state: ConnectionState
    # On JOINED: whether the server resumed (True) or sent a fresh snapshot (False).
    resumed: bool | None = None
    # On REFUSED, RECONNECTING: why, as the server or the library said it.
    reason: str | None = None


@dataclass(frozen=True)
class ServerMessage:
    """A message from the server, as JSON: `committed` (already applied to the replica),
    `peer.joined`, `peer.left`, `peers`, `drag`, `drag.over`, `drag.cleared` (a `drags` batch
    comes as its changes, one by one), `rejected` of a `drag.start`, `token.refused`, `error`."""

    message: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.message.get("type"))


Event = StateChanged | ServerMessage


class EventStream:
    """One listener's events, in order, from when it was made until the client closes. Events
    wait in memory until read: read them, or close the stream."""

    _END = object()

    def __init__(self, on_close: Callable[["EventStream"], None]) -> None:
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._on_close = on_close
        self._ended = False

    def put(self, event: Event) -> None:
        self._queue.put_nowait(event)

    def end(self) -> None:
        self._queue.put_nowait(self._END)

    def close(self) -> None:
        self._on_close(self)
        self.end()

    def __aiter__(self) -> AsyncIterator[Event]:
        return self

    async def __anext__(self) -> Event:
        if self._ended:
            raise StopAsyncIteration
        event = await self._queue.get()
        if event is self._END:
            self._ended = True
            raise StopAsyncIteration
        assert isinstance(event, (StateChanged, ServerMessage))
        return event


