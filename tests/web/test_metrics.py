"""The web pages' own metrics (bot/web/metrics.py): requests by page and status, latency, open live streams; and
what the web server logs, which never holds a token, a session id or an address's name."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from prometheus_client import generate_latest

from bot.web.host import WebOnlyHost
from bot.web.metrics import WebMetrics
from bot.web.server import COOKIE, WebServer
from bot.web.sessions import Grant

GRANT = Grant(guild_id=1, user_id=2, user_name="Alice", role="player", role_ids=(5,), is_manager=False,
              channels=frozenset({10}))


def sample(metrics: WebMetrics, name: str, **labels: str) -> float:
    value = metrics.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


async def test_pages_are_counted_by_route_and_status_and_nothing_logged_holds_a_token(
        caplog: pytest.LogCaptureFixture, services: Any) -> None:
    bot = WebOnlyHost(services)  # no such character: its page is 404
    server = WebServer(bot, port=0)
    assert server.metrics.registry is bot.metrics.registry  # shown on the bot's own /metrics
    token = await server.sessions.link_token(GRANT)
    caplog.set_level(logging.DEBUG)  # every logger, aiohttp's included
    await server.start()
    try:
        async with aiohttp.ClientSession(base_url=server.base_url) as http:
            async with http.get("/web/login", params={"t": token}, allow_redirects=False) as opened:
                assert opened.status == 303
                session_id = opened.cookies[COOKIE].value
            async with http.get("/web/login", params={"t": token}, allow_redirects=False) as again:
                assert again.status == 410
            async with http.get("/web/login", params={"t": token[:-3]}, allow_redirects=False) as cut:
                assert cut.status == 400
            async with http.get("/web/nowhere/Zanthrop", allow_redirects=False) as unknown:
                assert unknown.status == 401
            cookie = {"Cookie": f"{COOKIE}={session_id}"}
            async with http.get("/web/character/Zanthrop", headers=cookie, allow_redirects=False) as page:
                assert page.status == 404
    finally:
        await server.stop()
    m = server.metrics
    assert sample(m, "grievous_web_requests_total", page="/web/login", status="303") == 1
    assert sample(m, "grievous_web_requests_total", page="/web/login", status="410") == 1
    assert sample(m, "grievous_web_requests_total", page="/web/login", status="400") == 1
    assert sample(m, "grievous_web_requests_total", page="unknown", status="401") == 1
    assert sample(m, "grievous_web_requests_total", page="/web/character/{name}", status="404") == 1
    assert sample(m, "grievous_web_request_seconds_count", page="/web/login") == 3
    exposition = generate_latest(bot.metrics.registry).decode()
    logged = caplog.text + "".join(str(r.__dict__) for r in caplog.records)
    assert "web session opened" in caplog.text  # the log was captured
    for secret in (token, session_id, "Zanthrop"):
        assert secret not in logged
        assert secret not in exposition


async def test_a_live_stream_is_counted_while_open_and_a_page_names_its_task() -> None:
    metrics = WebMetrics()
    opened, release = asyncio.Event(), asyncio.Event()
    names: list[str] = []

    async def live(request: web.Request) -> web.StreamResponse:
        task = asyncio.current_task()
        names.append(task.get_name() if task is not None else "")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(b"data: x\n\n")
        opened.set()
        await release.wait()
        return response

    async def page(request: web.Request) -> web.StreamResponse:
        task = asyncio.current_task()
        names.append(task.get_name() if task is not None else "")
        raise web.HTTPFound("/web/")

    app = web.Application(middlewares=[metrics.middleware])
    app.router.add_get("/web/encounter/{channel}/live", live)
    app.router.add_get("/web/roster", page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        async with aiohttp.ClientSession(base_url=f"http://127.0.0.1:{port}") as http:
            async with http.get("/web/encounter/55/live") as stream:
                await stream.content.readline()
                await opened.wait()
                assert sample(metrics, "grievous_web_live_connections") == 1
                release.set()
                await stream.read()
            async with http.get("/web/roster", allow_redirects=False) as moved:
                assert moved.status == 302
    finally:
        await runner.cleanup()
    assert sample(metrics, "grievous_web_live_connections") == 0
    assert sample(metrics, "grievous_web_requests_total", page="/web/encounter/{channel}/live", status="200") == 1
    assert sample(metrics, "grievous_web_request_seconds_count", page="/web/encounter/{channel}/live") == 0
    assert sample(metrics, "grievous_web_requests_total", page="/web/roster", status="302") == 1
    assert names == ["web /web/encounter/{channel}/live", "web /web/roster"]
