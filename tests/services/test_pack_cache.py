"""The homebrew catalog cache is bounded by the bytes its catalogs hold, not by their number; the size
it counts is checked against tracemalloc's, and every build runs on the one build worker."""

from __future__ import annotations

import functools
import gc
import os
import signal
import threading
import tracemalloc
from importlib import resources
from typing import Any

from bot.services.catalog_size import deep_size
from bot.services.runtime import Runtime
from content import load_catalog_files
from tests.conftest import SERVICE_WORK_SECONDS
from tests.e2e.test_e2e_hostile_input import large_weapons_pack


def _tracemalloc_size(build: Any) -> tuple[Any, int]:
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        catalog = build()
        gc.collect()
        return catalog, tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_a_catalogs_counted_size_is_within_a_factor_of_two_of_what_tracemalloc_sees() -> None:
    pack = large_weapons_pack()
    load_catalog_files("ars-harn", {"weapons.yaml": large_weapons_pack(8 * 1024)})  # the default pack, cached
    catalog, traced = _tracemalloc_size(lambda: load_catalog_files("ars-harn", {"weapons.yaml": pack}))
    counted = deep_size(catalog)
    print(f"511 KiB weapons.yaml: counted {counted / 1e6:.2f} MB, tracemalloc {traced / 1e6:.2f} MB")
    assert traced / 2 <= counted <= traced * 2, (counted, traced)


async def test_the_cache_drops_the_least_recently_used_catalogs_past_its_byte_bound(db: Any) -> None:
    rt = Runtime(db)
    rt.catalogs.pack_cache_limit = 1000
    for guild in range(5):
        rt.catalogs.remember_pack(guild, "ars-harn", 1, (object(), 400))
    assert rt.catalogs.pack_cache_bytes == 800  # two of 400 fit under 1,000 bytes; the oldest three went
    assert sorted(key[0] for key in rt.catalogs._pack_cache) == [3, 4]
    rt.catalogs.remember_pack(3, "ars-harn", 2, (object(), 300))  # a newer version replaces its bytes
    assert rt.catalogs.pack_cache_bytes == 700
    rt.catalogs.remember_pack(9, "ars-harn", 1, (object(), 5000))  # one over the bound alone is still kept
    assert rt.catalogs.pack_cache_bytes == 5000 and list(rt.catalogs._pack_cache) == [(9, "ars-harn")]


async def test_builds_run_one_at_a_time_on_the_one_build_thread(db: Any) -> None:
    rt = Runtime(db)
    running, most, threads = 0, 0, set()
    lock = threading.Lock()

    def build(system: str, files: Any) -> Any:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
            threads.add(threading.current_thread().name)
        threading.Event().wait(0.05)
        with lock:
            running -= 1
        return object()

    rt.catalogs.packs = build
    import asyncio

    from bot.services.slow_work import BuildNeeded

    async def one(n: int) -> None:
        try:
            rt.catalogs.candidate_catalog("ars-harn", {"weapons.yaml": f"w{n}".encode()})
        except BuildNeeded as needed:
            await rt.slow_work.build(needed)

    await asyncio.gather(*(one(n) for n in range(6)))
    assert most == 1 and len(threads) == 1 and next(iter(threads)).startswith("pack-build")


def _merge_with_pid(text: bytes) -> tuple[bytes, list[str], list[str]]:
    """A merge that says which process ran it (module level: it crosses to the build process by name)."""
    return text, [f"pid {os.getpid()}"], []


async def test_an_upload_is_merged_in_the_build_process_and_a_killed_process_is_replaced(db: Any) -> None:
    """Merging parses both files (libyaml holds the GIL): never in the bot's process, whose loop would stall.
    The merged file's catalog comes back with it, so the transaction storing it builds nothing more."""
    rt = Runtime(db)
    rt.slow_work.work_budget = SERVICE_WORK_SECONDS  # spawning the build process on a loaded machine took over 10 s
    try:
        shipped = (resources.files("content") / "ars_harn" / "weapons.yaml").read_bytes()
        text, added, _ = await rt.catalogs.merged_upload(functools.partial(_merge_with_pid, shipped), "ars-harn",
                                                "weapons.yaml", {})
        assert text == shipped and added != [f"pid {os.getpid()}"]
        assert rt.catalogs.candidate_catalog("ars-harn", {"weapons.yaml": shipped}) is not None  # kept: no BuildNeeded
        first = rt.slow_work._process
        assert first is not None
        for process in list(first._processes.values()):  # the build process dies (the OOM killer)
            os.kill(process.pid, signal.SIGKILL)
            process.join(10)
        text, added, _ = await rt.catalogs.merged_upload(functools.partial(_merge_with_pid, b"x"), "ars-harn",
                                                "weapons.yaml", {})
        assert text == b"x" and added == [f"pid {os.getpid()}"]  # on the build thread, this once
        _, added, _ = await rt.catalogs.merged_upload(functools.partial(_merge_with_pid, shipped), "ars-harn",
                                             "weapons.yaml", {})
        replaced = rt.slow_work._process
        assert replaced is not None and replaced is not first and added != [f"pid {os.getpid()}"]
    finally:
        await rt.close()
