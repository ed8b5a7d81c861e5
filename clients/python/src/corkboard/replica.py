"""The board as the server confirmed it: a `welcome` snapshot plus every `committed` event
applied in seq order (docs/protocol.md#1-the-model, "Replicas converge").

`apply_operation` applies a *resolved* operation, the `op` of a `committed` event, exactly as
the browser SDK's replica does (web/sdk/replica.js): the server has already resolved anchors,
dropped absent sources and picked the fallback (docs/protocol.md#5-resolution), so nothing is
resolved again here. An operation that does not fit means this replica is out of step with the
server, and raises `ReplicaError`; the shared fixtures (Tests/Fixtures/replica) check both.
"""

from collections.abc import Mapping
from typing import Any, cast

from .board import (
    Board,
    Destination,
    Item,
    copy_board,
    enclosing_folders,
    find_item,
    items_of,
)


class ReplicaError(Exception):
    """A committed event does not fit this replica: it is out of step with the server."""


def apply_operation(board: Board, op: Mapping[str, Any]) -> Board:
    """The board after `op` (a committed event's `op`), as a new board; `board` is unchanged."""
    after = copy_board(board)
    kind = op.get("type")
    if kind == "move":
        _move(after, op["sources"], op["destination"])
    elif kind == "insert":
        _insert(after, op["items"], op["destination"])
    elif kind == "delete":
        _delete(after, op["items"])
    elif kind == "update":
        _update(after, op)
    elif kind == "collection.add":
        _add_collection(after, op["collection"], op.get("before"))
    elif kind == "collection.remove":
        _remove_collection(after, op["collection"], op.get("withItems") is True)
    elif kind == "collection.move":
        _move_collections(after, op["collections"], op.get("before"))
    elif kind == "lock":
        after["locked"] = op["locked"]
    else:
        # A newer server could send an operation this client does not know.
        raise ReplicaError(f"unknown operation {kind!r}")
    # As on the wire: no "folders" on a board without folders.
    if "folders" in after and not after["folders"]:
        del after["folders"]
    return after


def _move(board: Board, sources: list[str], destination: Destination) -> None:
    inside = next((f for f in enclosing_folders(board, destination["collection"]) if f in sources), None)
    if inside is not None:
        raise ReplicaError(f"move: folder {inside} would be inside itself")
    moved = _take(board, sources)
    if len(moved) != len(sources):
        raise ReplicaError("move: a source is not on the board")
    _put(board, moved, destination)


def _insert(board: Board, items: list[Item], destination: Destination) -> None:
    for item in items:
        if find_item(board, item["id"]) is not None:
            raise ReplicaError(f"insert: {item['id']} exists")
    for item in items:
        if "folder" in item and items_of(board, item["id"]) is not None:
            raise ReplicaError(f"insert: {item['id']} names a list")
    _put(board, [item.copy() for item in items], destination)
    # A folder is inserted empty.
    for item in items:
        if "folder" in item:
            board.setdefault("folders", {})[item["id"]] = []


def _delete(board: Board, item_ids: list[str]) -> None:
    # The server commits a delete with its items still there (docs/protocol.md#5-resolution):
    # one naming an absent item means this replica is out of step.
    if any(find_item(board, i) is None for i in item_ids):
        raise ReplicaError("delete: an item is not on the board")
    # What is inside a folder goes with it.
    for item in _take(board, item_ids):
        _remove_folder_contents(board, item)


def _update(board: Board, op: Mapping[str, Any]) -> None:
    # An update names an item, or a collection, or neither: then its title is the board's.
    if op.get("item") is not None:
        found = find_item(board, op["item"])
        if found is None:
            raise ReplicaError(f"update: no item {op['item']}")
        items, index = found
        item = items[index]
        if "accepts" in op:
            if "folder" not in item:
                raise ReplicaError(f"update: {op['item']} is not a folder")
            item["folder"] = {"accepts": op["accepts"]}
        if "label" in op:
            item["label"] = op["label"]
        if "data" in op:
            if op["data"] is None:
                item.pop("data", None)
            else:
                item["data"] = op["data"]
    elif op.get("collection") is not None:
        collection = next((c for c in board["collections"] if c["id"] == op["collection"]), None)
        if collection is None:
            # A folder's list has no title of its own: renaming one changes nothing (as the SDK).
            if op["collection"] in board.get("folders", {}):
                return
            raise ReplicaError(f"update: no collection {op['collection']}")
        collection["title"] = op["title"]
    else:
        board["title"] = op["title"]


