"""Drives a running Corkboard server through a client that openapi-python-client generated
from its /api/openapi.json, and nothing else (OpenAPIPythonClientTests): what a team that
generates its client from the document gets must work end to end.

Usage: generated_client_drive.py FOLDER_HOLDING_corkboard_api BASE_URL
Prints one line per step and "all steps passed" at the end; any failure raises.
"""

import sys

sys.path.insert(0, sys.argv[1])

from corkboard_api import Client  # noqa: E402
from corkboard_api.api.default import (  # noqa: E402
    create_board,
    get_board,
    list_boards,
    list_events,
    submit_operation,
)
from corkboard_api.models import (  # noqa: E402
    BoardDocument,
    BoardList,
    Committed,
    Destination,
    Error,
    EventPage,
    Insert,
    MoveByAnchor,
    NewBoard,
    NewCollection,
    NewItem,
    Rejected,
)
from corkboard_api.types import UNSET  # noqa: E402

client = Client(base_url=sys.argv[2], raise_on_unexpected_status=True)


def check(condition, what):
    if not condition:
        raise AssertionError(what)


# Three boards, so that a listing in pages of two has two pages.
board_ids = ["gen-a", "gen-b", "gen-c"]
for board_id in board_ids:
    created = create_board.sync(
        client=client,
        body=NewBoard(
            id=board_id,
            title=f"Generated {board_id}",
            collections=[
                NewCollection(id="todo", title="To do", items=[NewItem(id=f"i{n}", label=f"Item {n}") for n in range(1, 6)]),
                NewCollection(id="done", title="Done"),
            ],
        ),
    )
    check(isinstance(created, BoardDocument) and created.seq == 0, f"create {board_id}: {created!r}")
print("created", board_ids)

# Five operations on the first board, each committed at the next seq.
for n in range(1, 6):
    outcome = submit_operation.sync(
        "gen-a",
        client=client,
        body=MoveByAnchor(
            op_id=f"gen-move-{n}", base_seq=n - 1, sources=[f"i{n}"], destination=Destination(collection="done"), type_="move"
        ),
    )
    check(isinstance(outcome, Committed) and outcome.seq == n, f"move {n}: {outcome!r}")
print("committed 5 operations")

# The log in pages of two, following next with cursor.
seqs = []
cursor = UNSET
pages = 0
while True:
    page = list_events.sync("gen-a", client=client, cursor=cursor, limit=2)
    check(isinstance(page, EventPage), f"log page: {page!r}")
    pages += 1
    seqs += [event.seq for event in page.events]
    if page.next_ is UNSET:
        break
    cursor = page.next_
check(seqs == [1, 2, 3, 4, 5], f"the log: {seqs}")
check(pages == 3, f"pages of the log: {pages}")
print("read the log in", pages, "pages")

# The boards in pages of two, following next with cursor.
listed = []
cursor = UNSET
pages = 0
while True:
    page = list_boards.sync(client=client, limit=2, cursor=cursor)
    check(isinstance(page, BoardList), f"board page: {page!r}")
    check(len(page.boards) <= 2, f"a page of {len(page.boards)} boards")
    pages += 1
    listed += [board.id for board in page.boards]
    if page.next_ is UNSET:
        break
    cursor = page.next_
check(listed == sorted(listed) and len(set(listed)) == len(listed), f"boards listed: {listed}")
check(set(board_ids) <= set(listed), f"boards listed: {listed}")
print("listed", listed, "in", pages, "pages")

# Errors, read through the generated models: a rejected operation keeps its code and carries error.
refused = submit_operation.sync(
    "gen-b",
    client=client,
    body=Insert(
        op_id="gen-insert-twice",
        base_seq=0,
        items=[NewItem(id="i1", label="Again")],
        destination=Destination(collection="todo"),
        type_="insert",
    ),
)
check(isinstance(refused, Rejected), f"an insert of an existing id: {refused!r}")
check(refused.error == "bad request" and refused.code.value == "invalid", f"the refusal: {refused!r}")
check(refused.op_id == "gen-insert-twice" and isinstance(refused.message, str), f"the refusal: {refused!r}")
print("rejected:", refused.code.value, refused.error, "-", refused.message)

missing = get_board.sync("gen-missing", client=client)
check(isinstance(missing, Error) and missing.error == "not found", f"an unknown board: {missing!r}")
print("error:", missing.error, "-", missing.message)

print("all steps passed")
