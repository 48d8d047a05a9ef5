"""Group commit on SQLite (issue 12): commands from many channels share one transaction, each in a savepoint
of its own; one command's error rolls back only that command; nobody hears "done" before the COMMIT."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import event, func, select

from bot.db.models import Event
from bot.errors import UserError
from bot.services import Actor
from bot.services.actions import record_event
from bot.services.event_kinds import UnknownEvent

GUILD = 1000


@pytest.fixture
def services(db: Any, fake_system: str) -> Any:
    """Services with the group commit on (on PostgreSQL it is off by default)."""
    from bench.switches import SwitchedServices, Switches
    from tests.conftest import catalogs

    return SwitchedServices(db, Switches(group_commit=True), catalogs=catalogs)


def actor(channel: int) -> Actor:
    return Actor(guild_id=GUILD, channel_id=channel, user_id=7, user_name="Alice", role_ids=(), is_manager=False)


def logged(services: Any, channel: int, fail: bool = False) -> Any:
    """A command that logs one event in ``channel`` (and then fails, if told)."""

    async def work(session: Any) -> int:
        note = UnknownEvent({"channel": channel})
        row = record_event(services.runtime, session, actor(channel), "note", note, None, None)
        await session.flush()
        if fail:
            raise UserError(f"channel {channel} changes its mind")
        return int(row.id)

    return services.runtime.transact(channel, work)


async def stored_channels(services: Any) -> list[int]:
    async with services.db.sessions() as session:
        return sorted((await session.scalars(select(Event.channel_id))).all())


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_ready_commands_from_many_channels_share_a_transaction(services: Any) -> None:
    committer = services.runtime.transactions.committer
    assert committer is not None
    begins = []
    event.listen(services.db.engine.sync_engine, "begin", lambda connection: begins.append(1))
    ids = await asyncio.gather(*(logged(services, 2000 + n) for n in range(40)))
    assert len(set(ids)) == 40
    assert await stored_channels(services) == [2000 + n for n in range(40)]
    # 40 commands, far fewer transactions: they queued while the first batch was being written
    assert committer.commands == 40 and committer.batches < 40
    assert len(begins) < 40


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)  # PostgreSQL: a savepoint each
async def test_one_commands_error_rolls_back_only_that_command(services: Any) -> None:
    results = await asyncio.gather(*(logged(services, 3000 + n, fail=n % 3 == 0) for n in range(12)),
                                   return_exceptions=True)
    failed = [n for n, r in enumerate(results) if isinstance(r, UserError)]
    assert failed == [0, 3, 6, 9]
    assert await stored_channels(services) == [3000 + n for n in range(12) if n % 3]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_nobody_hears_done_before_the_commit_and_a_failed_commit_stores_nothing(services: Any) -> None:
    engine = services.db.engine.sync_engine
    seen_before_commit: list[int] = []
    answered: list[int] = []

    def refuse(connection: Any) -> None:
        seen_before_commit.append(len(answered))
        raise RuntimeError("disk full")

    event.listen(engine, "commit", refuse)
    try:
        async def answered_after(channel: int) -> None:
            await logged(services, channel)
            answered.append(channel)

        results = await asyncio.gather(*(answered_after(4000 + n) for n in range(5)), return_exceptions=True)
    finally:
        event.remove(engine, "commit", refuse)
    assert all(isinstance(r, RuntimeError) for r in results), results
    assert answered == [] and seen_before_commit and set(seen_before_commit) == {0}
    async with services.db.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Event)) == 0
    # and the writer lives on: the next command commits
    await logged(services, 4100)
    assert await stored_channels(services) == [4100]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_a_lone_command_needs_no_savepoint_and_its_error_stores_nothing(services: Any) -> None:
    sent: list[str] = []
    event.listen(services.db.engine.sync_engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_: sent.append(statement.split()[0].upper()))
    await logged(services, 2001)
    assert "SAVEPOINT" not in sent and "INSERT" in sent
    with pytest.raises(UserError, match="changes its mind"):
        await logged(services, 2002, fail=True)
    assert await stored_channels(services) == [2001]
    assert "SAVEPOINT" not in sent


def counted(services: Any, channel: int, runs: dict[int, int], fail: str | None = None) -> Any:
    """A command that logs one event in ``channel``, counting its runs; ``fail``: "refuse" (a refusal before
    any write), "after_write" (a refusal after its INSERT) or "flush" (its INSERT itself fails: a NOT NULL)."""

    async def work(session: Any) -> int:
        runs[channel] = runs.get(channel, 0) + 1
        if fail == "refuse":
            raise UserError(f"channel {channel} refuses")
        note = UnknownEvent({"channel": channel})
        row = record_event(services.runtime, session, actor(channel), "note", note, None, None)
        if fail == "flush":
            row.kind = None
        await session.flush()
        if fail == "after_write":
            raise UserError(f"channel {channel} changes its mind")
        return int(row.id)

    return services.runtime.transact(channel, work)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_a_batch_runs_its_commands_without_savepoints(services: Any) -> None:
    sent: list[str] = []
    event.listen(services.db.engine.sync_engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_: sent.append(statement.split()[0].upper()))
    runs: dict[int, int] = {}
    await asyncio.gather(*(counted(services, 5000 + n, runs) for n in range(8)))
    assert services.runtime.transactions.committer.batches == 1, "the eight queued together"
    assert sent.count("INSERT") == 8 and "SAVEPOINT" not in sent and "RELEASE" not in sent
    assert await stored_channels(services) == [5000 + n for n in range(8)]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_a_refusal_that_wrote_nothing_costs_the_others_nothing(services: Any) -> None:
    runs: dict[int, int] = {}
    results = await asyncio.gather(*(counted(services, 6000 + n, runs, "refuse" if n == 3 else None)
                                     for n in range(8)), return_exceptions=True)
    assert [n for n, r in enumerate(results) if isinstance(r, UserError)] == [3]
    assert services.runtime.transactions.committer.batches == 1 and set(runs.values()) == {1}, runs
    assert await stored_channels(services) == [6000 + n for n in range(8) if n != 3]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("fail", ["after_write", "flush"])
async def test_a_failure_that_wrote_rolls_back_and_the_others_run_again(services: Any, fail: str) -> None:
    """Its writes (or the transaction a failed flush rolled back) go; the commands before it run again with
    those after it, in a new transaction, and each is stored once."""
    committer = services.runtime.transactions.committer
    runs: dict[int, int] = {}
    told: list[int] = []

    async def answered(n: int) -> int:
        result = await counted(services, 7000 + n, runs, fail if n == 3 else None)
        told.append(n)
        return int(result)

    results = await asyncio.gather(*(answered(n) for n in range(8)), return_exceptions=True)
    assert [n for n, r in enumerate(results) if isinstance(r, Exception)] == [3]
    # a refusal is told at once; a failed flush (an IntegrityError) is retried as a clash would be, then refused
    assert isinstance(results[3], UserError)
    assert await stored_channels(services) == [7000 + n for n in range(8) if n != 3]
    assert len({r for r in results if isinstance(r, int)}) == 7
    assert [runs[7000 + n] for n in range(3)] == [2, 2, 2], "run again after the rollback"
    assert [runs[7000 + n] for n in range(4, 8)] == [1, 1, 1, 1], "first run after it"
    assert sorted(told) == [0, 1, 2, 4, 5, 6, 7] and committer.commands == 7
