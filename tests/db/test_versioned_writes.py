"""An action's rows written as Core statements (bot/db/repositories.py, issue 23) check the version as the ORM's
flush does and leave the ORM object as a flush would: its values committed, nothing dirty, so a later flush of the
same row (or the next command, from the encounter cache) starts from the version stored. This holds the use of
``set_committed_value`` (SQLAlchemy's public attribute API) to what the ORM does with it, on both databases."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import inspect, select, text
from sqlalchemy.orm.exc import StaleDataError

from bot.db import repositories as repo
from bot.db.models import Character, Encounter, Event

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


async def _stored(db: Any) -> tuple[int, int]:
    async with db.transaction() as session:
        character = Character(guild_id=1, name="Bjorn", name_key="bjorn", owner_id=5, system="ars-harn",
                              sheet={"wounds": []}, created_at=NOW, updated_at=NOW)
        encounter = Encounter(guild_id=1, channel_id=9, system="ars-harn", created_at=NOW, updated_at=NOW)
        session.add_all([character, encounter])
        await session.flush()
        return character.id, encounter.id


async def test_a_versioned_write_stores_its_values_and_leaves_the_row_clean(db: Any) -> None:
    character_id, encounter_id = await _stored(db)
    later = datetime(2026, 12, 2, 13, 0, tzinfo=UTC)
    async with db.transaction() as session:
        row = await session.get(Character, character_id)
        encounter = await session.get(Encounter, encounter_id)
        assert row is not None and encounter is not None and repo.is_stored(row)
        sheet = {"wounds": [{"index": 1}]}
        await repo.write_versioned(session, [(row, {"sheet": sheet, "updated_at": later}),
                                             (encounter, {"updated_at": later})])
        state = inspect(row)
        assert row.sheet is sheet and row.version == 2 and encounter.version == 2
        assert not session.dirty and not state.modified and not state.attrs.sheet.history.has_changes()
        row.name = "Bjorn the Bold"  # the ORM's own next write checks the version the Core write left
        await session.flush()
    async with db.transaction() as session:
        stored = (await session.execute(text("SELECT sheet, version, name FROM characters"))).one()
        assert (stored.version, stored.name) == (3, "Bjorn the Bold")
        sheet_stored = stored.sheet if isinstance(stored.sheet, dict) else json.loads(stored.sheet)
        assert sheet_stored == {"wounds": [{"index": 1}]}
        assert (await session.scalar(text("SELECT version FROM encounters"))) == 2


async def test_a_versioned_write_on_a_row_changed_meanwhile_fails_as_a_flush_does(db: Any) -> None:
    character_id, _ = await _stored(db)
    async with db.transaction() as session:  # read, and kept (as the encounter cache keeps its rows)
        row = await session.get(Character, character_id)
        assert row is not None
    async with db.transaction() as other:  # another process saved first
        await other.execute(text("UPDATE characters SET version = version + 1"))
    async with db.sessions() as session, session.begin():
        session.add(row)
        with pytest.raises(StaleDataError):
            await repo.write_versioned(session, [(row, {"updated_at": NOW})])
        assert row.version == 1  # nothing taken as stored
        await session.rollback()
    async with db.transaction() as session:
        assert (await session.scalar(text("SELECT version FROM characters"))) == 2


async def test_an_event_inserted_by_core_gets_its_id_and_the_columns_defaults(db: Any) -> None:
    async with db.transaction() as session:
        event_id = await repo.insert_event(session, dict(
            guild_id=1, channel_id=9, encounter_id=None, user_id=5, user_name="Alice", kind="attack",
            payload={"actor": "Bjorn"}, before=None, created_at=NOW, interaction_id=77, answered=False))
        await repo.set_event_before(session, event_id, {"sheets": {}})
    async with db.transaction() as session:
        event = (await session.scalars(select(Event))).one()
        assert (event.id, event.undone, event.answered, event.before) == (event_id, False, False, {"sheets": {}})
