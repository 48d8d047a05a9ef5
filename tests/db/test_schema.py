"""The migrations build exactly the models' schema; versions and the one-active-encounter rule hold."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from bot.db import repositories as repo
from bot.db.base import Base
from bot.db.migrate import current_revision, head_revision, upgrade
from bot.db.models import Character, Encounter, Event

NOW = datetime(2024, 1, 1, tzinfo=UTC)


def character(name: str, guild: int = 1) -> Character:
    return Character(guild_id=guild, name=name, name_key=repo.name_key(name), owner_id=5, npc=False, system="fake",
                     sheet={"name": name, "wounds": []}, created_at=NOW, updated_at=NOW)


def encounter(channel: int, active: bool = True) -> Encounter:
    return Encounter(guild_id=1, channel_id=channel, system="fake", round=1, turn=0, order=[], active=active,
                     combatants=[], created_at=NOW, updated_at=NOW)


async def test_migrations_are_at_head_and_match_the_models(db: Any) -> None:
    assert await current_revision(db) == head_revision()
    await upgrade(db)  # a second upgrade is a no-op
    async with db.engine.connect() as connection:
        diff = await connection.run_sync(
            lambda c: compare_metadata(MigrationContext.configure(c, opts={"compare_type": True}), Base.metadata))
    assert diff == []


async def test_a_stale_save_fails_instead_of_overwriting(db: Any) -> None:
    async with db.transaction() as session:
        session.add(character("Aldo"))
    async with db.sessions() as first, db.sessions() as second:
        b = await repo.character_by_name(second, 1, "ALDO")
        await second.commit()  # b stays loaded at version 1 (and SQLite's write lock is free again)
        a = await repo.character_by_name(first, 1, "aldo")
        assert a is not None and b is not None and a.version == b.version == 1
        a.sheet = {"name": "Aldo", "wounds": [1]}
        await first.commit()
        b.sheet = {"name": "Aldo", "wounds": [2]}
        with pytest.raises(StaleDataError):
            await second.commit()
    async with db.sessions() as session:
        row = await repo.character_by_name(session, 1, "Aldo")
        assert row is not None and (row.version, row.sheet["wounds"]) == (2, [1])


async def test_names_are_unique_per_guild_ignoring_case(db: Any) -> None:
    async with db.transaction() as session:
        session.add_all([character("Aldo"), character("Aldo", guild=2)])
    with pytest.raises(IntegrityError):
        async with db.transaction() as session:
            session.add(character("ALDO"))


async def test_one_active_encounter_per_channel(db: Any) -> None:
    async with db.transaction() as session:
        session.add_all([encounter(7, active=False), encounter(7), encounter(8)])
    with pytest.raises(IntegrityError):
        async with db.transaction() as session:
            session.add(encounter(7))
    async with db.sessions() as session:
        found = await repo.active_encounter(session, 7)
        assert found is not None and found.active and found.combatants == []


async def test_before_state_none_is_sql_null(db: Any) -> None:
    async with db.transaction() as session:
        session.add(Event(guild_id=1, channel_id=7, user_id=1, user_name="x", kind="roll", payload={}, before=None,
                          created_at=NOW))
    async with db.sessions() as session:
        rows = (await session.scalars(select(Event).where(Event.before.is_(None)))).all()
        assert len(rows) == 1


async def test_character_names_rank_prefix_matches_first_and_escape_wildcards(db: Any) -> None:
    async with db.transaction() as session:
        session.add_all([character(n) for n in ("Bandit 1", "Old Bandit", "Brun", "100% Orc")])
    async with db.sessions() as session:
        assert await repo.character_names(session, 1, "band") == ["Bandit 1", "Old Bandit"]
        assert await repo.character_names(session, 1, "%") == ["100% Orc"]
        assert len(await repo.character_names(session, 1, "")) == 4
