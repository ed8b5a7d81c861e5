"""An asyncio client of one board (docs/protocol.md): it joins with `hello`, keeps the replica,
sends operations and hands back their outcomes, and after a drop reconnects with backoff and
resumes, resending what was not answered under the same opIds.

    async with Client("ws://127.0.0.1:8080/ws", "demo", name="sorter") as client:
        outcome = await client.send(Move(["card-bot"], "done"))
"""

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Subprotocol

from . import compact_drags
from .backoff import Backoff
from .board import Board
from .events import ConnectionState, Event, EventStream, ServerMessage, StateChanged
from .operations import Operation
from .outcomes import Committed, Noop, Outcome, Rejected
from .replica import Replica, ReplicaError, board_from_wire
from .tokens import TokenProviderError, TokenSource, fetch_token, jwt_expiry_ms, refresh_delay
from .url import socket_url

# Close codes that end the client (docs/protocol.md#close-codes; the token lifecycle contract):
# 1008 is a refusal to be changed by the app (another token, another board), never retried;
# 4001 is an expired token, retried only with a provider to ask for a new one.
REFUSED = 1008
TOKEN_EXPIRED = 4001
# What this client closes with when its replica lost step and it joins again for a snapshot.
OUT_OF_STEP = 4000

# Rejections resent under the same opId by the client itself; `busy` and `locked` last as long
# as someone's drag or lock, so they go back to the caller to decide (as the Swift client does).
RETRIED_CODES = frozenset({"rate-limited", "unavailable"})


class Refused(Exception):
    """The server refused the client for good (or the first connection failed): it stopped."""


class CannotConnect(Exception):
    """The first connection failed (no server there, a handshake refused, a timeout, a server
    that cannot load the board now): nothing was refused for good; try again later."""


class ClientClosed(Exception):
    """The client was closed (or refused) before the operation's outcome arrived."""


class _LostStep(Exception):
    """The replica does not fit the events any more: join again for a fresh snapshot."""


@dataclass
class _Pending:
    message: dict[str, Any]
    answer: asyncio.Future[Outcome]
    retries: int = 0
    retry: asyncio.TimerHandle | None = field(default=None, repr=False)


