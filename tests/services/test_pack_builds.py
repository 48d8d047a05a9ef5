"""A homebrew catalog is built off the event loop and outside any transaction, once per pack version:
an upload keeps the catalog it checked, and after a restart the commands that need it share one build."""

from __future__ import annotations

import asyncio
import threading
from importlib import resources
from typing import Any

import pytest

from bot.errors import UserError
from content import ContentError
from tests.conftest import GM_ROLE

DEFAULT_WEAPONS = (resources.files("content") / "ars_harn" / "weapons.yaml").read_bytes()
WEAPONS = DEFAULT_WEAPONS + b"  Moon Blade: {skill: Sword, weight: 3, hm_attack: 15, hm_defence: 5, edge: 7}\n"


class CountingBuilds:
    """Wraps Runtime.packs: counts builds, and notes where each ran and whether a connection was open."""

    def __init__(self, services: Any) -> None:
        self.services = services
        self.build = services.runtime.catalogs.packs
        self.threads: list[str] = []
        self.open_connections: list[int] = []
        services.runtime.catalogs.packs = self

    def __call__(self, system: str, files: Any) -> Any:
        self.threads.append(threading.current_thread().name)
        self.open_connections.append(self.services.db.engine.sync_engine.pool.checkedout())
        return self.build(system, files)


async def _ars_harn(services: Any, manager: Any) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)


async def test_one_build_per_pack_version_off_the_loop_outside_transactions(make_services: Any, manager: Any,
                                                                           gm: Any, alice: Any) -> None:
    services = make_services()
    await _ars_harn(services, manager)
    builds = CountingBuilds(services)
    await services.packs.upload(gm, "weapons.yaml", WEAPONS)
    assert "Moon Blade" in await services.characters.item_names(alice, "weapon", "moon")
    assert (await services.packs.show(gm)).weapons == 55
    assert len(builds.threads) == 1  # the upload's own build is kept under the new version

    restarted = make_services()  # a new process: nothing cached
    after = CountingBuilds(restarted)
    found = await asyncio.gather(*(restarted.characters.item_names(alice, "weapon", "moon") for _ in range(6)),
                                 restarted.packs.show(gm))
    assert all(names == ["Moon Blade"] for names in found[:6]) and found[6].weapons == 55
    assert len(after.threads) == 1  # seven commands, one build
    assert threading.main_thread().name not in builds.threads + after.threads
    assert builds.open_connections == [0]  # the upload's transaction is not held open while it builds


async def test_a_build_that_fails_is_one_line_and_not_kept(make_services: Any, manager: Any, gm: Any) -> None:
    services = make_services()
    await _ars_harn(services, manager)
    builds = CountingBuilds(services)
    broken = WEAPONS.replace(b"edge: 7}", b"edge: keen}")
    for _ in range(2):
        with pytest.raises(ContentError, match="entry 'Moon Blade': field 'edge'"):
            await services.packs.upload(gm, "weapons.yaml", broken)
    assert len(builds.threads) == 2  # a failure is not cached: the next try builds again
    assert (await services.packs.show(gm)).files == ()


async def test_a_build_past_the_budget_is_one_line_and_changes_nothing(make_services: Any, manager: Any,
                                                                      gm: Any) -> None:
    services = make_services()
    await _ars_harn(services, manager)
    services.runtime.slow_work.work_budget = 0.05  # the limit this test checks, set here
    slow_build = services.runtime.catalogs.packs

    def slow(system: str, files: Any) -> Any:
        threading.Event().wait(0.5)
        return slow_build(system, files)

    services.runtime.catalogs.packs = slow
    with pytest.raises(UserError, match=r"^that took too long to read, so nothing was changed"):
        await services.packs.upload(gm, "weapons.yaml", WEAPONS)
    assert (await services.packs.show(gm)).files == ()
