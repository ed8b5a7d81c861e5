"""The compact form of a board's drag batch (docs/protocol.md#compact-drags): the client asks
for it in its hello and reads each `drags.compact` as the `drags` changes it stands for."""

from __future__ import annotations

from typing import Any


class CompactDragError(ValueError):
    """A compact change of no known shape (the server's mistake: the batch is dropped)."""


def _placeholder(over: Any) -> dict[str, Any]:
    """`[index, before, collection]` as `{"collection", "index", "before"}`."""
    if (
        not isinstance(over, list)
        or len(over) != 3
        or not _is_index(over[0])
        or not (over[1] is None or isinstance(over[1], str))
        or not isinstance(over[2], str)
    ):
        raise CompactDragError(f"a compact over is [index, before, collection], not {over!r}")
    return {"collection": over[2], "index": int(over[0]), "before": over[1]}


def _column_placeholder(index: Any, before: Any) -> dict[str, Any]:
    """`index, before` as `{"index", "before"}`: a placeholder among the board's columns."""
    if not _is_index(index) or not (before is None or isinstance(before, str)):
        raise CompactDragError(f"a compact column over is index, before, not {[index, before]!r}")
    return {"index": int(index), "before": before}


def _is_index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def expand_change(change: Any) -> dict[str, Any]:
    """One compact change as the single message it stands for: `[client, reason]` a
    `drag.cleared`, `[client, index, before, collection]` a `drag.over`, `[client, name,
    items, over]` a `drag`; for a drag of columns `[client, index, before]` a `drag.over` and
    `[client, name, collections, index, before]` a `drag`."""
    if not isinstance(change, list) or not change or not isinstance(change[0], str):
        raise CompactDragError(f"a compact drag change is an array that starts with the client id, not {change!r}")
    client = change[0]
    if len(change) == 2 and isinstance(change[1], str):
        return {"type": "drag.cleared", "client": client, "reason": change[1]}
    if len(change) == 3 and _is_index(change[1]):
        return {"type": "drag.over", "client": client, "over": _column_placeholder(change[1], change[2])}
    if (
        len(change) == 5
        and isinstance(change[1], str)
        and isinstance(change[2], list)
        and all(isinstance(column, str) for column in change[2])
    ):
        over = None if change[3] is None and change[4] is None else _column_placeholder(change[3], change[4])
        return {"type": "drag", "client": client, "name": change[1], "collections": change[2], "over": over}
    if len(change) == 4 and _is_index(change[1]):
        return {"type": "drag.over", "client": client, "over": _placeholder(change[1:])}
    if (
        len(change) == 4
        and isinstance(change[1], str)
        and isinstance(change[2], list)
        and all(isinstance(item, str) for item in change[2])
    ):
        over = None if change[3] is None else _placeholder(change[3])
        return {"type": "drag", "client": client, "name": change[1], "items": change[2], "over": over}
    raise CompactDragError(f"not a compact drag change: {change!r}")


def expand(changes: list[Any]) -> list[dict[str, Any]]:
    """A `drags.compact` batch's changes as the long form's, in order."""
    return [expand_change(change) for change in changes]
