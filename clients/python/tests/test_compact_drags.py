"""The shared compact presence fixture (Tests/Fixtures/presence/compact-drags.json, which the
Swift client's and the SDK's tests read too): this package reads each `drags.compact` as exactly
the `drags` beside it; a client asks for compact presence unless told, and hands a compact
batch's changes to its events one by one, as it does a long one's."""

import json
import os
import pathlib
import unittest
from typing import Any

from corkboard.compact_drags import CompactDragError, expand, expand_change
from corkboard.events import ServerMessage

from fake_server import FakeServerTestCase

FIXTURE = pathlib.Path(
    os.environ.get(
        "CORKBOARD_PRESENCE_FIXTURE",
        pathlib.Path(__file__).resolve().parents[3] / "Tests/Fixtures/presence/compact-drags.json",
    )
)


def cases() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(FIXTURE.read_text())["cases"]
    return found


class CompactDragFixtureTests(unittest.TestCase):
    def test_the_fixture_has_cases(self) -> None:
        self.assertGreaterEqual(len(cases()), 3)

    def test_compact_decodes_into_exactly_the_long_form(self) -> None:
        for case in cases():
            with self.subTest(case["name"]):
                compact = json.loads(case["compact"])
                self.assertEqual(compact["type"], "drags.compact")
                self.assertEqual(expand(compact["changes"]), json.loads(case["full"])["changes"])

    def test_a_change_of_another_shape_is_refused_not_misread(self) -> None:
        for change in (["c1"], ["c1", 1.5, None, "done"], ["c1", 1, 7, "done"], ["c1", "Ada", ["i1"], [1, None]],
                       ["c1", "Ada", [1], None], [7, "drop"], ["c1", True, None, "done"], {},
                       ["c1", 1.5, None], ["c1", "x", None], ["c1", 1, 7], ["c1", "Ada", ["a"], None, "b"],
                       ["c1", "Ada", ["a"], 1, 7], ["c1", "Ada", [1], 1, None], ["c1", True, None]):
            with self.subTest(change=change), self.assertRaises(CompactDragError):
                expand_change(change)


class CompactDragClientTests(FakeServerTestCase):
    async def test_hello_asks_for_compact_unless_told(self) -> None:
        compact, first = await self.join()
        full, second = await self.join(compact_presence=False)
        try:
            self.assertEqual(first.hello["presence"], "compact")
            self.assertNotIn("presence", second.hello)
        finally:
            await compact.close()
            await full.close()

    async def test_a_compact_batch_comes_out_as_the_long_forms_changes(self) -> None:
        client, connection = await self.join()
        self.assertEqual(connection.hello["presence"], "compact")
        events = client.events()
        try:
            case = cases()[0]
            # A batch of no known shape is dropped; the connection and the next batch go on.
            await connection.send({"type": "drags.compact", "changes": [["c9"]]})
            await connection.send(json.loads(case["compact"]))
            expected = json.loads(case["full"])["changes"]
            seen: list[dict[str, Any]] = []
            async for event in events:
                if isinstance(event, ServerMessage):
                    seen.append(event.message)
                if len(seen) == len(expected):
                    break
            self.assertEqual(seen, expected)
        finally:
            events.close()
            await client.close()

    async def test_a_drag_of_columns_goes_out_with_collections_and_an_index_among_the_columns(self) -> None:
        client, connection = await self.join()
        try:
            await client.drag_start_columns(["todo"])
            self.assertEqual(await connection.receive(), {"type": "drag.start", "collections": ["todo"]})
            await client.drag_over_columns(2)
            self.assertEqual(await connection.receive(), {"type": "drag.over", "index": 2})
        finally:
            await client.close()
