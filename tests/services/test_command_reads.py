"""What a command reads (issue 23): the server's settings row is asked of the session once a command, however
many checks read it (the GM role, the catalog, the rulings, secret rolls), and not at all when the encounter
comes from memory; a row the session no longer holds is never handed out. Counts, never timings."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy.orm import Session

from bot.db import repositories as repo
from bot.db.models import GuildSettings
from tests.conftest import GM_ROLE, GUILD


@contextmanager
def settings_gets(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """Every Session.get of a GuildSettings row meanwhile."""
    seen: list[object] = []
    real = Session.get

    def get(self: Session, entity: Any, ident: Any, **kw: Any) -> Any:
        if entity is GuildSettings:
            seen.append(ident)
        return real(self, entity, ident, **kw)

    monkeypatch.setattr(Session, "get", get)
    yield seen


async def test_an_attack_asks_the_session_for_the_settings_row_once(
        make_services: Any, manager: Any, alice: Any, bob: Any, gm: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    services = make_services(encounter_cache=False)
    await services.setup.set_system(manager, "fake")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Aldo", {"str": 12}, ["sword"], ["leather cap"])
    await services.characters.create(bob, "Brun", {"str": 11}, ["Club", "Spear"])
    await services.encounters.start(alice)
    await services.encounters.add(alice, "Aldo")
    await services.encounters.add(bob, "Brun")
    with settings_gets(monkeypatch) as seen:
        await services.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    assert seen == [GUILD]


async def test_an_attack_on_an_encounter_in_memory_asks_for_no_settings_row(
        table: Any, gm: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    with settings_gets(monkeypatch) as seen:
        await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=20")
    assert table.runtime.encounters.hits == 1
    assert seen == []


async def test_a_settings_row_the_session_no_longer_holds_is_read_again(db: Any) -> None:
    async with db.sessions() as session, session.begin():
        created = await repo.guild_settings_for_update(session, GUILD)
        assert await repo.guild_settings(session, GUILD) is created  # added, not flushed: still the one
        await session.flush()
        session.expunge_all()  # the next command of a batch: it must not see the last one's rows
        again = await repo.guild_settings(session, GUILD)
        assert again is not None and again is not created and again in session
        assert await repo.guild_settings(session, GUILD) is again
    async with db.sessions() as session:
        async with session.begin():
            assert await repo.guild_settings(session, GUILD + 1) is None
            added = await repo.guild_settings_for_update(session, GUILD + 1)
            assert await repo.guild_settings(session, GUILD + 1) is added  # a server that had none has it now
            await session.rollback()
        async with session.begin():
            assert await repo.guild_settings(session, GUILD + 1) is None  # rolled back: it has none again
