"""The campaign's revision (CampaignService.revision, what the web pages' cache is keyed by, issue 33): every
change a page shows moves it, whichever process wrote it (here a second ``Services`` on the same database, as
another bot process would be), and reading does not."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.db import repositories as repo
from bot.services import Services
from tests.conftest import CHANNEL, GM_ROLE, GUILD


async def test_every_write_a_page_shows_moves_the_revision_and_a_read_does_not(
        table: Services, other_process: Services, manager: Any, gm: Any, alice: Any, bob: Any) -> None:
    here, there = table.campaign, other_process
    seen = [await here.revision(alice)]

    async def moves(why: str, write: Callable[[], Awaitable[object]]) -> None:
        await write()
        now = await here.revision(alice)
        assert now != seen[-1], f"{why}: the revision did not move"
        seen.append(now)

    assert await here.revision(gm) == seen[0]  # one guild, one revision, whoever asks
    await here.log(gm, None, CHANNEL)
    await here.roster(alice, None)
    assert await here.revision(alice) == seen[0]

    await moves("initiative", lambda: there.encounters.roll_initiative(gm))
    await moves("next turn", lambda: there.encounters.next_turn(gm))
    await moves("an attack", lambda: there.combat.attack(gm, "Brun", "Sword", attacker="Aldo",
                                                         dice_text="attack=5 location=3"))
    await moves("undo", lambda: there.records.undo(gm))
    await moves("a sheet edit", lambda: there.characters.edit_stat(alice, "Aldo", "str", 13))
    await moves("a character made", lambda: there.characters.create(bob, "Cara", {"str": 10}))
    await moves("a character deleted", lambda: there.characters.delete(bob, "Cara"))
    assert seen[-1] == seen[-3]  # as it was before Cara: so is every page
    await moves("one made again in its place", lambda: there.characters.create(bob, "Cara", {"str": 10}))
    await moves("left the fight", lambda: there.encounters.remove(bob, "Brun"))
    await moves("secret rolls", lambda: there.setup.set_secret_rolls(manager, True))
    await moves("the GM role", lambda: there.setup.set_gm_role(manager, GM_ROLE + 1))
    await moves("rolls by the GM", lambda: there.setup.set_rolls(manager, "gm"))
    await moves("turn order", lambda: there.setup.set_turns(manager, "enforce"))
    await moves("a channel's system", lambda: there.setup.set_system(replace(manager, channel_id=CHANNEL + 1),
                                                                      "fake", channel_only=True))
    await moves("the fight ended", lambda: there.encounters.end(manager))
    assert await here.revision(alice) == seen[-1]


async def test_an_event_committed_after_a_newer_one_moves_the_revision(table: Services, gm: Any) -> None:
    """On PostgreSQL another process's event may commit after one with a higher id: the newest id alone would
    not move, and the page kept without it would stay."""
    if table.db.dialect == "sqlite":
        pytest.skip("SQLite commits one writer at a time: ids commit in order")
    row = {"guild_id": GUILD, "channel_id": CHANNEL, "user_id": 2, "user_name": "Gemma", "kind": "roll",
           "payload": {}, "created_at": datetime.now(UTC)}
    async with table.db.sessions() as first, table.db.sessions() as second:
        low = await repo.insert_event(first, row)
        high = await repo.insert_event(second, row)
        await second.commit()
        before = await table.campaign.revision(gm)
        await first.commit()
    assert low < high and await table.campaign.revision(gm) != before
