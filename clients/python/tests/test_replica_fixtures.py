"""Every shared replica fixture (Tests/Fixtures/replica/*.json, also replayed by the Swift model
and the browser SDK) through this package's replica: the committed events of each give its
`after`, and each of its `refused` events, alone on `before` as seq 1, raises ReplicaError."""

import copy
import json
import os
import pathlib
import unittest

from corkboard import Replica, ReplicaError

# The repository's fixtures, found from this file (clients/python/tests/) unless given.
FIXTURES = pathlib.Path(
    os.environ.get("CORKBOARD_REPLICA_FIXTURES", pathlib.Path(__file__).resolve().parents[3] / "Tests/Fixtures/replica")
)


def fixtures() -> list[tuple[str, dict]]:
    paths = sorted(FIXTURES.glob("*.json"))
    if not paths:
        raise AssertionError(f"no replica fixtures in {FIXTURES}")
    return [(p.name, json.loads(p.read_text())) for p in paths]


class ReplicaFixtureTests(unittest.TestCase):
    def test_every_fixture_has_something_to_check(self) -> None:
        for name, fixture in fixtures():
            with self.subTest(name):
                self.assertTrue("after" in fixture or fixture.get("refused"), name)

    def test_events_give_the_board_after(self) -> None:
        checked = 0
        for name, fixture in fixtures():
            if "after" not in fixture:
                continue
            with self.subTest(name):
                before = copy.deepcopy(fixture["before"])
                replica = Replica(fixture["before"], "fixture", 0)
                for event in fixture["events"]:
                    self.assertTrue(replica.apply(event), f"{name}: seq {event['seq']} not applied")
                self.assertEqual(replica.board, fixture["after"], name)
                self.assertEqual(replica.seq, len(fixture["events"]))
                # The snapshot given is never changed: each event gives a new board.
                self.assertEqual(fixture["before"], before, name)
                checked += 1
        self.assertGreaterEqual(checked, 10)

    def test_refused_events_raise(self) -> None:
        checked = 0
        for name, fixture in fixtures():
            for event in fixture.get("refused", []):
                with self.subTest(name, op=event["op"]):
                    replica = Replica(copy.deepcopy(fixture["before"]), "fixture", 0)
                    with self.assertRaises(ReplicaError):
                        replica.apply({**event, "seq": 1})
                    self.assertEqual(replica.board, fixture["before"], "a refused event changes nothing")
                    self.assertEqual(replica.seq, 0)
                    checked += 1
        self.assertGreater(checked, 0)

    def test_a_repeated_event_is_not_applied_and_a_gap_raises(self) -> None:
        _, fixture = next(f for f in fixtures() if f[0] == "move-within-collection.json")
        replica = Replica(copy.deepcopy(fixture["before"]), "fixture", 0)
        first = fixture["events"][0]
        self.assertTrue(replica.apply(first))
        after_one = copy.deepcopy(replica.board)
        self.assertFalse(replica.apply(first))
        self.assertEqual(replica.board, after_one)
        with self.assertRaises(ReplicaError):
            replica.apply({**first, "seq": 3})


if __name__ == "__main__":
    unittest.main()
