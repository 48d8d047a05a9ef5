"""Answered marks stick (bot/services/answers.py): a mark the database refuses for a moment is written again
until it sticks, with the answer's message id, instead of leaving the event flagged unanswered for the next
start to post again."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from bot.services import answers as answer_log


async def _event(services: Any) -> tuple[bool, int | None]:
    async with services.db.sessions() as session:
        row = (await session.execute(text("SELECT answered, message_id FROM events WHERE interaction_id = 4242"))).one()
        return bool(row[0]), row[1]


async def test_a_mark_the_database_refuses_is_written_again_until_it_sticks(
        services: Any, alice: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(answer_log, "MARK_RETRY_FIRST", 0.05)
    actor = dataclasses.replace(alice, interaction_id=4242)
    await services.records.roll(actor, "3d6", dice_text="1,2,3")
    answers = services.runtime.answers
    assert await _event(services) == (False, None)

    transact = services.runtime.transactions.transact
    refusals = {"left": 3}

    async def flaky(channel_id: Any, work: Any) -> Any:
        if refusals["left"]:
            refusals["left"] -= 1
            raise OperationalError("UPDATE events ...", {}, Exception("database is locked"))
        return await transact(channel_id, work)

    monkeypatch.setattr(services.runtime.transactions, "transact", flaky)
    answers.posted(4242, 777)  # the answer was sent (message 777) and the interaction ended: marked
    assert answers.take(4242)
    answers.answered([4242])
    for _ in range(100):
        if (await _event(services))[0]:
            break
        await asyncio.sleep(0.05)
    assert refusals["left"] == 0
    assert await _event(services) == (True, 777)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("trying again until it sticks" in w for w in warnings)
    assert any("stuck after 3 failed tries" in w for w in warnings)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_message_of_an_answer_stays_known_after_its_write(services: Any, alice: Any) -> None:
    """/undo reads the event, then asks ``posted_in`` for its message. On PostgreSQL its read may begin before the
    mark's commit, so the row has no message id yet; the answer log still names the message after writing it."""
    actor = dataclasses.replace(alice, interaction_id=4242)
    await services.records.roll(actor, "3d6", dice_text="1,2,3")
    answers = services.runtime.answers
    answers.posted(4242, 777)
    assert answers.posted_in(4242) == 777  # not written yet
    assert answers.take(4242)
    answers.answered([4242])
    await answers.flush()
    assert await _event(services) == (True, 777)
    assert answers.posted_in(4242) == 777  # written, and still known to a read that began before the write
    assert answers.posted_in(4343) is None and answers.posted_in(None) is None


async def test_the_answer_log_keeps_only_the_latest_written_messages(
        services: Any, alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answer_log, "WRITTEN_KEPT", 2)
    answers = services.runtime.answers
    for interaction_id in (1, 2, 3):
        await services.records.roll(dataclasses.replace(alice, interaction_id=interaction_id), "1d6", dice_text="4")
        answers.posted(interaction_id, 100 + interaction_id)
        answers.take(interaction_id)
        answers.answered([interaction_id])
        await answers.flush()
    assert [answers.posted_in(i) for i in (1, 2, 3)] == [None, 102, 103]
