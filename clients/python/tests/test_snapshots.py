"""Rejoining as the protocol says, against a scripted fake server: a resume answered with a
fresh snapshot (`resumed: false`, another epoch) replaces the replica; an event that leaves a
gap makes the client drop the connection and join again without `resume`."""

import asyncio
import unittest

from corkboard import Client, ConnectionState, Move

from fake_server import WAIT, FakeServer, board


class SnapshotTests(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self) -> None:
        self.server = FakeServer()
        self.url = await self.server.start()
        self.client = Client(self.url, "b", name="bot", reconnect_backoff=(0.01, 0.05))
        connecting = asyncio.ensure_future(self.client.connect())
        self.first = await self.server.next_connection()
        await self.first.welcome(board(), seq=4, epoch="e1")
        await asyncio.wait_for(connecting, WAIT)

    async def asyncTearDown(self) -> None:
        await self.client.close()
        await self.server.stop()

    async def test_a_resume_answered_with_a_snapshot_replaces_the_replica(self) -> None:
        self.assertNotIn("resume", self.first.hello)
        await self.first.close(1012, "role changed")
        again = await self.server.next_connection()
        self.assertEqual(again.hello["resume"], {"epoch": "e1", "seq": 4})
        replaced = board(title="Imported", collections=[{"id": "new", "title": "New", "items": []}])
        await again.welcome(replaced, seq=9, epoch="e2")
        await self.client.wait_until(lambda c: c.epoch == "e2", WAIT)
        self.assertEqual((self.client.board, self.client.seq), (replaced, 9))

    async def test_an_unanswered_operation_goes_again_with_its_op_id(self) -> None:
        sending = asyncio.ensure_future(self.client.send(Move(["b"], "todo", before="a")))
        first_try = await self.first.receive()
        await self.first.close(1001, "shutting down")
        again = await self.server.next_connection()
        await again.send({"type": "welcome", "client": "c2", "role": "editor", "epoch": "e1", "seq": 4,
                          "resumed": True, "peers": [], "count": 1})
        second_try = await again.receive()
        self.assertEqual(second_try, first_try)
        self.assertEqual(second_try["baseSeq"], 4)
        await again.send({"type": "committed", "noop": True, "opId": second_try["opId"], "seq": 4})
        outcome = await asyncio.wait_for(sending, WAIT)
        self.assertEqual((type(outcome).__name__, outcome.op_id), ("Noop", first_try["opId"]))

    async def test_event_streams_end_when_the_client_closes(self) -> None:
        kept, dropped = self.client.events(), self.client.events()
        dropped.close()
        await self.client.close()
        seen = [event async for event in kept]
        self.assertEqual([getattr(e, "state", None) for e in seen], ["closed"])
        self.assertEqual([event async for event in dropped], [])
        dropped.close()  # closing again, after the client ended it, is harmless

    async def test_a_gap_makes_it_join_again_for_a_snapshot(self) -> None:
        await self.first.send(
            {"type": "committed", "seq": 6, "opId": "x-1", "client": "c2", "adjusted": False,
             "op": {"type": "move", "sources": ["a"], "destination": {"collection": "todo", "before": None}}}
        )
        again = await self.server.next_connection()
        self.assertNotIn("resume", again.hello)
        self.assertEqual(self.first.socket.close_code, 4000)
        await again.welcome(board(title="Now"), seq=6, epoch="e1")
        await self.client.wait_until(lambda c: c.state == ConnectionState.JOINED and c.seq == 6, WAIT)
        self.assertEqual(self.client.board["title"], "Now")


if __name__ == "__main__":
    unittest.main()
