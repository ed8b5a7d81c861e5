"""A chosen colour (docs/protocol.md#colours): `hue` goes in hello only when given, a hue out
of 0…359 is refused before connecting, and the peers' hues are read from the welcome, from
`peer.joined` and from a tick's `peers`, only for those who chose one."""

import unittest
from typing import Any

from corkboard import Client
from corkboard.events import ServerMessage

from fake_server import FakeConnection, FakeServerTestCase


class HueTests(FakeServerTestCase):
    async def join(self, welcome: dict[str, Any] | None = None, **options: Any) -> tuple[Client, FakeConnection]:
        peers = [{"client": "c2", "name": "Ada", "hue": 200, "drag": None}, {"client": "c3", "name": "Bob", "drag": None}]
        return await super().join(welcome or {"peers": peers, "count": 3}, **options)

    async def test_hello_says_the_hue_only_when_given(self) -> None:
        chosen, first = await self.join(hue=0)
        none, second = await self.join()
        try:
            self.assertEqual(first.hello["hue"], 0)
            self.assertNotIn("hue", second.hello)
        finally:
            await chosen.close()
            await none.close()

    def test_a_hue_outside_0_to_359_is_refused(self) -> None:
        for hue in (-1, 360, 12.5, "120", True):
            with self.subTest(hue=hue), self.assertRaises(ValueError):
                Client(self.url, "b", name="bot", hue=hue)  # type: ignore[arg-type]

    async def test_the_peers_hues_come_from_the_welcome_joins_and_ticks(self) -> None:
        client, connection = await self.join()
        events = client.events()
        try:
            self.assertEqual(client.peer_hues, {"c2": 200})
            await connection.send({"type": "peer.joined", "client": "c4", "name": "Cy", "hue": 359})
            await connection.send(
                {"type": "peers", "count": 5, "truncated": False, "left": ["c2"], "joined": [{"client": "c5", "name": "Dee", "hue": 30}]}
            )
            async for event in events:
                if isinstance(event, ServerMessage) and event.message["type"] == "peers":
                    break
            self.assertEqual(client.peer_hues, {"c4": 359, "c5": 30})
            self.assertEqual(client.peers, {"c3": "Bob", "c4": "Cy", "c5": "Dee"})
        finally:
            events.close()
            await client.close()
