"""Each page rendered once per kind of viewer and campaign revision (bot/web/page_cache.py, issue 33): a kept page is
never another kind's, a change written by any process shows on the next read, a burst of one kind renders once,
and each viewer's header names them."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest

from bot.ops.metrics import Metrics
from bot.services import Services
from bot.web.page_cache import MARK, PageCache, Rendered
from bot.web.server import COOKIE, WebServer
from bot.web.sessions import Grant
from tests.conftest import CHANNEL, GM_ROLE, GUILD, bjorn_against_a_bandit

NAMES = ((CHANNEL, "great-hall"),)
ALICE = Grant(GUILD, 11, "Alice", "player", (), False, frozenset({CHANNEL}), channel_names=NAMES)
MALLORY = Grant(GUILD, 13, "<b>Mallory</b>", "player", (), False, frozenset({CHANNEL}), channel_names=NAMES)
GEMMA = Grant(GUILD, 2, "Gemma", "gm", (GM_ROLE,), False, None, channel_names=NAMES)


def page(text: str) -> Rendered:
    return Rendered.page(text)


# -- the cache itself ----------------------------------------------------------------------------------------


async def test_misses_of_one_key_at_once_wait_for_one_render() -> None:
    cache, renders = PageCache(), []
    release = asyncio.Event()

    async def render() -> Rendered:
        renders.append(1)
        await release.wait()
        return page(f"<p>{MARK}</p>")

    readers = [asyncio.create_task(cache.get("p", "key", render)) for _ in range(20)]
    await asyncio.sleep(0.01)
    readers[0].cancel()  # a browser gone: the render goes on for the others
    release.set()
    done = await asyncio.gather(*readers[1:])
    assert len(renders) == 1 and {d.body("Bob") for d in done} == {b"<p>Bob</p>"}
    assert (cache.hits, cache.misses) == (19, 1)
    assert (await cache.get("p", "key", render)).body("x") == b"<p>x</p>" and len(renders) == 1


async def test_a_failed_render_is_not_kept_and_its_waiters_get_its_failure() -> None:
    cache, tries = PageCache(), []

    async def fails() -> Rendered:
        tries.append(1)
        await asyncio.sleep(0.01)
        raise LookupError("gone")

    results = await asyncio.gather(*(cache.get("p", "k", fails) for _ in range(3)), return_exceptions=True)
    assert all(isinstance(r, LookupError) for r in results) and len(tries) == 1
    with pytest.raises(LookupError):
        await cache.get("p", "k", fails)
    assert len(tries) == 2 and len(cache) == 0


async def test_entries_are_bounded_by_count_bytes_and_age() -> None:
    now = [0.0]
    cache = PageCache(max_entries=3, max_bytes=100, max_age=30, clock=lambda: now[0])

    async def sized(n: int) -> Rendered:
        return page("x" * n)

    for key in "abc":
        await cache.get("p", key, lambda: sized(10))
    await cache.get("p", "a", lambda: sized(10))  # a used again: b is now the least recent
    await cache.get("p", "d", lambda: sized(10))
    assert set(cache._kept) == {"a", "c", "d"}
    await cache.get("p", "e", lambda: sized(95))  # past 100 bytes: the oldest go until it fits
    assert set(cache._kept) == {"e"} and cache.bytes == 95
    await cache.get("p", "f", lambda: sized(101))  # larger than the whole cache: served, not kept
    assert set(cache._kept) == {"e"}
    now[0] = 31.0
    misses = cache.misses
    await cache.get("p", "e", lambda: sized(5))  # older than max_age: rendered again
    assert cache.misses == misses + 1 and cache.bytes == 5


def test_the_viewers_name_is_escaped_into_the_kept_page() -> None:
    kept = page(f"<title>a</title><span>{MARK}</span><main>b</main>")
    assert kept.body("<b>Mallory</b> & co") == (b"<title>a</title><span>&lt;b&gt;Mallory&lt;/b&gt; &amp; co</span>"
                                               b"<main>b</main>")
    assert page("<img>").body("Bob") == b"<img>"  # nothing names the viewer


# -- the pages -----------------------------------------------------------------------------------------------


def web_of(services: Services) -> WebServer:
    bot = SimpleNamespace(metrics=Metrics(), get_guild=lambda _id: None, get_user=lambda _id: None,
                          services=services)
    return WebServer(bot, port=0)


@pytest.fixture
async def fight(services: Services, manager: Any, gm: Any, alice: Any) -> AsyncIterator[WebServer]:
    """Bjorn against Bandit 1 (ars-harn) under secret rolls; its web server."""
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=False)
    await services.setup.set_secret_rolls(manager, True)
    web = web_of(services)
    await web.start()
    yield web
    await web.stop()


async def reader(web: WebServer, http: aiohttp.ClientSession, grant: Grant) -> Any:
    session = await web.sessions.exchange(await web.sessions.link_token(grant))
    headers = {"Cookie": f"{COOKIE}={session.id}"}

    async def read(path: str) -> str:
        async with http.get(path, headers=headers) as response:
            assert response.status == 200, (path, response.status)
            return await response.text()

    return read


PAGES = ("/web/", "/web/roster", "/web/character/Bandit%201", f"/web/encounter/{CHANNEL}", f"/web/log/{CHANNEL}")
FIGURE = re.compile(r"B2 E4 P4")  # Bandit 1's Shortsword: only the GM may read it under secret rolls
DAMAGE = re.compile(r"Damage Base <strong>(\d+)</strong>")


async def test_a_gms_kept_page_is_never_served_to_a_player(fight: WebServer) -> None:
    async with aiohttp.ClientSession(base_url=fight.base_url) as http:
        gm, alice = await reader(fight, http, GEMMA), await reader(fight, http, ALICE)
        assert FIGURE.search(await gm("/web/character/Bandit%201"))  # the control: the GM reads it
        for path in PAGES:
            await gm(path)
        for path in PAGES:
            body = await alice(path)
            assert not FIGURE.search(body), path
            assert "GM view" not in body and '<span class="who">Alice</span>' in body
    assert fight.cache.misses == 2 * len(PAGES)


async def test_a_burst_of_one_kind_renders_once_and_each_header_names_its_viewer(fight: WebServer) -> None:
    renders = []
    roster = fight.pages._roster

    async def counted(*args: Any) -> Rendered:
        renders.append(1)
        return await roster(*args)

    fight.pages._roster = counted  # type: ignore[method-assign,assignment]
    async with aiohttp.ClientSession(base_url=fight.base_url) as http:
        alice, mallory = await reader(fight, http, ALICE), await reader(fight, http, MALLORY)
        bodies = await asyncio.gather(*(read("/web/roster") for read in [alice, mallory] * 10))
    assert len(renders) == 1
    assert all('<span class="who">Alice</span>' in b for b in bodies[::2])
    assert all('<span class="who">&lt;b&gt;Mallory&lt;/b&gt;</span>' in b for b in bodies[1::2])
    assert {b.replace("&lt;b&gt;Mallory&lt;/b&gt;", "Alice") for b in bodies} == {bodies[0]}
    hits = fight.metrics.registry.get_sample_value("grievous_web_page_cache_hits_total", {"page": "/web/roster"})
    assert hits == 19


async def test_a_change_written_by_another_process_shows_on_the_next_read(
        fight: WebServer, other_process: Services, manager: Any, gm: Any, alice: Any) -> None:
    there = other_process
    async with aiohttp.ClientSession(base_url=fight.base_url) as http:
        read = await reader(fight, http, ALICE)
        bandit, bjorn, log = "/web/character/Bandit%201", "/web/character/Bjorn", f"/web/log/{CHANNEL}"
        assert not FIGURE.search(await read(bandit)) and "attacks" not in await read(log)
        await there.setup.set_secret_rolls(manager, False)  # the screen down: the player reads the bandit's sheet
        assert FIGURE.search(await read(bandit))
        damage = DAMAGE.findall(await read(bjorn))
        await there.characters.edit_stat(alice, "Bjorn", "str", 5)
        assert DAMAGE.findall(await read(bjorn)) != damage
        await there.combat.attack(alice, "Bandit 1", "Broadsword", {"aspect": "edge", "aim": "high"},
                                  "attack=9 defense=3 location=12", attacker="Bjorn")
        attacked = await read(log)
        assert "attacks" in attacked and "(undone)" not in attacked
        await there.records.undo(gm)
        assert "(undone)" in await read(log)


async def test_a_name_the_gateway_changed_is_read_again_at_the_next_hit(services: Services, manager: Any, gm: Any,
                                                                       alice: Any) -> None:
    """Members' names are not in the database: a kept page holds the ones it looked up, and a hit checks them."""
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=False)
    named = {alice.user_id: "Alice"}
    bot = SimpleNamespace(metrics=Metrics(), get_guild=lambda _id: None, services=services,
                          get_user=lambda i: SimpleNamespace(display_name=named[i]) if i in named else None)
    web = WebServer(bot, port=0)
    await web.start()
    try:
        async with aiohttp.ClientSession(base_url=web.base_url) as http:
            read = await reader(web, http, GEMMA)
            assert "@Alice" in await read("/web/roster")
            assert "@Alice" in await read("/web/roster") and web.cache.misses == 1
            named[alice.user_id] = "Alicia"  # renamed in Discord: the database did not change
            assert "@Alicia" in await read("/web/roster") and web.cache.misses == 2
            assert "@Alicia" in await read("/web/roster") and web.cache.misses == 2
    finally:
        await web.stop()
