"""The /web links and sessions in the database (bot/services/web_sessions.py): single-use and short-lived in
every process, ended by a revoke in every process, and holding no token or session id, only their hashes.

"Another process" is a second ``Services`` with its own engine on the same database (as test_live_events.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import text

from bot.db.engine import Database
from bot.services import Services
from bot.services.web_sessions import LINK_SECONDS, SESSION_SECONDS, Grant, Refused, WebSessionService
from tests.conftest import catalogs

GRANT = Grant(guild_id=1, user_id=2, user_name="Alice", role="player", role_ids=(5,), is_manager=False,
              channels=frozenset({10, 11}), guild_name="The Keep", channel_names=((10, "hall"), (11, "yard")))


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def here(services: Services, clock: Clock) -> WebSessionService:
    return WebSessionService(services.runtime, clock=clock)


@pytest.fixture
async def there(db_url: str, clock: Clock) -> AsyncIterator[WebSessionService]:
    """Another process on the same database."""
    database = Database.from_url(db_url)
    other = Services(database, catalogs=catalogs)
    yield WebSessionService(other.runtime, clock=clock)
    await other.runtime.close()
    await database.dispose()


async def refusal(sessions: WebSessionService, token: str | None) -> str:
    with pytest.raises(Refused) as refused:
        await sessions.exchange(token)
    return refused.value.why


async def test_a_link_made_in_one_process_opens_a_session_the_other_honours(
        here: WebSessionService, there: WebSessionService) -> None:
    opened = await there.exchange(await here.link_token(GRANT))
    assert opened.grant == GRANT  # the names a page needs travel with the session, not the gateway cache
    assert await here.session(opened.id) == opened and await there.session(opened.id) == opened


async def test_a_link_opens_once_across_processes(here: WebSessionService, there: WebSessionService) -> None:
    token = await here.link_token(GRANT)
    await here.exchange(token)
    assert await refusal(there, token) == "used"
    assert await refusal(here, token) == "used"


async def test_a_revoke_in_one_process_ends_the_session_and_the_waiting_link_in_the_other(
        here: WebSessionService, there: WebSessionService) -> None:
    opened = await here.exchange(await here.link_token(GRANT))
    waiting = await here.link_token(GRANT)
    bob = await here.exchange(await here.link_token(Grant(1, 3, "Bob", "player", (), False, frozenset())))
    assert await there.revoke(1, 2) == 1
    assert await here.session(opened.id) is None and await here.session(bob.id) == bob
    assert await refusal(here, waiting) == "revoked"
    assert (await there.exchange(await here.link_token(GRANT))).grant == GRANT  # a new link works again


async def test_a_link_lasts_ten_minutes_and_a_session_twelve_hours(
        here: WebSessionService, there: WebSessionService, clock: Clock) -> None:
    token = await here.link_token(GRANT)
    clock.now += LINK_SECONDS + 1
    assert await refusal(there, token) == "expired"
    opened = await here.exchange(await here.link_token(GRANT))
    clock.now += SESSION_SECONDS - 1
    assert await there.session(opened.id) == opened
    clock.now += 2
    assert await there.session(opened.id) is None
    assert await here.session("made-up") is None and await here.session(None) is None


async def test_a_token_not_made_here_is_refused(here: WebSessionService) -> None:
    token = await here.link_token(GRANT)
    assert await refusal(here, token[:-3]) == "tampered"
    assert await refusal(here, "x" * 500) == "tampered"
    assert await refusal(here, None) == "missing" and await refusal(here, "") == "missing"


async def test_the_tables_hold_hashes_never_the_token_or_the_session_id(
        here: WebSessionService, services: Services) -> None:
    token = await here.link_token(GRANT)
    opened = await here.exchange(token)
    async with services.db.engine.connect() as connection:
        rows: list[Any] = [*await connection.execute(text("SELECT * FROM web_links")),
                           *await connection.execute(text("SELECT * FROM web_sessions"))]
    stored = repr(rows)
    assert len(rows) == 2 and token not in stored and opened.id not in stored
