"""The client against a real `corkboard serve` with a token secret (started by the Swift suite
PythonClientPackageTests, which names it in CORKBOARD_TEST_SERVER): joining with a signed
token, operations and their outcomes, another member's changes, and resuming after the
connection is cut, with an operation whose answer was lost resent under its opId."""

import asyncio
import secrets
import time
import unittest
import urllib.parse
from typing import Any

from corkboard import (
    AddCollection,
    CannotConnect,
    Client,
    Committed,
    ConnectionState,
    Delete,
    Insert,
    Lock,
    Move,
    MoveByOffsets,
    Noop,
    Refused,
    Rejected,
    RemoveCollection,
    RenameBoard,
    RenameCollection,
    ServerMessage,
    SetAccepts,
    StateChanged,
    UpdateItem,
)

from support import SeveringProxy, http, mint, needs_server, socket_url

WAIT = 10.0  # seconds: every wait in these tests is bounded by it


class LiveServerTests(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self) -> None:
        _, self.secret = needs_server(self)
        self.board_id = "py-" + secrets.token_hex(4)
        self.owner = mint(self.secret, "owner-1", "Owner", "*", "owner")
        status, _ = http(
            "POST",
            "/api/boards",
            self.owner,
            {
                "id": self.board_id,
                "title": "Python",
                "collections": [
                    {"id": "todo", "title": "To do", "items": [{"id": f"t{n}", "label": f"Card {n}"} for n in range(4)]},
                    {"id": "done", "title": "Done", "items": []},
                ],
            },
        )
        self.assertEqual(status, 201)

    def editor_token(self, sub: str = "user-7", name: str = "Ada") -> str:
        return mint(self.secret, sub, name, [self.board_id], "editor")

    def server_board(self) -> dict[str, Any]:
        status, document = http("GET", f"/api/boards/{self.board_id}", self.owner)
        self.assertEqual(status, 200)
        return {k: v for k, v in document.items() if k not in ("seq", "epoch")}

    def committed_op_ids(self) -> list[str]:
        status, page = http("GET", f"/api/boards/{self.board_id}/ops?since=0", self.owner)
        self.assertEqual(status, 200)
        return [event["opId"] for event in page["events"]]

    def client(self, token: str, url: str | None = None, **options: Any) -> Client:
        return Client(url or socket_url(), self.board_id, name="bot", token=token, **options)

    async def test_joins_with_a_signed_token_and_a_move_commits(self) -> None:
        async with self.client(self.editor_token()) as client:
            self.assertEqual(client.state, ConnectionState.JOINED)
            self.assertEqual(client.role, "editor")
            self.assertEqual(client.count, 1)
            self.assertEqual(client.board, self.server_board())
            outcome = await asyncio.wait_for(client.send(Move(["t3", "t0"], "done")), WAIT)
            self.assertIsInstance(outcome, Committed)
            assert isinstance(outcome, Committed)
            self.assertEqual(outcome.seq, 1)
            self.assertEqual(client.seq, 1)
            # The event is the server's, authored by the token's sub, not hello's name.
            self.assertEqual(outcome.event["by"], "user-7")
            self.assertEqual([i["id"] for i in client.board["collections"][1]["items"]], ["t3", "t0"])
            self.assertEqual(client.board, self.server_board())

    async def test_each_kind_of_outcome(self) -> None:
        async with self.client(self.editor_token()) as client:
            noop = await asyncio.wait_for(client.send(Move(["t0"], "todo", before="t1")), WAIT)
            self.assertIsInstance(noop, Noop)
            gone = await asyncio.wait_for(client.send(Delete(["nowhere"])), WAIT)
            self.assertIsInstance(gone, Rejected)
            assert isinstance(gone, Rejected)
            self.assertEqual(gone.code, "gone")
            # An editor may not lock; typed operations of every shape commit and the replica follows.
            for operation in [
                Insert([{"id": "n1", "label": "New", "data": {"points": 3}}], "todo", before="t1"),
                UpdateItem("n1", label="Renamed", data=None),
                AddCollection("later", "Later", before="done"),
                Insert([{"id": "f1", "label": "Folder", "folder": {"accepts": True}}], "later"),
                Move(["t2"], "f1"),
            ]:
                outcome = await asyncio.wait_for(client.send(operation), WAIT)
                self.assertIsInstance(outcome, Committed, f"{operation}: {outcome}")
            self.assertEqual(client.board, self.server_board())
            self.assertEqual(client.board["folders"], {"f1": [{"id": "t2", "label": "Card 2"}]})
            self.assertEqual(len(set(self.committed_op_ids())), client.seq)

    async def test_an_owners_operations_and_moves_by_offsets(self) -> None:
        async with self.client(self.owner) as client:
            self.assertEqual(client.role, "owner")
            for operation in [
                MoveByOffsets("todo", [0, 2], 4, to_collection="todo"),
                Insert([{"id": "f1", "label": "Folder", "folder": {}}], "done"),
                SetAccepts("f1", False),
                RenameCollection("done", "Finished"),
                RenameBoard("Python, renamed"),
                AddCollection("spare", "Spare"),
                RemoveCollection("spare"),
                Lock(),
                Lock(locked=False),
            ]:
                outcome = await asyncio.wait_for(client.send(operation), WAIT)
                self.assertIsInstance(outcome, Committed, f"{operation}: {outcome}")
            self.assertEqual([i["id"] for i in client.board["collections"][0]["items"]], ["t1", "t3", "t0", "t2"])
            self.assertEqual(client.board["collections"][1]["items"][0]["folder"], {"accepts": False})
            self.assertEqual(client.board, self.server_board())

    async def test_a_member_sees_another_members_move_and_presence(self) -> None:
        async with self.client(self.editor_token()) as watcher:
            events = watcher.events()
            async with self.client(self.editor_token("user-8", "Grace")) as mover:
                await asyncio.wait_for(mover.send(Move(["t1"], "done")), WAIT)
                await watcher.wait_until(lambda c: c.seq == 1, WAIT)
                self.assertEqual(watcher.board, mover.board)
                self.assertEqual(watcher.peers, {mover.client_id: "Grace"})
                self.assertEqual(watcher.count, 2)
            await watcher.wait_until(lambda c: c.count == 1, WAIT)
            seen = []
            async with asyncio.timeout(WAIT):
                async for event in events:
                    if isinstance(event, ServerMessage):
                        seen.append(event.type)
                    if event == ServerMessage({"type": "peer.left", "client": mover.client_id}):
                        break
            self.assertEqual(seen, ["peer.joined", "committed", "peer.left"])

    async def test_an_observer_follows_without_being_a_peer(self) -> None:
        async with self.client(self.editor_token()) as member:
            async with self.client(self.editor_token("user-8", "Wall"), observe=True) as observer:
                self.assertEqual((observer.role, observer.count), ("viewer", 1))
                refused = await asyncio.wait_for(observer.send(Move(["t0"], "done")), WAIT)
                self.assertIsInstance(refused, Rejected)
                assert isinstance(refused, Rejected)
                self.assertEqual(refused.code, "forbidden")
                await asyncio.wait_for(member.send(Move(["t0"], "done")), WAIT)
                await observer.wait_until(lambda c: c.seq == 1, WAIT)
                self.assertEqual(observer.board, member.board)
                self.assertEqual((member.count, member.peers), (1, {}))

    async def test_drags_reach_the_others_as_events(self) -> None:
        async with self.client(self.editor_token()) as watcher:
            async with self.client(self.editor_token("user-8", "Grace")) as dragger:
                events = watcher.events()
                drags = []

                async def next_drag_message() -> dict[str, Any]:
                    async with asyncio.timeout(WAIT):
                        async for event in events:
                            if isinstance(event, ServerMessage) and event.type.startswith("drag"):
                                return {k: v for k, v in event.message.items() if k != "client"}
                    raise AssertionError("the events ended")

                await dragger.drag_start(["t2"])
                drags.append(await next_drag_message())
                # Held by the dragger: the watcher's move of it is busy.
                busy = await asyncio.wait_for(watcher.send(Move(["t2"], "done")), WAIT)
                self.assertEqual((type(busy), getattr(busy, "code", None)), (Rejected, "busy"))
                await dragger.drag_end()
                drags.append(await next_drag_message())
            self.assertEqual(
                drags,
                [{"type": "drag", "name": "Grace", "items": ["t2"], "over": None}, {"type": "drag.cleared", "reason": "cancel"}],
            )

    async def test_resumes_after_the_connection_is_cut_and_resends_the_unanswered_operation(self) -> None:
        port = urllib.parse.urlsplit(socket_url()).port
        assert port is not None
        proxy = SeveringProxy(port)
        proxy_port = await proxy.start()
        try:
            async with self.client(
                self.editor_token(), url=f"ws://127.0.0.1:{proxy_port}/ws", reconnect_backoff=(0.05, 0.2)
            ) as client:
                events = client.events()
                # The answer to this move is lost with the connection.
                proxy.hold_answers()
                answer = asyncio.ensure_future(client.send(Move(["t0"], "done")))
                # Meanwhile someone else changes the board: the replay brings it.
                other = http(
                    "POST",
                    f"/api/boards/{self.board_id}/ops",
                    self.owner,
                    {"type": "move", "opId": "http-1", "baseSeq": 0, "sources": ["t3"], "destination": {"collection": "todo", "before": "t1"}},
                )
                self.assertEqual(other[0], 200)
                await asyncio.sleep(0.3)  # the move reaches the server and commits, unanswered
                self.assertFalse(answer.done())
                proxy.sever()
                outcome = await asyncio.wait_for(answer, WAIT)
                self.assertIsInstance(outcome, Committed)
                await client.wait_until(lambda c: c.seq == 2, WAIT)
                self.assertEqual(client.board, self.server_board())
                self.assertEqual(sorted(self.committed_op_ids()), sorted(["http-1", outcome.op_id]))
                joins = []
                async with asyncio.timeout(WAIT):
                    async for event in events:
                        if isinstance(event, StateChanged) and event.state == ConnectionState.JOINED:
                            joins.append(event.resumed)
                            break
                self.assertEqual(joins, [True], "the reconnect resumed: no snapshot")
                self.assertEqual(proxy.connections, 2)
        finally:
            await proxy.stop()

    async def test_an_operation_lost_on_the_way_is_sent_again_after_the_reconnect(self) -> None:
        port = urllib.parse.urlsplit(socket_url()).port
        assert port is not None
        proxy = SeveringProxy(port)
        proxy_port = await proxy.start()
        try:
            async with self.client(
                self.editor_token(), url=f"ws://127.0.0.1:{proxy_port}/ws", reconnect_backoff=(0.05, 0.2)
            ) as client:
                proxy.hold_requests()
                answer = asyncio.ensure_future(client.send(Move(["t1"], "done")))
                await asyncio.sleep(0.3)
                self.assertEqual(self.committed_op_ids(), [], "the move never reached the server")
                proxy.sever()
                outcome = await asyncio.wait_for(answer, WAIT)
                self.assertIsInstance(outcome, Committed)
                self.assertEqual(self.committed_op_ids(), [outcome.op_id])
                self.assertEqual(client.board, self.server_board())
        finally:
            await proxy.stop()

    async def test_a_token_provider_refreshes_the_token_over_the_open_connection(self) -> None:
        # The first token is 25 s past its exp (inside the server's 30 s leeway): unrefreshed, the
        # server would close the connection 4001 five seconds after the join.
        minted: list[str] = []

        def provider() -> str:
            minted.append(mint(self.secret, "user-7", "Ada", [self.board_id], "editor", ttl=-25 if not minted else 600))
            return minted[-1]

        async with Client(socket_url(), self.board_id, name="bot", token=provider) as client:
            deadline = time.monotonic() + WAIT
            # token.accepted of the second token moves the expiry ten minutes on.
            while (client.token_expires_at or 0) < (time.time() + 300) * 1000:
                self.assertLess(time.monotonic(), deadline, f"no token.accepted for the refreshed token ({len(minted)} minted)")
                await asyncio.sleep(0.05)
            self.assertEqual(len(minted), 2)
            outcome = await asyncio.wait_for(client.send(Move(["t3"], "done")), WAIT)
            self.assertIsInstance(outcome, Committed)

    async def test_a_token_for_another_board_is_refused_for_good(self) -> None:
        other = mint(self.secret, "user-9", "Eve", ["elsewhere"], "editor")
        with self.assertRaises(Refused) as refused:
            await asyncio.wait_for(self.client(other).connect(), WAIT)
        self.assertIn("forbidden", str(refused.exception))
        with self.assertRaises(Refused):
            await asyncio.wait_for(self.client("not a token").connect(), WAIT)

    async def test_no_server_there_cannot_connect(self) -> None:
        with self.assertRaises(CannotConnect):
            await asyncio.wait_for(Client("ws://127.0.0.1:9/ws", self.board_id, name="bot").connect(), WAIT)


if __name__ == "__main__":
    unittest.main()
