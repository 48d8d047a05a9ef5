"""The answer log's statements find the events they mark through the index of events not answered yet
(ix_events_unanswered), on SQLite and PostgreSQL: they cost the same however many events the database holds
(issue 23: SQLite wrote ``answered IS 0``, which does not match the index's ``NOT answered``, and scanned
every event for every answer). Query plans, never timings."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import event

from bot.services import Services


async def plans(services: Services, write: Any) -> list[tuple[str, str]]:
    """Each statement on the events table that ``write()`` sends, with the plan the database makes for it."""
    sent: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, sql: str, params: Any, _context: Any, many: bool) -> None:
        if " events" in sql and sql.split()[0] in ("SELECT", "UPDATE"):
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

    found = await plans(table, write)
    assert len(found) >= 3, found
    for sql, plan in found:
        assert "ix_events_unanswered" in plan, f"{sql}\n  -> {plan}"
    assert await answers.unanswered(801) == [] and await answers.unanswered(803) == []
