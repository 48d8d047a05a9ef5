"""A slow database for the e2e tests: every read-only query (what autocomplete, the GM check and the
Details button ask) waits first, as a database under load or behind a slow network would."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any


def slow_reads(table: Any, seconds: float) -> Callable[[], None]:
    """Every ``read`` of the running bot's transaction runner waits ``seconds`` first; returns the undo."""
    runner = table.bot.services.runtime.transactions
    read = runner.read

    async def slowed(work: Callable[[Any], Awaitable[Any]]) -> Any:
        await asyncio.sleep(seconds)
        return await read(work)

    runner.read = slowed
    return lambda: setattr(runner, "read", read)
