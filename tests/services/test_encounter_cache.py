"""The encounter cache (issue 12): after the first command on an encounter, an attack reads nothing from the
database; any change by another command is seen by the next one; another process's change is caught by the
version check and the attack is retried from fresh rows; a failed command leaves nothing in memory."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import event, update

from bot.db.engine import Database
from bot.db.models import Character
from bot.errors import NotFound, UserError
from bot.services import Services
from tests.conftest import CHANNEL, catalogs


@contextmanager
def statements(db: Database) -> Iterator[list[str]]:
    """Every SQL statement ``db`` sends meanwhile, by its first words."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(" ".join(statement.split()[:3]).upper())

    event.listen(db.engine.sync_engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", record)


# On PostgreSQL a write first takes its channel's advisory lock (bot/services/transactions.py): a lock, not a read.
CHANNEL_LOCK = "SELECT PG_ADVISORY_XACT_LOCK"


def wound_locations(view: Any) -> list[str]:
    return [w.location for w in view.summary.wounds]


async def test_an_attack_after_the_first_reads_nothing(table: Any, gm: Any) -> None:
    cache = table.runtime.transactions.encounters
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    hits = cache.hits
    with statements(table.db) as seen:
        await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=20")
    assert [s for s in seen if s.startswith("SELECT") and not s.startswith(CHANNEL_LOCK)] == []
    assert sorted(s for s in seen if s.split()[0] in ("UPDATE", "INSERT")) == [
        "INSERT INTO EVENTS", "INSERT INTO EVENT_NAMES", "UPDATE CHARACTERS SET", "UPDATE CHARACTERS SET",
        "UPDATE ENCOUNTERS SET"]
    assert cache.hits == hits + 1
    brun = await table.characters.get(gm, "Brun")
    assert wound_locations(brun) == ["10", "20"]


async def test_a_sheet_changed_by_another_command_is_seen_by_the_next_attack(table: Any, gm: Any, bob: Any) -> None:
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    await table.characters.edit_stat(bob, "Brun", "str", 15)
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=30")
    brun = (await table.characters.get(gm, "Brun")).sheet
    assert brun["str"] == 15 and [w["location"] for w in brun["wounds"]] == [10, 30]


async def test_a_settings_change_reaches_the_next_attack(table: Any, manager: Any, alice: Any, bob: Any) -> None:
    # Aldo's turn comes first: Bob attacks out of turn, which the server only warns about ...
    await table.combat.attack(alice, "Brun", "Sword", dice_text="attack=2 location=1")
    warned = await table.combat.attack(bob, "Aldo", "Club", dice_text="attack=2 location=1")
    assert warned.out_of_turn == "Aldo"
    # ... until a manager has turns enforced: the encounter held in memory must not keep the old setting
    await table.setup.set_turns(manager, "enforce")
    with pytest.raises(UserError, match="it is Aldo's turn"):
        await table.combat.attack(bob, "Aldo", "Club", dice_text="attack=2 location=1")


async def test_a_failed_attack_keeps_nothing_in_memory(table: Any, gm: Any) -> None:
    cache = table.runtime.transactions.encounters
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    assert len(cache) == 1
    with pytest.raises(NotFound):
        await table.combat.attack(gm, "Brun", "Axe", attacker="Aldo", dice_text="attack=5 location=20")
    assert len(cache) == 0
    misses = cache.misses
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=30")
    assert cache.misses == misses + 1  # loaded afresh
    assert wound_locations(await table.characters.get(gm, "Brun")) == ["10", "30"]


async def test_another_process_change_is_caught_by_the_version_check(table: Any, gm: Any, db_url: str) -> None:
    # A second process on the same database: its own engine, so its writes tell this process nothing.
    other_db = Database.from_url(db_url)
    try:
        other = Services(other_db, catalogs=catalogs)
        await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
        await other.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=20")
        hits = table.runtime.transactions.encounters.hits
        # This process still holds Brun as he was before the other's attack: its write fails the version
        # check, and the retry starts from the stored sheet, so no wound is lost.
        await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=30")
        assert table.runtime.transactions.encounters.hits == hits + 1
        assert wound_locations(await table.characters.get(gm, "Brun")) == ["10", "20", "30"]
        await other.runtime.close()
    finally:
        await other_db.dispose()


async def test_an_ended_encounter_is_not_held(table: Any, gm: Any, alice: Any) -> None:
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    await table.encounters.end(gm)
    assert len(table.runtime.transactions.encounters) == 0
    await table.encounters.start(alice)
    with pytest.raises(UserError, match="nobody is in the encounter"):
        await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo")
    assert CHANNEL not in table.runtime.transactions.encounters._entries


async def test_who_is_in_the_encounter_follows_removes_and_adds(table: Any, gm: Any, bob: Any) -> None:
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    await table.encounters.remove(gm, "Brun")  # the command holds the encounter from memory, and changes it
    with pytest.raises(NotFound, match="'Brun' is not in this encounter"):
        await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=20")
    await table.encounters.add(bob, "Brun")
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=30")
    assert wound_locations(await table.characters.get(gm, "Brun")) == ["10", "30"]


async def test_target_names_come_from_memory_once_the_encounter_is_held(table: Any, gm: Any, bob: Any) -> None:
    assert await table.encounters.combatant_names(gm, "b") == ["Brun"]  # not held yet: read
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    with statements(table.db) as seen:
        assert await table.encounters.combatant_names(gm, "") == ["Aldo", "Brun"]
    assert seen == []
    await table.encounters.remove(gm, "Brun")
    assert await table.encounters.combatant_names(gm, "") == ["Aldo"]
    await table.encounters.add(bob, "Brun")
    assert await table.encounters.combatant_names(gm, "") == ["Aldo", "Brun"]


async def test_marking_answers_keeps_the_encounter_in_memory(table: Any, gm: Any) -> None:
    # Nearly every command's answer is marked in the events table afterwards, in one bulk UPDATE: it cannot
    # make a held encounter stale, so the next attack still reads nothing (it emptied the cache: issue 23).
    cache = table.runtime.transactions.encounters
    asked = replace(gm, interaction_id=777)
    await table.combat.attack(asked, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    table.runtime.answers.posted(777, 4242)  # its message id, by a Core UPDATE of the events table
    table.runtime.answers.answered([777])
    await table.runtime.answers.flush()
    assert await table.runtime.answers.unanswered(777) == []
    hits = cache.hits
    with statements(table.db) as seen:
        await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=20")
    assert [s for s in seen if s.startswith("SELECT") and not s.startswith(CHANNEL_LOCK)] == []
    assert cache.hits == hits + 1


async def test_a_bulk_write_to_a_held_table_empties_the_cache(table: Any, gm: Any) -> None:
    cache = table.runtime.transactions.encounters
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    assert len(cache) == 1

    async def rename(session: Any) -> None:
        await session.execute(update(Character).where(Character.name == "Brun")
                              .values(name="Bruno", name_key="bruno", version=Character.version + 1)
                              .execution_options(synchronize_session=False))

    await table.runtime.transact(None, rename)
    assert len(cache) == 0
    report = await table.combat.attack(gm, "Bruno", "Sword", attacker="Aldo", dice_text="attack=5 location=20")
    assert report.target_name == "Bruno"


async def test_a_core_bulk_write_to_a_held_table_empties_the_cache(table: Any, gm: Any) -> None:
    cache = table.runtime.transactions.encounters
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    assert len(cache) == 1
    characters = Character.__table__

    async def touch(session: Any) -> None:
        await session.execute(update(characters).where(characters.c.name == "Brun")
                              .values(version=characters.c.version + 1))

    await table.runtime.transact(None, touch)
    assert len(cache) == 0
