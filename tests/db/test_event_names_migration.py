"""Migration 0015 (bot/db/migrations/versions/0015_event_names.py): the events stored before it get their names'
rows, read from their payloads, as the commands write them now; the filtered log reads the same pages."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import delete, inspect, select
from sqlalchemy.engine import Connection

from bot.db import json_text
from bot.db.migrate import alembic_config, current_revision, head_revision, upgrade
from bot.db.models import EventName
from bot.services.event_names import skeletons
from bot.services.event_records import ActionEvent, read_event
from bot.text_safety import skeleton
from tests.conftest import CHANNEL

MIGRATION = Path(__file__).resolve().parents[2] / "bot/db/migrations/versions/0015_event_names.py"


def migration() -> Any:
    spec = importlib.util.spec_from_file_location("migration_0015", MIGRATION)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def downgrade(db: Any, revision: str) -> None:
    config = alembic_config()

    def run(connection: Connection) -> None:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)

    async with db.engine.begin() as connection:
        await connection.run_sync(run)


async def names(db: Any) -> list[tuple[int, str, int, int]]:
    async with db.sessions() as session:
        rows = await session.scalars(select(EventName).order_by(EventName.event_id, EventName.skeleton))
        return [(n.event_id, n.skeleton, n.guild_id, n.channel_id) for n in rows]


async def test_the_events_stored_before_it_get_their_names(table: Any, gm: Any, alice: Any) -> None:
    for location in (3, 4, 5):
        await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text=f"attack=5 location={location}")
    await table.characters.edit_stat(alice, "Aldo", "str", 13)
    written = await names(table.db)
    pages = [await table.campaign.log(gm, None, CHANNEL, character=who, limit=2, offset=offset)
             for who in ("Brun", "aldo") for offset in (0, 2)]
    assert len(written) > 8 and all(page.events for page in pages)

    await downgrade(table.db, "0014")  # the database as it was before: events, no names
    try:
        async with table.db.engine.connect() as connection:
            assert "event_names" not in await connection.run_sync(lambda c: inspect(c).get_table_names())
    finally:
        await upgrade(table.db)  # the shared PostgreSQL database stays at head whatever failed
    assert await current_revision(table.db) == head_revision()
    assert await names(table.db) == written
    assert [await table.campaign.log(gm, None, CHANNEL, character=who, limit=2, offset=offset)
            for who in ("Brun", "aldo") for offset in (0, 2)] == pages

    fill = migration()
    fill.BATCH = 2  # the same rows, read two events at a time
    async with table.db.engine.begin() as connection:
        await connection.execute(delete(EventName))
        await connection.run_sync(fill.fill)
    assert await names(table.db) == written


def test_it_reads_the_names_each_record_names() -> None:
    """The migration reads the names from the payloads' keys (a later change to the records must not change what
    it does): the same names as each kind's record, older payloads (``actor_name``) and odd ones too; a payload
    that is not JSON names nobody rather than stopping the upgrade."""
    reader = migration()
    action = ActionEvent(system="fading-suns", actor="Kaz  Ortega", target="Ilse").to_dict()
    payloads: list[tuple[str, Any]] = [
        ("attack", action), ("gm_decide", {**action, "target": None}), ("heal", {**action, "target": ""}),
        ("attack", {"actor_name": "Old Kaz", "target_name": "Old Ilse", "outcome": {}}),
        ("attack", {"actor": 5, "target": ["x"], "outcome": {}}), ("attack", {"outcome": {}}),
        ("join", {"names": ["Ｋaz", "Bjorn", 3]}), ("add_npcs", {"names": ["Bandit 1"], "template": "bandit"}),
        ("leave", {"names": "Bjorn"}), ("edit", {"character": "Bjorn", "stat": "str"}), ("edit", {}),
        ("roll", {"expression": "2d6", "actor": "x"}), ("next_turn", {"ended": "Bjorn"}), ("next_turn", {}),
        ("treatment_offer", {"patient": "Kaz", "healer": "Ilse", "answer": "accepted"}), ("treatment_offer", []),
        ("defense_prompt", {"target": "Hero", "attacker": "Thug 1"}), ("start", {"system": "pendragon"}),
        ("mystery", {"actor": "Nobody"}), ("undo", {"undone_event": 3}), ("edit", None)]
    for kind, payload in payloads:
        expected = skeletons(read_event(kind, payload or {}))
        assert reader.skeletons(kind, json_text.dumps(payload)) == expected, (kind, payload)
    assert reader.skeletons("attack", json_text.dumps(action)) == sorted([skeleton("Kaz Ortega"), skeleton("Ilse")])
    assert reader.skeletons("join", json_text.dumps({"names": ["Ｋaz", "Kaz"]})) == ["kaz"]  # one skeleton
    assert reader.skeletons("attack", "{not json") == []
