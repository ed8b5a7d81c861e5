"""Corkboard's Python client: join a board over its WebSocket protocol (docs/protocol.md), keep
its replica, send typed operations and read their outcomes, resume after a drop."""

from .board import Board, Collection, Destination, FolderFlag, Item
from .replica import Replica, ReplicaError, apply_operation

__all__ = [
    "Board",
    "Collection",
    "Destination",
    "FolderFlag",
    "Item",
    "Replica",
    "ReplicaError",
    "apply_operation",
]
