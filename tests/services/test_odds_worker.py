"""/odds enumerates in a worker process once it is up (a thread until then): the same odds either way."""

from __future__ import annotations

import asyncio

import pytest

from bot.services import odds_worker
from bot.services.odds_worker import OddsWorker
from content import load_catalog
from tests.rules.odds.odds_support import example


async def test_the_first_ask_runs_in_a_thread_and_later_ones_in_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    scenario, _ = example("fading-suns-broadsword-vs-jerkin")
    catalog = load_catalog(scenario.system)
    worker = OddsWorker()
    try:
        in_thread = await worker.compute(scenario.system, scenario, catalog, {"attack": [4]}, 30.0)
        assert worker._ready is not None
        assert await asyncio.wrap_future(worker._ready) == ["ars-harn", "pendragon", "fading-suns"]

        def not_here(*args: object) -> None:
            raise AssertionError("the enumeration ran in the bot's process")

        monkeypatch.setattr(odds_worker, "compute_odds", not_here)
        in_worker = await worker.compute(scenario.system, scenario, catalog, {"attack": [4]}, 30.0)
    finally:
        worker.close()
    assert in_worker.distribution.complete
    assert in_worker.distribution.leaves == in_thread.distribution.leaves
    assert in_worker.summary == in_thread.summary
