"""What bench/ compares is chosen where the bot is built (bench/switches.py's ``SwitchedServices``, which
``make_services`` builds when given a switch), not by a production module's global that a benchmark flips, nor by
a production constructor's flag: the target's picture after an attack, and /odds in the worker process."""

from __future__ import annotations

import inspect
import time
from dataclasses import fields
from typing import Any

import pytest

from bench.switches import Switches
from bot.services import Services, odds_worker
from bot.services.runtime import Runtime
from tests.conftest import GM_ROLE


async def _fight(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Hero", {"str": 0, "sta": 0, "dex": 2, "qik": 1, "abilities.Bow": 5},
                                     ["Longbow"], [])
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Hero")
    await services.encounters.add_npcs(gm, "bandit", 1)


DICE = "attack=9 defense=2 location=50 defender_shock=9"  # a hit that wounds


@pytest.mark.parametrize("pictures", [True, False])
async def test_the_targets_picture_is_chosen_where_the_bot_is_built(make_services: Any, manager: Any, alice: Any,
                                                                    gm: Any, pictures: bool) -> None:
    services = make_services(attack_pictures=pictures)
    await _fight(services, manager, alice, gm)
    report = await services.combat.attack(alice, "Bandit 1", "Longbow", dice_text=DICE)
    assert (await services.characters.get(gm, "Bandit 1")).sheet["wounds"]  # the same wound either way
    assert (report.target_picture is not None) == pictures


@pytest.mark.parametrize("in_worker", [True, False])
async def test_odds_run_in_a_thread_when_the_bot_is_built_without_the_worker(
        make_services: Any, manager: Any, alice: Any, gm: Any, monkeypatch: pytest.MonkeyPatch,
        in_worker: bool) -> None:
    services = make_services(odds_worker=in_worker)
    await _fight(services, manager, alice, gm)
    asked: list[str] = []

    async def worker(self: Any, system: str, scenario: Any, catalog: Any, forced: Any, budget: float) -> Any:
        asked.append("worker")  # (in a thread all the same: no process to start in a test)
        return await odds_worker.in_thread(system, scenario, catalog, forced, time.time() + budget)

    monkeypatch.setattr(odds_worker.OddsWorker, "compute", worker)
    view = await services.odds.odds(alice, "Bandit 1", "Longbow", {"aim": "mid"})
    assert view.declarations and view.declarations[0].odds.summary["hit"] > 0
    assert asked == (["worker"] if in_worker else [])


@pytest.mark.parametrize("built", [Services, Runtime])
def test_the_production_constructors_take_no_benchmark_switch(built: type) -> None:
    switches = {field.name for field in fields(Switches)}
    assert not switches & set(inspect.signature(built).parameters)
