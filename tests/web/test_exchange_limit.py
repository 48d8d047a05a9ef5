"""The per-address rate limit on opening /web links, kept in each process (bot/web/sessions.py)."""

from __future__ import annotations

from bot.web.sessions import EXCHANGE_TRIES, EXCHANGE_WINDOW, ExchangeLimit


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_the_exchange_is_rate_limited_per_address() -> None:
    clock = Clock()
    limit = ExchangeLimit(clock=clock)
    assert all(limit.allow("203.0.113.5") for _ in range(EXCHANGE_TRIES))
    assert not limit.allow("203.0.113.5")
    assert limit.allow("203.0.113.6")
    clock.now += EXCHANGE_WINDOW
    assert limit.allow("203.0.113.5")
