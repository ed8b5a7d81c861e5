"""What an operation came to (docs/protocol.md#outcomes): exactly one of these per opId."""

from dataclasses import dataclass
from typing import Any

# Rejections that may go another way when the same opId is sent again later.
TRANSIENT_CODES = frozenset({"locked", "busy", "rate-limited", "unavailable"})


@dataclass(frozen=True)
class Committed:
    """The operation is on the board at `seq`; `event` is the `committed` message, its `op` as
    resolved (§5) and `adjusted` true when resolution changed what was asked."""

    op_id: str
    seq: int
    event: dict[str, Any]

    @property
    def adjusted(self) -> bool:
        return bool(self.event.get("adjusted", False))


@dataclass(frozen=True)
class Noop:
    """A move that would change nothing: not sequenced; `seq` is the board's when decided."""

    op_id: str
    seq: int


@dataclass(frozen=True)
class Rejected:
    """Nothing changed. Programs read `code`; `message` is for people."""

    op_id: str
    code: str
    message: str

    @property
    def transient(self) -> bool:
        return self.code in TRANSIENT_CODES


Outcome = Committed | Noop | Rejected
