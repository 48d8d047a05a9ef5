"""deploy/nginx.conf run by nginx (overridden only by bench/proxy_check.py's ports and certificate) in front of two
web servers, each a process's (its own Services and engine) on one database: a page and its live stream come
through, the stream unbuffered, and an action in a third process reaches a stream on each within 2 s.

The whole check with two `grievous run` processes and Discord's /web is ``python -m bench.proxy_check`` (~25 s);
this is its quick part. Skipped where nginx is not installed."""

from __future__ import annotations

import asyncio
import ssl
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bench.proxy_check import free_port, nginx, nginx_binary
from bot.services import Services
from bot.web.host import WebOnlyHost
from bot.web.server import COOKIE, WebServer
from bot.web.sessions import Grant
from tests.conftest import CHANNEL, GM_ROLE, GUILD

pytestmark = pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (apt-get install nginx)")


@pytest.fixture
def backend() -> str:
    return "postgres"  # the several-process database


def process(services: Services, base: str) -> WebServer:
    return WebServer(WebOnlyHost(services), port=0, base_url=base, live_seconds=0.1, trusted_proxies=("127.0.0.1",))


async def test_a_page_and_its_live_stream_come_through_nginx_from_either_process(
        table: Services, other_process: Services, make_services: Any, gm: Any, tmp_path: Path) -> None:
    https_port = free_port()
    base = f"https://localhost:{https_port}"
    servers = [process(table, base), process(other_process, base)]
    for server in servers:
        await server.start()
    grant = Grant(GUILD, 2, "Gemma", "gm", (GM_ROLE,), False, None, channel_names=((CHANNEL, "great-hall"),))
    session = await table.web_sessions.exchange(await table.web_sessions.link_token(grant))
    insecure = ssl.create_default_context()
    insecure.check_hostname, insecure.verify_mode = False, ssl.CERT_NONE  # the check's self-signed certificate
    streams: list[asyncio.Task[None]] = []
    frames: list[list[tuple[float, str]]] = [[], []]
    acting = make_services(seed=3)  # a third process: the one that acts
    try:
        async with nginx(tmp_path, http_port=free_port(), https_port=https_port,
                         upstreams=[s.port for s in servers]), \
                aiohttp.ClientSession(base_url=base, headers={"Cookie": f"{COOKIE}={session.id}"},
                                      connector=aiohttp.TCPConnector(ssl=insecure)) as http:
            async with http.get(f"/web/encounter/{CHANNEL}") as page:
                assert page.status == 200 and "Brun" in await page.text()

            async def read(into: list[tuple[float, str]]) -> None:
                async with http.get(f"/web/encounter/{CHANNEL}/live") as live:
                    assert live.headers["Content-Type"] == "text/event-stream"
                    async for line in live.content:
                        into.append((time.monotonic(), line.decode()))

            for into in frames:  # nginx takes turns: one stream on each process
                streams.append(asyncio.create_task(read(into)))
                async with asyncio.timeout(10):
                    while not into:  # noqa: ASYNC110 (filled by its stream)
                        await asyncio.sleep(0.02)
            assert [s.metrics.live._value.get() for s in servers] == [1, 1]
            acted = time.monotonic()
            await acting.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=3")
            async with asyncio.timeout(2.0):
                while not all(any("Aldo acts" in line for _, line in into) for into in frames):  # noqa: ASYNC110
                    await asyncio.sleep(0.02)
            assert all(at - acted < 2.0 for into in frames for at, line in into if "Aldo acts" in line)
    finally:
        for stream in streams:
            stream.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
        for server in servers:
            await server.stop()
        await acting.runtime.close()
