"""The shared replica fixtures (Tests/Fixtures/replica/*.json) through the Python example's
Replica (examples/python/bot.py): the board after each fixture's committed events is the
fixture's `after`, as for the Swift model and the browser SDK. (The example trusts the
server: events a replica must refuse, the fixtures' `refused`, never come from one.)"""

import copy
import importlib.util
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1])
spec = importlib.util.spec_from_file_location("bot", root / "examples/python/bot.py")
bot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bot)

failures = []
names = sorted((root / "Tests/Fixtures/replica").glob("*.json"))
for path in names:
    fixture = json.loads(path.read_text())
    if "after" not in fixture:
        continue
    replica = bot.Replica(copy.deepcopy(fixture["before"]), 0)
    for event in fixture["events"]:
        replica.apply(event)
    if replica.board != fixture["after"]:
        failures.append(f"{path.name}: {json.dumps(replica.board)} != {json.dumps(fixture['after'])}")
print("\n".join(failures) if failures else f"{len(names)} fixtures: all equal")
sys.exit(1 if failures else 0)
