"""Delays that double from a base up to a cap, each spread by jitter, so that the many clients a
server restart disconnects at once do not all knock again at the same moment."""

import random


class Backoff:
    def __init__(self, base: float, cap: float, jitter: float = 0.5) -> None:
        self.base = base
        self.cap = cap
        self.jitter = jitter
        self.attempts = 0

    def next(self) -> float:
        """The next delay in seconds (between (1 - jitter) and 1 times the plain one), counted."""
        plain = min(self.cap, self.base * 2.0**self.attempts)
        self.attempts += 1
        return plain * (1 - self.jitter * random.random())

    def reset(self) -> None:
        """It went well: the next failure starts from the base again."""
        self.attempts = 0
