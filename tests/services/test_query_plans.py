"""What an evening's commands send finds its rows through an index, on SQLite and PostgreSQL: a command costs
the same however many events, decisions and combatants the database holds (issue 23). The answer log wrote
``answered IS 0``, which does not match ix_events_unanswered's ``NOT answered``, and scanned every event for
every answer; an attack that asked the GM read every decision ever made; loading an encounter read every
combatant with its character (a nested inner join SQLite materializes). Query plans, never timings."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from sqlalchemy import event

from bot.services import Services
from tests.conftest import CHANNEL, bjorn_against_a_bandit


async def plans(services: Services, write: Any, tables: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    """Each statement (on ``tables``, or any) that ``write()`` sends, with the plan the database makes for it."""
    sent: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, sql: str, params: Any, _context: Any, many: bool) -> None:
        if sql.split()[0] in ("SELECT", "UPDATE", "DELETE") and (tables is None or any(f" {t}" in sql for t in tables)):
            sent.append((sql, params[0] if many else params))

    engine = services.db.engine.sync_engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        await write()
    finally:
        event.remove(engine, "before_cursor_execute", record)
    found = []
    async with services.db.engine.connect() as connection:
        sqlite = services.db.dialect == "sqlite"
        if not sqlite:  # a few rows: the planner would scan anyway; ask whether the index can be used at all
            await connection.exec_driver_sql("SET enable_seqscan = off")
        for sql, params in sent:
            rows = (await connection.exec_driver_sql(("EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN ") + sql,
                                                     tuple(params))).all()
            found.append((sql, " ".join(str(part) for row in rows for part in row)))
        await connection.rollback()
    return found


async def test_marking_answers_uses_the_index_of_events_not_answered(table: Any, gm: Any) -> None:
    answers = table.runtime.answers
    for interaction in (801, 802, 803):
        await table.combat.attack(replace(gm, interaction_id=interaction), "Brun", "Sword",
                                  attacker="Aldo", dice_text="attack=5 location=10")
    answers.posted(801, 9001)
    answers.posted(802, 9002)

    async def write() -> None:
        answers.answered([801, 803])  # one shown with its message id, one without; 802's id alone at the flush
        await answers.flush()
        await answers.unanswered(802)

    found = await plans(table, write, ("events",))
    assert len(found) >= 3, found
    for sql, plan in found:
        assert "ix_events_unanswered" in plan, f"{sql}\n  -> {plan}"
    assert await answers.unanswered(801) == [] and await answers.unanswered(803) == []


def scans(plan: str) -> bool:
    """A plan that reads a whole table: SQLite's ``SCAN t`` (a plan row's detail; ``SEARCH`` uses an index),
    PostgreSQL's ``Seq Scan``."""
    return "Seq Scan" in plan or re.search(r"\d SCAN \w", plan) is not None


async def test_an_evening_of_gm_decisions_reads_no_whole_table(make_services: Any, manager: Any, gm: Any,
                                                              alice: Any) -> None:
    services = make_services()
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=True)
    await services.encounters.add_npcs(gm, "bandit", 1)
    asked = replace(alice, interaction_id=901)

    async def evening() -> None:
        services.runtime.transactions.encounters.clear()  # the encounter loaded from the database, as after a restart
        hit = await services.combat.attack(asked, "Bandit 1", "Broadsword", {"aspect": "edge", "aim": "high"},
                                           "attack=9 defense=3 location=12", attacker="Bjorn")
        services.runtime.answers.posted(901, 9901)
        await services.combat.set_decision_message(asked, [p.id for p in hit.pending], 9901)
        services.runtime.answers.answered([901])
        await services.runtime.answers.flush()
        await services.combat.attack(alice, "Bandit 2", "Broadsword", {"aspect": "edge", "aim": "high"},
                                     "attack=9 defense=3 location=12", attacker="Bjorn")
        await services.combat.press(gm, hit.pending[0].id, "roll", None, 9901)  # the button on the answer

    found = await plans(services, evening)
    assert any("pending_decisions" in sql for sql, _ in found) and any("combatants" in sql for sql, _ in found)
    whole = [f"{sql}\n  -> {plan}" for sql, plan in found if scans(plan)]
    assert whole == [], "\n".join(whole)
    # what the pressed message carries: found by its message, not through every decision of the channel
    [(sql, plan)] = [(sql, plan) for sql, plan in found if "pending_decisions.message_id IN" in sql]
    assert "ix_pending_decisions_message_id" in plan, f"{sql}\n  -> {plan}"


async def test_the_web_pages_revision_reads_no_whole_table(table: Any, gm: Any) -> None:
    """Every web page asks it (bot/services/campaign.py): its parts through the guild's indexes."""
    found = await plans(table, lambda: table.campaign.revision(gm))
    assert len(found) == 1, found  # one statement
    whole = [f"{sql}\n  -> {plan}" for sql, plan in found if scans(plan.replace("SCAN CONSTANT ROW", ""))]
    assert whole == [], "\n".join(whole)


async def test_a_log_filtered_by_a_character_reads_its_events_through_the_names_index(table: Any, gm: Any) -> None:
    """The events naming a character are found by the names stored with them (event_names), not by reading the
    channel's 2,000 newest payloads (bot/services/campaign.py, issue 33)."""
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=3")
    found = await plans(table, lambda: table.campaign.log(gm, None, CHANNEL, character="Brun"),
                        ("events", "event_names"))
    whole = [f"{sql}\n  -> {plan}" for sql, plan in found if scans(plan)]
    assert whole == [], "\n".join(whole)
    [(sql, plan)] = [(sql, plan) for sql, plan in found if "FROM event_names" in sql]
    assert "ix_event_names_channel" in plan and "ix_events_channel_id_id" in plan, f"{sql}\n  -> {plan}"
