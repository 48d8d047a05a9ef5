"""The pages under load (issue 33): a live update is rendered once per kind of viewer, not once per stream, and a
burst of pages queues behind the gate or is answered 503 with Retry-After, never a 500 nor every connection of
the pool."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.services import Services
from bot.web.gate import Busy, PageGate
from bot.web.host import WebOnlyHost
from bot.web.live import kind_of
from bot.web.server import COOKIE, WebServer
from bot.web.sessions import Grant, Session
from bot.web.viewer import Viewer
from tests.conftest import CHANNEL, GM_ROLE, GUILD

NAMES = ((CHANNEL, "great-hall"),)
ALICE = Grant(GUILD, 11, "Alice", "player", (), False, frozenset({CHANNEL}), channel_names=NAMES)
BOB = Grant(GUILD, 12, "Bob", "player", (), False, frozenset({CHANNEL}), channel_names=NAMES)
GEMMA = Grant(GUILD, 2, "Gemma", "gm", (GM_ROLE,), False, None, channel_names=NAMES)


def viewer(grant: Grant) -> Viewer:
    return Viewer.of(Session("s", grant, 0.0))


def test_viewers_share_a_rendering_only_when_every_input_of_their_projection_is_the_same() -> None:
    assert kind_of(viewer(ALICE), CHANNEL) == kind_of(viewer(BOB), CHANNEL)  # only the user differs
    assert kind_of(viewer(ALICE), CHANNEL) != kind_of(viewer(GEMMA), CHANNEL)
    assert kind_of(viewer(ALICE), CHANNEL) != kind_of(viewer(ALICE), CHANNEL + 1)
    for other in (Grant(GUILD, 12, "Bob", "player", (GM_ROLE,), False, ALICE.channels, channel_names=NAMES),
                  Grant(GUILD, 12, "Bob", "player", (), True, ALICE.channels, channel_names=NAMES),
                  Grant(GUILD, 12, "Bob", "player", (), False, frozenset({CHANNEL, 7}), channel_names=NAMES),
                  Grant(GUILD + 1, 12, "Bob", "player", (), False, ALICE.channels, channel_names=NAMES),
                  Grant(GUILD, 0, "table", "table", (), False, ALICE.channels, table_channel=CHANNEL,
                        channel_names=NAMES)):
        assert kind_of(viewer(other), CHANNEL) != kind_of(viewer(ALICE), CHANNEL), other


@pytest.fixture
async def server(table: Services) -> AsyncIterator[WebServer]:
    web = WebServer(WebOnlyHost(table), port=0, live_seconds=0.05)
    await web.start()
    yield web
    await web.stop()


async def cookie(web: WebServer, grant: Grant) -> dict[str, str]:
    session = await web.sessions.exchange(await web.sessions.link_token(grant))
    return {"Cookie": f"{COOKIE}={session.id}"}


async def frames(response: aiohttp.ClientResponse, into: list[bytes]) -> None:
    frame = b""
    async for line in response.content:
        frame += line
        if line == b"\n":
            if b"event: update" in frame:
                into.append(frame)
            frame = b""


async def test_a_live_update_is_rendered_once_per_kind_of_viewer(server: WebServer, table: Services,
                                                                gm: Any) -> None:
    renders: Counter[str] = Counter()
    render = server.pages.live_fragment

    async def counted(seen: Viewer, *args: Any) -> str:
        renders[seen.role] += 1
        return await render(seen, *args)

    server.pages.live_fragment = counted  # type: ignore[method-assign,assignment]
    got: dict[str, list[bytes]] = {"alice": [], "bob": [], "gemma": []}
    async with aiohttp.ClientSession(base_url=server.base_url) as http:
        streams = []
        for who, grant in (("alice", ALICE), ("bob", BOB), ("gemma", GEMMA)):
            response = await http.get(f"/web/encounter/{CHANNEL}/live", headers=await cookie(server, grant))
            streams.append(asyncio.create_task(frames(response, got[who])))
        try:
            async with asyncio.timeout(10):
                while not all(got.values()):  # noqa: ASYNC110 (three lists filled by their streams)
                    await asyncio.sleep(0.02)
                assert server.live.groups == 2 and renders == {"player": 1, "gm": 1}
                await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=3")
                while not all(len(frames) == 2 for frames in got.values()):  # noqa: ASYNC110 (as above)
                    await asyncio.sleep(0.02)
        finally:
            for stream in streams:
                stream.cancel()
    assert got["alice"] == got["bob"]  # one rendering, the same bytes
    assert b"Aldo" in got["alice"][1] and got["alice"][1] != got["alice"][0]
    assert renders["player"] == renders["gm"]  # two player streams cost what one GM stream does


async def test_a_page_burst_queues_then_is_answered_503_with_retry_after_never_500(server: WebServer) -> None:
    server.gate = PageGate(slots=1, queue=1, wait_seconds=0.2)
    headers = await cookie(server, ALICE)
    async with aiohttp.ClientSession(base_url=server.base_url, headers=headers) as http:
        # every slot taken: the page waits its 0.2 s in the queue, then is answered 503
        async with server.gate.page(), http.get(f"/web/log/{CHANNEL}") as waited:
            assert waited.status == 503 and waited.headers["Retry-After"] == "2"
            assert "busy" in await waited.text()
        async with http.get(f"/web/log/{CHANNEL}") as page:
            assert page.status == 200
    gate = PageGate(slots=1, queue=1, wait_seconds=5)
    async with gate.page():
        queued = asyncio.create_task(gate.page().__aenter__())
        await asyncio.sleep(0.01)
        with pytest.raises(Busy):  # the queue is full: refused at once
            async with gate.page():
                pass
    await queued  # the one that queued got the slot when it was freed
    assert gate.refused == 1
    statuses = {labels["status"] for metric in server.metrics.registry.collect() for sample in metric.samples
                if (labels := sample.labels).get("status")}
    assert "500" not in statuses
