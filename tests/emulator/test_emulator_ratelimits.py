"""The emulator's rate limits, as Discord documents them (developers/topics/rate-limits.mdx): per-route
buckets with their headers, 429 with retry_after, the global limit, and the invalid-request counter."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from emulator import Emulator, profiles
from emulator.harness import running_emulator
from emulator.ratelimits import RateLimits
from emulator.testing import World, build_world


@pytest_asyncio.fixture
async def http() -> AsyncIterator[tuple[Emulator, World, aiohttp.ClientSession]]:
    async with running_emulator() as emu:
        world = build_world(emu)
        async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu.token}"}) as session:
            yield emu, world, session


async def post(session: aiohttp.ClientSession, emu: Emulator, channel_id: int, text: str) -> tuple[int, Any, Any]:
    async with session.post(f"{emu.api_base}/channels/{channel_id}/messages", json={"content": text}) as response:
        return response.status, response.headers, await response.json()


async def test_a_channel_bucket_counts_down_in_its_headers_then_answers_429(http: Any) -> None:
    emu, world, session = http
    remaining = []
    for n in range(5):
        status, headers, _ = await post(session, emu, world.combat.id, f"message {n}")
        assert status == 200 and headers["X-RateLimit-Limit"] == "5"
        assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5 and float(headers["X-RateLimit-Reset"]) > 0
        remaining.append(int(headers["X-RateLimit-Remaining"]))
    assert remaining == [4, 3, 2, 1, 0]
    status, headers, body = await post(session, emu, world.combat.id, "one too many")
    assert status == 429 and body["global"] is False and 0 < body["retry_after"] <= 5
    assert headers["X-RateLimit-Scope"] == "user" and headers["Via"] and headers["X-RateLimit-Remaining"] == "0"
    assert [m.content for m in emu.messages(world.combat)] == [f"message {n}" for n in range(5)]
    assert emu.rate_limits.invalid_requests == 1  # a 429 counts toward Cloudflare's ban
    # another channel is another top-level resource: its own bucket, the same bucket hash
    status, other, _ = await post(session, emu, world.general.id, "elsewhere")
    assert status == 200 and other["X-RateLimit-Remaining"] == "4"
    assert other["X-RateLimit-Bucket"] == headers["X-RateLimit-Bucket"]
    # an edit shares the writes' bucket
    message = emu.messages(world.combat)[0]
    async with session.patch(f"{emu.api_base}/channels/{world.combat.id}/messages/{message.id}",
                             json={"content": "edited"}) as response:
        assert response.status == 429


async def test_the_global_limit_and_the_ban_after_too_many_invalid_requests() -> None:
    limits = RateLimits(global_limit=3, invalid_limit=4)
    async with running_emulator(rate_limits=limits) as emu:
        world = build_world(emu)
        async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu.token}"}) as session:
            statuses = [(await post(session, emu, world.combat.id, "x"))[0] for _ in range(3)]
            status, headers, body = await post(session, emu, world.general.id, "y")
            assert statuses == [200, 200, 200]
            assert status == 429 and body["global"] is True and headers["X-RateLimit-Global"] == "true"
            assert headers["X-RateLimit-Scope"] == "global"
        async with aiohttp.ClientSession(headers={"Authorization": "Bot wrong"}) as stranger:
            for _ in range(3):
                async with stranger.get(f"{emu.api_base}/users/@me") as response:
                    assert response.status in (401, 429)
            assert emu.rate_limits.invalid_requests >= 4
            async with stranger.get(f"{emu.api_base}/users/@me") as response:
                # banned: Cloudflare's plain answer (no Via), which discord.py reads as a ban, not a retry
                assert response.status == 429 and "Via" not in response.headers
        emu.clear_refusals()


async def test_interaction_callbacks_are_outside_the_global_limit_and_limits_can_be_off() -> None:
    limits = RateLimits(global_limit=1)
    assert limits.check("POST", "/interactions/{interaction_id}/{token}/callback", {}).body is None
    assert limits.check("POST", "/interactions/{interaction_id}/{token}/callback", {}).body is None
    off = RateLimits(enabled=False)
    assert all(off.check("POST", "/channels/{channel_id}/messages", {"channel_id": "1"}).body is None
               for _ in range(20))


@pytest.mark.parametrize("latency", [0.05])
async def test_rest_latency_is_one_way_each_direction(latency: float) -> None:
    async with running_emulator(rest_latency=latency) as emu, aiohttp.ClientSession(
            headers={"Authorization": f"Bot {emu.token}"}) as session:
        start = time.monotonic()
        async with session.get(f"{emu.api_base}/users/@me") as response:
            assert response.status == 200
        assert time.monotonic() - start >= 2 * latency


def test_quick_windows_keep_the_counts_and_shorten_every_window_alike() -> None:
    now = [100.0]
    route, channel = "/channels/{channel_id}/messages", {"channel_id": "1"}
    quick = RateLimits(window_scale=profiles.QUICK_WINDOW_SCALE, clock=lambda: now[0])
    verdicts = [quick.check("POST", route, channel) for _ in range(6)]
    assert [v.headers["X-RateLimit-Remaining"] for v in verdicts[:5]] == ["4", "3", "2", "1", "0"]
    assert float(verdicts[0].headers["X-RateLimit-Reset-After"]) == pytest.approx(0.5)  # 5 per 0.5 s, not 5 s
    assert verdicts[5].body is not None and verdicts[5].body["retry_after"] == pytest.approx(0.5)
    now[0] += 0.5
    assert quick.check("POST", route, channel).body is None  # the window is over: the bucket is full again
    # the global limit's second is a tenth too: 50 requests, then 429 until 0.1 s are over
    overall = RateLimits(window_scale=profiles.QUICK_WINDOW_SCALE, clock=lambda: now[0])
    assert all(overall.check("GET", "/users/@me", {}).body is None for _ in range(50))
    refused = overall.check("GET", "/users/@me", {}).body
    assert refused is not None and refused["global"] and refused["retry_after"] == pytest.approx(0.1)
    now[0] += 0.1
    assert overall.check("GET", "/users/@me", {}).body is None
    assert profiles.options("discord") == {} and "rate_limits" not in profiles.options("realistic")
    with pytest.raises(ValueError):
        RateLimits(window_scale=0)
