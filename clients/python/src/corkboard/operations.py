"""The operations of docs/protocol.md#4-operations, typed. Each becomes the wire message without
its `opId` and `baseSeq`, which the client adds when it sends it."""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .board import Item


class _Keep(Enum):
    """An item update's `data` left as it is (absent on the wire), apart from None (removed)."""

    KEEP = "keep"


KEEP = _Keep.KEEP


@dataclass(frozen=True)
class Move:
    """`sources` land together, in this order, before `before` in `collection` (a column or a
    folder; None: the end). The server resolves anchors that moved meanwhile (protocol §5)."""

    sources: Sequence[str]
    collection: str
    before: str | None = None

    def wire(self) -> dict[str, Any]:
        return {
            "type": "move",
            "sources": list(self.sources),
            "destination": {"collection": self.collection, "before": self.before},
        }


@dataclass(frozen=True)
class MoveByOffsets:
    """A move as Swift's `Array.move(fromOffsets:toOffset:)` says it, read against the board at
    the base seq; it commits in anchor form like any move."""

    collection: str
    from_offsets: Sequence[int]
    to_offset: int
    to_collection: str | None = None

    def wire(self) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "move",
            "collection": self.collection,
            "fromOffsets": list(self.from_offsets),
            "toOffset": self.to_offset,
        }
        if self.to_collection is not None:
            message["toCollection"] = self.to_collection
        return message


@dataclass(frozen=True)
class Insert:
    """New items before `before` in `collection` (None: the end). An item with `folder` is an
    empty folder."""

    items: Sequence[Item]
    collection: str
    before: str | None = None

    def wire(self) -> dict[str, Any]:
        return {
            "type": "insert",
            "items": [dict(item) for item in self.items],
            "destination": {"collection": self.collection, "before": self.before},
        }


@dataclass(frozen=True)
class Delete:
    """Removes the items wherever they are; a folder takes what it holds along."""

    items: Sequence[str]

    def wire(self) -> dict[str, Any]:
        return {"type": "delete", "items": list(self.items)}


@dataclass(frozen=True)
class UpdateItem:
    """Sets an item's label and/or data: `data=None` removes it, `KEEP` (the default) leaves it."""

    item: str
    label: str | None = None
    data: dict[str, Any] | None | _Keep = KEEP

    def wire(self) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "update", "item": self.item}
        if self.label is not None:
            message["label"] = self.label
        if self.data is not KEEP:
            message["data"] = self.data
        return message


@dataclass(frozen=True)
class SetAccepts:
    """Whether a folder takes items from elsewhere: an update of its own."""

    folder: str
    accepts: bool

    def wire(self) -> dict[str, Any]:
        return {"type": "update", "item": self.folder, "accepts": self.accepts}


@dataclass(frozen=True)
class RenameCollection:
    collection: str
    title: str

    def wire(self) -> dict[str, Any]:
        return {"type": "update", "collection": self.collection, "title": self.title}


@dataclass(frozen=True)
class RenameBoard:
    """The board's own title (an owner's operation)."""

    title: str

    def wire(self) -> dict[str, Any]:
        return {"type": "update", "title": self.title}


@dataclass(frozen=True)
class AddCollection:
    """An empty collection before `before` (None, or one that is gone: last)."""

    id: str
    title: str
    before: str | None = None

    def wire(self) -> dict[str, Any]:
        return {"type": "collection.add", "collection": {"id": self.id, "title": self.title}, "before": self.before}


@dataclass(frozen=True)
class RemoveCollection:
    """Removes an empty collection; with `with_items=True` any, with everything in it."""

    collection: str
    with_items: bool = False

    def wire(self) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "collection.remove", "collection": self.collection}
        if self.with_items:
            message["withItems"] = True
        return message


@dataclass(frozen=True)
class MoveCollections:
    """Columns land together, in this order, before the column `before` (None: the end). The
    server resolves a `before` removed or moved meanwhile as it does a move's anchor (protocol §5)."""

    collections: Sequence[str]
    before: str | None = None

    def wire(self) -> dict[str, Any]:
        return {"type": "collection.move", "collections": list(self.collections), "before": self.before}


@dataclass(frozen=True)
class MoveCollectionsByOffsets:
    """A column move as Swift's `Array.move(fromOffsets:toOffset:)` says it, read against the
    board's columns at the base seq; it commits in anchor form."""

    from_offsets: Sequence[int]
    to_offset: int

    def wire(self) -> dict[str, Any]:
        return {"type": "collection.move", "fromOffsets": list(self.from_offsets), "toOffset": self.to_offset}


@dataclass(frozen=True)
class Lock:
    """Locks (or with `locked=False` unlocks) the board: an owner's operation."""

    locked: bool = True

    def wire(self) -> dict[str, Any]:
        return {"type": "lock", "locked": self.locked}


Operation = (
    Move
    | MoveByOffsets
    | Insert
    | Delete
    | UpdateItem
    | SetAccepts
    | RenameCollection
    | RenameBoard
    | AddCollection
    | RemoveCollection
    | MoveCollections
    | MoveCollectionsByOffsets
    | Lock
)