class Client:
    """One member (or observer) of one board. Make it, then `await connect()` (or use
    `async with`); read `board`, `seq`, `peers`; `await send(op)` for an outcome."""

    def __init__(
        self,
        url: str,
        board: str,
        *,
        name: str,
        token: TokenSource = None,
        observe: bool = False,
        compact_presence: bool = True,
        hue: int | None = None,
        reconnect_backoff: tuple[float, float] = (0.1, 5.0),
        join_timeout: float = 10.0,
        maximum_retries: int = 5,
        max_message_bytes: int = 64 * 1024 * 1024,
    ) -> None:
        self.url = url
        self.board_id = board
        self.name = name
        self.observe = observe
        # Drag batches as `drags.compact` (docs/protocol.md#compact-drags), read as `drags`.
        self.compact_presence = compact_presence
        # The colour the others see us in, a hue 0…359 (docs/protocol.md#colours); None: none.
        if hue is not None and (isinstance(hue, bool) or not isinstance(hue, int) or not 0 <= hue <= 359):
            raise ValueError(f"hue must be a whole number from 0 to 359, not {hue!r}")
        self.hue = hue
        self.join_timeout = join_timeout
        self.maximum_retries = maximum_retries
        self.max_message_bytes = max_message_bytes
        self._token_source = token
        self._reconnect = Backoff(*reconnect_backoff)
        self._retry = Backoff(0.2, 2.0)
        # The token lifecycle contract: provider failures and refused refreshes wait 1, 2, 4 … 30 s.
        self._token_retry = Backoff(1.0, 30.0, jitter=0)

        self.state = ConnectionState.CLOSED
        self.role: str | None = None
        self.client_id: str | None = None
        # The other peers by client id (their names), and how many are on the board, you included.
        self.peers: dict[str, str] = {}
        # The hues of those of them who chose a colour (docs/protocol.md#colours).
        self.peer_hues: dict[str, int] = {}
        self.count = 0
        self.token_expires_at: int | None = None

        self._replica: Replica | None = None
        self._wants_snapshot = False
        self._pending: dict[str, _Pending] = {}
        self._op_prefix = secrets.token_hex(4)
        self._op_counter = 0
        self._token: str | None = None
        self._socket: ClientConnection | None = None
        self._runner: asyncio.Task[None] | None = None
        self._refresher: asyncio.Task[None] | None = None
        self._first_join: asyncio.Future[None] | None = None
        self._streams: list[EventStream] = []
        self._closing = False
        # The server's last `error`, which says why when a close follows it.
        self._last_error: str | None = None
        # Set and replaced at every change, for wait_until.
        self._change = asyncio.Event()
        # Resends of transiently rejected operations waiting for their moment.
        self._resends: set[asyncio.Task[None]] = set()

    # MARK: the board

    @property
    def board(self) -> Board:
        """The board at `seq`, as the server confirmed it. A new object after each change: one
        kept stays as it was."""
        if self._replica is None:
            raise RuntimeError("not joined yet: await connect() first")
        return self._replica.board

    @property
    def seq(self) -> int:
        return self._replica.seq if self._replica else 0

    @property
    def epoch(self) -> str | None:
        return self._replica.epoch if self._replica else None

    async def wait_until(self, condition: Callable[["Client"], bool], timeout: float) -> None:
        """Returns once `condition(client)` holds, checked after every change; TimeoutError after
        `timeout` seconds."""
        async with asyncio.timeout(timeout):
            while True:
                change = self._change
                if condition(self):
                    return
                await change.wait()

    # MARK: connecting

    async def connect(self) -> None:
        """Joins the board; returns after the welcome. The first connection is one attempt:
        `Refused` when the server says no (the board, the token), `CannotConnect` when it fails
        otherwise. Later drops are reconnected in the background."""
        if self._runner is not None:
            raise RuntimeError("connect() was called already")
        self._first_join = asyncio.get_running_loop().create_future()
        self._runner = asyncio.create_task(self._run(), name=f"corkboard {self.board_id}")
        await self._first_join

    async def close(self) -> None:
        """Leaves the board (the others hear it at once), answers every waiting `send` with
        `ClientClosed` and ends the event streams."""
        self._closing = True
        if self._socket is not None:
            await self._socket.close()
        if self._runner is not None:
            self._runner.cancel()
            try:
                await self._runner
            except asyncio.CancelledError:
                pass
        self._stop(ConnectionState.CLOSED, "closed")

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.close()

    # MARK: operations

    async def send(self, operation: Operation) -> Outcome:
        """Sends the operation with a fresh opId and the seq the replica is at, and returns its
        outcome. While the connection is down it waits, and is sent again after the reconnect
        under the same opId: it is never applied twice. Cancelling the wait stops the resends."""
        if self._replica is None or self.state in (ConnectionState.REFUSED, ConnectionState.CLOSED):
            raise ClientClosed(f"the client is {self.state.value}")
        self._op_counter += 1
        op_id = f"{self._op_prefix}-{self._op_counter}"
        message = {**operation.wire(), "opId": op_id, "baseSeq": self.seq}
        pending = _Pending(message, asyncio.get_running_loop().create_future())
        self._pending[op_id] = pending
        try:
            await self._send_now(message)
            return await pending.answer
        finally:
            self._forget(op_id)

    async def drag_start(self, items: list[str]) -> None:
        """Leases the items (docs/protocol.md#6-presence-drag-state); a refusal comes as a
        `rejected` event with `ref` `drag.start`."""
        await self._send_now({"type": "drag.start", "items": items})

    async def drag_over(self, collection: str, index: int) -> None:
        await self._send_now({"type": "drag.over", "collection": collection, "index": index})

    async def drag_start_columns(self, collections: list[str]) -> None:
        """Leases columns: a drag of columns, seen by the others live; its placeholder is
        `drag_over_columns`, its drop a `collection.move` of them."""
        await self._send_now({"type": "drag.start", "collections": collections})

    async def drag_over_columns(self, index: int) -> None:
        """The placeholder of a drag of columns: its index among the board's columns without
        the dragged ones."""
        await self._send_now({"type": "drag.over", "index": index})

    async def drag_end(self) -> None:
        await self._send_now({"type": "drag.end"})

    def events(self) -> EventStream:
        """A stream of what happens from now on: iterate it with `async for`."""
        stream = EventStream(self._drop_stream)
        self._streams.append(stream)
        return stream

    def _drop_stream(self, stream: EventStream) -> None:
        if stream in self._streams:  # not when the client has ended every stream already
            self._streams.remove(stream)

    # MARK: the connection loop

    async def _run(self) -> None:
        while not self._closing:
            close_code: int | None = None
            reason = ""
            try:
                self._set_state(ConnectionState.CONNECTING)
                self._token = await fetch_token(self._token_source)
                async with connect(
                    socket_url(self.url, self.board_id),
                    subprotocols=[Subprotocol("corkboard.v1")],
                    open_timeout=self.join_timeout,
                    max_size=self.max_message_bytes,
                ) as socket:
                    self._socket = socket
                    try:
                        await self._session(socket)
                    except _LostStep as lost:
                        reason = str(lost)
                        await socket.close(OUT_OF_STEP, "reconnecting")
            except ConnectionClosed as closed:
                close_code = closed.rcvd.code if closed.rcvd else None
                # The `error` sent before the close says it with its code ("forbidden: …").
                reason = self._last_error or (closed.rcvd.reason if closed.rcvd else "") or str(closed)
            except (OSError, TimeoutError, InvalidHandshake, TokenProviderError) as error:
                reason = str(error) or type(error).__name__
            except (ValueError, KeyError, TypeError) as error:
                # A message this client cannot read (not JSON, a field missing): a fresh start
                # is all it can do.
                self._wants_snapshot = True
                reason = f"the server sent what this client cannot read: {error!r}"
            finally:
                self._socket = None
                self._cancel_refresh()
            if self._closing:
                return
            if close_code == REFUSED or (close_code == TOKEN_EXPIRED and not callable(self._token_source)):
                self._stop(ConnectionState.REFUSED, reason, Refused(reason))
                return
            if self._first_join is not None and not self._first_join.done():
                self._stop(ConnectionState.CLOSED, reason, CannotConnect(reason))
                return
            self._set_state(ConnectionState.RECONNECTING, reason=reason)
            await asyncio.sleep(0 if close_code == TOKEN_EXPIRED else self._reconnect.next())

    async def _session(self, socket: ClientConnection) -> None:
        """One connection: hello, welcome, then every message until it closes."""
        self._last_error = None
        await socket.send(json.dumps(self._hello()))
        async with asyncio.timeout(self.join_timeout):
            while True:
                message = json.loads(await socket.recv())
                if message.get("type") == "welcome":
                    break
                if message.get("type") == "error":
                    # A refusal: the close (1008, 1013) follows and says what to do.
                    self._last_error = f"{message.get('code')}: {message.get('message')}"
        self._welcome(message)
        self._reconnect.reset()
        if self._first_join is not None and not self._first_join.done():
            self._first_join.set_result(None)
        # What was not answered goes again, in the order it was sent, with its opId.
        for pending in list(self._pending.values()):
            await socket.send(json.dumps(pending.message))
        while True:
            await self._receive(json.loads(await socket.recv()))

    def _hello(self) -> dict[str, Any]:
        hello: dict[str, Any] = {"type": "hello", "board": self.board_id, "name": self.name}
        if self._token is not None:
            hello["token"] = self._token
        if self.observe:
            hello["observe"] = True
        if self.compact_presence:
            hello["presence"] = "compact"
        if self.hue is not None:
            hello["hue"] = self.hue
        if self._replica is not None and not self._wants_snapshot:
            hello["resume"] = {"epoch": self._replica.epoch, "seq": self._replica.seq}
        return hello

    def _welcome(self, welcome: dict[str, Any]) -> None:
        resumed = bool(welcome.get("resumed")) and self._replica is not None
        if resumed:
            assert self._replica is not None
            self._replica.seq = welcome["seq"]
        else:
            # A fresh snapshot (a first join, another epoch, a history that moved on): it replaces
            # the replica.
            self._replica = Replica(board_from_wire(welcome["board"]), welcome["epoch"], welcome["seq"])
        self._wants_snapshot = False
        self.role = welcome.get("role")
        self.client_id = welcome.get("client")
        self.peers = {p["client"]: p["name"] for p in welcome.get("peers", [])}
        self.peer_hues = {}
        for peer in welcome.get("peers", []):
            self._learn_hue(peer)
        self.count = welcome.get("count", 0)
        self._expiry_from(welcome.get("tokenExpiresAt"))
        self._set_state(ConnectionState.JOINED, resumed=resumed)

    async def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "committed":
            if not self._committed(message):
                return
        elif kind == "rejected" and message.get("opId") in self._pending:
            self._rejected(message)
        elif kind == "drags":
            for change in message.get("changes", []):
                self._publish(change)
            return
        elif kind == "drags.compact":
            try:
                changes = compact_drags.expand(message.get("changes", []))
            except compact_drags.CompactDragError:
                # A batch we cannot read is the server's mistake: drop it, keep the connection.
                return
            for change in changes:
                self._publish(change)
            return
        elif kind in ("peer.joined", "peer.left", "peers", "peers.page"):
            self._follow_peers(message)
        elif kind == "token.accepted":
            self._token_retry.reset()
            self._expiry_from(message.get("tokenExpiresAt"))
        elif kind == "token.refused":
            # The previous token stays in force until its own expiry: ask the provider again later.
            self._schedule_refresh(self._token_retry.next())
        elif kind == "error":
            self._last_error = f"{message.get('code')}: {message.get('message')}"
        elif kind == "pong":
            return
        self._publish(message)

    def _committed(self, message: dict[str, Any]) -> bool:
        """Applies the event and answers its operation; False for a repeat already told."""
        assert self._replica is not None
        if "op" in message:
            try:
                applied = self._replica.apply(message)
            except ReplicaError as error:
                self._wants_snapshot = True
                raise _LostStep(str(error)) from error
            if not applied and message.get("opId") not in self._pending:
                return False  # a repeat of an event already applied and told
        op_id = message.get("opId")
        pending = self._pending.get(op_id) if isinstance(op_id, str) else None
        if pending is not None and not pending.answer.done():
            outcome: Outcome
            if message.get("noop"):
                outcome = Noop(pending.message["opId"], message["seq"])
            else:
                outcome = Committed(pending.message["opId"], message["seq"], message)
            pending.answer.set_result(outcome)
        return True

    def _rejected(self, message: dict[str, Any]) -> None:
        pending = self._pending[message["opId"]]
        if message.get("code") in RETRIED_CODES and pending.retries < self.maximum_retries:
            pending.retries += 1
            delay = self._retry.next()
            pending.retry = asyncio.get_running_loop().call_later(delay, self._start_resend, pending)
            return
        if not pending.answer.done():
            pending.answer.set_result(Rejected(message["opId"], message.get("code", ""), message.get("message", "")))

    def _start_resend(self, pending: _Pending) -> None:
        task = asyncio.create_task(self._resend(pending))
        self._resends.add(task)
        task.add_done_callback(self._resends.discard)

    async def _resend(self, pending: _Pending) -> None:
        if pending.message["opId"] in self._pending:
            await self._send_now(pending.message)

    async def _send_now(self, message: dict[str, Any]) -> None:
        """Sends now if joined; otherwise the join that follows sends what is pending."""
        socket = self._socket
        if socket is None or self.state != ConnectionState.JOINED:
            return
        try:
            await socket.send(json.dumps(message))
        except ConnectionClosed:
            pass  # the loop reconnects, and then sends it again

    def _forget(self, op_id: str) -> None:
        pending = self._pending.pop(op_id, None)
        if pending is not None and pending.retry is not None:
            pending.retry.cancel()

    def _follow_peers(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "peer.joined":
            self.peers[message["client"]] = message.get("name", "")
            self._learn_hue(message)
            self.count += 1
        elif kind == "peer.left":
            self.peers.pop(message["client"], None)
            self.peer_hues.pop(message["client"], None)
            self.count -= 1
        elif kind == "peers":
            for peer in message.get("joined", []):
                if peer["client"] != self.client_id:
                    self.peers[peer["client"]] = peer.get("name", "")
                    self._learn_hue(peer)
            for client in message.get("left", []):
                self.peers.pop(client, None)
                self.peer_hues.pop(client, None)
            self.count = message["count"]
        else:
            self.count = message["count"]

    def _learn_hue(self, peer: dict[str, Any]) -> None:
        hue = peer.get("hue")
        if isinstance(hue, int) and not isinstance(hue, bool):
            self.peer_hues[peer["client"]] = hue

    # MARK: tokens

    def _expiry_from(self, expires_at: Any) -> None:
        """`tokenExpiresAt` wins; without it, a JWT's own `exp`. Schedules the refresh."""
        if isinstance(expires_at, int):
            self.token_expires_at = expires_at
        elif self._token is not None:
            self.token_expires_at = jwt_expiry_ms(self._token)
        else:
            self.token_expires_at = None
        if self.token_expires_at is not None:
            self._schedule_refresh(refresh_delay(self.token_expires_at, time.time() * 1000))

    def _schedule_refresh(self, delay: float) -> None:
        # A fixed token cannot be renewed: the connection lasts until the server closes it.
        if callable(self._token_source) and self._socket is not None:
            self._cancel_refresh()
            self._refresher = asyncio.create_task(self._refresh_after(delay, self._socket))

    def _cancel_refresh(self) -> None:
        if self._refresher is not None and self._refresher is not asyncio.current_task():
            self._refresher.cancel()
        self._refresher = None

    async def _refresh_after(self, delay: float, socket: ClientConnection) -> None:
        """Asks the provider, with backoff while it fails, and sends the `token` message; its
        answer (`token.accepted`, `token.refused`) comes to `_receive`."""
        await asyncio.sleep(delay)
        while True:
            try:
                token = await fetch_token(self._token_source)
                break
            except TokenProviderError as error:
                self._publish({"type": "error", "code": "token-provider", "message": str(error)})
                await asyncio.sleep(self._token_retry.next())
        self._token = token
        try:
            await socket.send(json.dumps({"type": "token", "token": token}))
        except ConnectionClosed:
            pass

    # MARK: telling

    def _set_state(self, state: ConnectionState, resumed: bool | None = None, reason: str | None = None) -> None:
        self.state = state
        self._publish_event(StateChanged(state, resumed, reason))

    def _stop(self, state: ConnectionState, reason: str, error: Exception | None = None) -> None:
        """The end: `connect()` raises `error` if it still waits, every waiting operation gets
        `ClientClosed`, every stream ends."""
        if self._first_join is not None and not self._first_join.done():
            self._first_join.set_exception(error or ClientClosed(reason))
        for pending in self._pending.values():
            if not pending.answer.done():
                pending.answer.set_exception(ClientClosed(reason))
        if self.state not in (ConnectionState.REFUSED, ConnectionState.CLOSED):
            self._set_state(state, reason=reason)
        for stream in list(self._streams):
            stream.end()
        self._streams.clear()

    def _publish(self, message: dict[str, Any]) -> None:
        self._publish_event(ServerMessage(message))

    def _publish_event(self, event: Event) -> None:
        for stream in self._streams:
            stream.put(event)
        self._change.set()
        self._change = asyncio.Event()
