"""Issue 24: an apology (or any line) still being sent when the bot shuts down logs one line, not a
``RuntimeError: Session is closed`` traceback."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from bot.tree import report_error


class _ClosedResponse:
    type = None

    def is_done(self) -> bool:
        return False

    async def send_message(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("Session is closed")


def _interaction(response: Any) -> Any:
    # a client with no services: nothing was stored, so a refused answer says "try again"
    return SimpleNamespace(response=response, extras={}, user=SimpleNamespace(id=5), command=None, client=None,
                           data={"custom_id": "x"}, guild_id=1, channel_id=2)


async def test_an_apology_at_shutdown_is_one_line_without_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    await report_error(_interaction(_ClosedResponse()), ValueError("a bug"))  # must not raise
    closing = [r for r in caplog.records if "connection to Discord is closing" in r.getMessage()]
    assert len(closing) == 1 and closing[0].exc_info is None
    assert not any("Session is closed" in (r.exc_text or "") for r in caplog.records)


async def test_a_disconnect_while_answering_is_one_line_too(caplog: pytest.LogCaptureFixture) -> None:
    class Dropped(_ClosedResponse):
        async def send_message(self, *args: Any, **kwargs: Any) -> None:
            raise aiohttp.ServerDisconnectedError()

    await report_error(_interaction(Dropped()), discord.app_commands.CheckFailure("not here"))
    assert any("connection to Discord is closing" in r.getMessage() for r in caplog.records)


async def test_another_runtime_error_is_not_hidden() -> None:
    class Broken(_ClosedResponse):
        async def send_message(self, *args: Any, **kwargs: Any) -> None:
            raise RuntimeError("a real bug")

    with pytest.raises(RuntimeError, match="a real bug"):
        await report_error(_interaction(Broken()), ValueError("x"))


class _Answering(_ClosedResponse):
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_message(self, line: str, **kwargs: Any) -> None:
        self.sent.append(line)


@pytest.mark.parametrize("refusal", [
    discord.HTTPException(SimpleNamespace(status=429, reason="Too Many Requests"), "error code: 1015"),  # Cloudflare
    discord.RateLimited(30.0),  # a wait discord.py will not make
])
async def test_a_429_discord_py_does_not_wait_out_tells_the_user_discord_is_refusing(
        refusal: Exception, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 24: a Cloudflare-style 429 (no Via header) on the callback gave "Sorry, something went wrong"."""
    response = _Answering()
    await report_error(_interaction(response), discord.app_commands.CommandInvokeError(
        SimpleNamespace(qualified_name="attack", name="attack"), refusal))  # type: ignore[arg-type]
    assert response.sent == ["\u26a0\ufe0f Discord is refusing the bot's requests for a while (too many at once); "
                             "try again in a minute or two."]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("Discord refused the bot's requests (429" in r.getMessage() for r in caplog.records)
