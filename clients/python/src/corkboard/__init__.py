"""Corkboard's Python client: join a board over its WebSocket protocol (docs/protocol.md), keep
its replica, send typed operations and read their outcomes, resume after a drop, and keep a
signed token fresh."""

from importlib.metadata import PackageNotFoundError, version

from .board import Board, Collection, Destination, FolderFlag, Item, ordered_item_ids
from .client import CannotConnect, Client, ClientClosed, Refused
from .events import ConnectionState, Event, EventStream, ServerMessage, StateChanged
from .operations import (
    KEEP,
    AddCollection,
    Delete,
    Insert,
    Lock,
    Move,
    MoveByOffsets,
    MoveCollections,
    MoveCollectionsByOffsets,
    Operation,
    RemoveCollection,
    RenameBoard,
    RenameCollection,
    SetAccepts,
    UpdateItem,
)
from .outcomes import Committed, Noop, Outcome, Rejected
from .replica import Replica, ReplicaError, apply_operation
from .tokens import TokenProvider, TokenSource

try:
    # One version, the one in pyproject.toml (the server's).
    __version__ = version("corkboard")
except PackageNotFoundError:  # imported from a source tree, not installed
    __version__ = "0+unknown"

__all__ = [
    "KEEP",
    "AddCollection",
    "Board",
    "CannotConnect",
    "Client",
    "ClientClosed",
    "Collection",
    "Committed",
    "ConnectionState",
    "Delete",
    "Destination",
    "Event",
    "EventStream",
    "FolderFlag",
    "Insert",
    "Item",
    "Lock",
    "Move",
    "MoveByOffsets",
    "MoveCollections",
    "MoveCollectionsByOffsets",
    "Noop",
    "Operation",
    "Outcome",
    "Refused",
    "Rejected",
    "RemoveCollection",
    "RenameBoard",
    "RenameCollection",
    "Replica",
    "ReplicaError",
    "ServerMessage",
    "SetAccepts",
    "StateChanged",
    "TokenProvider",
    "TokenSource",
    "UpdateItem",
    "apply_operation",
    "ordered_item_ids",
]
