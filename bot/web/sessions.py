"""The web page's login: links and sessions live in the database (bot/services/web_sessions.py), so any process
serves any of them; what stays in each process is the rate limit on opening links, per address.

The limit is per process: behind a load balancer over N processes an address gets at most N times the tries.
A token is 256 random bits, so guessing gets nowhere either way; the limit only keeps the database quiet.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from bot.services.web_sessions import (
    LINK_SECONDS,
    SESSION_SECONDS,
    Grant,
    Refusal,
    Refused,
    Role,
    Session,
)

__all__ = ["EXCHANGE_TRIES", "EXCHANGE_WINDOW", "LINK_SECONDS", "SESSION_SECONDS", "ExchangeLimit", "Grant",
           "Refusal", "Refused", "Role", "Session"]

# The token exchange, per address: this many tries in the window (a person clicks a link once or twice).
EXCHANGE_TRIES = 10
EXCHANGE_WINDOW = 60.0
MAX_ADDRESSES = 10_000  # addresses remembered before idle ones are forgotten


class ExchangeLimit:
    """The per-address rate limit on opening links, in this process."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._tries: dict[str, deque[float]] = {}

    def allow(self, address: str) -> bool:
        now = self._clock()
        tries = self._tries.setdefault(address, deque())
        while tries and tries[0] <= now - EXCHANGE_WINDOW:
            tries.popleft()
        if len(tries) >= EXCHANGE_TRIES:
            return False
        tries.append(now)
        if len(self._tries) > MAX_ADDRESSES:  # forget idle addresses
            for idle in [a for a, t in self._tries.items() if not t or t[-1] <= now - EXCHANGE_WINDOW]:
                del self._tries[idle]
        return True