def _add_collection(board: Board, collection: Mapping[str, str], before: str | None) -> None:
    if items_of(board, collection["id"]) is not None:
        raise ReplicaError(f"collection.add: {collection['id']} exists")
    columns = board["collections"]
    at = next((n for n, c in enumerate(columns) if before is not None and c["id"] == before), len(columns))
    columns.insert(at, {"id": collection["id"], "title": collection["title"], "items": []})


def _remove_collection(board: Board, collection_id: str, with_items: bool) -> None:
    columns = board["collections"]
    at = next((n for n, c in enumerate(columns) if c["id"] == collection_id), None)
    if at is None or (columns[at]["items"] and not with_items):
        raise ReplicaError(f"collection.remove: {collection_id}")
    # With its items: they go as a delete takes them, folders with what they hold.
    for item in columns[at]["items"]:
        _remove_folder_contents(board, item)
    del columns[at]


def _move_collections(board: Board, collections: list[str], before: str | None) -> None:
    columns = board["collections"]
    ids = [c["id"] for c in columns]
    if not collections or len(set(collections)) != len(collections) or any(c not in ids for c in collections):
        raise ReplicaError(f"collection.move: {collections}")
    if before is not None and (before not in ids or before in collections):
        raise ReplicaError(f"collection.move: before {before}")
    moving = [columns[ids.index(c)] for c in collections]
    rest = [c for c in columns if c["id"] not in collections]
    at = len(rest) if before is None else [c["id"] for c in rest].index(before)
    board["collections"] = rest[:at] + moving + rest[at:]


def _remove_folder_contents(board: Board, item: Item) -> None:
    folders = board.get("folders")
    if "folder" not in item or folders is None:
        return
    for child in folders.pop(item["id"], []):
        _remove_folder_contents(board, child)


def _take(board: Board, item_ids: list[str]) -> list[Item]:
    """Removes the items that are there from wherever they are; returns them in the order asked."""
    taken: list[Item] = []
    for item_id in item_ids:
        found = find_item(board, item_id)
        if found is None:
            continue
        items, index = found
        taken.append(items.pop(index))
    return taken


def _put(board: Board, items: list[Item], destination: Destination) -> None:
    into = items_of(board, destination["collection"])
    if into is None:
        raise ReplicaError(f"no collection {destination['collection']}")
    before = destination.get("before")
    if before is None:
        into.extend(items)
        return
    at = next((n for n, i in enumerate(into) if i["id"] == before), None)
    if at is None:
        raise ReplicaError(f"anchor {before} is not in {destination['collection']}")
    into[at:at] = items


def board_from_wire(value: Any) -> Board:
    """A board as a `welcome` carries it (JSON, already parsed)."""
    if not isinstance(value, dict) or not isinstance(value.get("collections"), list):
        raise ReplicaError("the welcome's board is not a board")
    return cast(Board, value)


class Replica:
    """A board at a seq of an epoch: where a client resumes from (docs/protocol.md#resume)."""

    def __init__(self, board: Board, epoch: str, seq: int) -> None:
        self.board = board
        self.epoch = epoch
        self.seq = seq

    def apply(self, event: Mapping[str, Any]) -> bool:
        """Applies a `committed` event with an `op`; False when it repeats one already applied
        (the answer to a resent opId). Raises `ReplicaError` on a gap or an op that does not fit."""
        seq = event["seq"]
        if seq <= self.seq:
            return False
        if seq != self.seq + 1:
            raise ReplicaError(f"expected seq {self.seq + 1}, got {seq}")
        self.board = apply_operation(self.board, event["op"])
        self.seq = seq
        return True
