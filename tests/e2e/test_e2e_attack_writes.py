"""What an attack that hits writes, statement by statement, through the real bot (issue 23): the command's own
transaction, then the answer log's. The answer's message id is written with its answered mark in one UPDATE,
and the message carrying a GM decision's buttons with the answer's message id, not in transactions of their
own. The command's characters, encounter and event are Core statements; only the GM's decision goes through an
ORM flush. Counts, never timings."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession

HIT = "attack=9 defense=3 location=12"  # an edge blow: a wound and a shock roll (the GM's, in gm mode)


@contextmanager
def transactions(table: Any) -> Iterator[list[list[str]]]:
    """The bot's transactions meanwhile, each the first words of its statements (BEGIN to COMMIT)."""
    engine = table.bot.services.db.engine.sync_engine
    seen: list[list[str]] = []

    def statement(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        words = " ".join(sql.split()[:4]).upper()
        if words.startswith("BEGIN"):
            seen.append([])
        elif seen:
            seen[-1].append(words)

    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", statement)


@contextmanager
def flushes(table: Any) -> Iterator[list[list[str]]]:
    """The bot's ORM flushes meanwhile, each the sorted names of the rows it wrote."""
    db = table.bot.services.db
    session_class = db.sessions.kw["sync_session_class"]
    seen: list[list[str]] = []

    def flushed(session: Any, _context: Any) -> None:
        seen.append(sorted(type(row).__name__ for row in (*session.new, *session.dirty, *session.deleted)))

    event.listen(session_class, "after_flush", flushed)
    try:
        yield seen
    finally:
        event.remove(session_class, "after_flush", flushed)


async def fight(table: Any, mode: str) -> None:
    await table.bjorn_against_bandits(2, settings={"setup rolls": {"mode": mode}})
    await hit(table, "Bandit 1")  # the tracker posted, the encounter in memory


async def hit(table: Any, target: str) -> Any:
    message = await table.run("attack", {"target": target, "weapon": "Broadsword", "aspect": "edge", "aim": "high",
                                         "dice": HIT}, user=table.alice)
    await table.trackers_idle()
    for _ in range(200):  # the interaction lands after its tracker edit: then its mark is written
        if await table.count_rows("SELECT count(*) FROM events WHERE answered = false") == 0:
            break
        await asyncio.sleep(0.02)
    return message


@pytest.mark.parametrize("mode", ["auto", "gm"])
async def test_an_attack_that_hits_writes_its_answer_in_one_more_transaction(table: Any, mode: str) -> None:
    await fight(table, mode)
    with transactions(table) as seen, flushes(table) as flushed:
        message = await hit(table, "Bandit 2")
    command, *after = seen
    # first the one read of the retry guard (bot/services/retries.py: was this declaration applied already, its
    # answer lost?), on the channel's newest events by its index; then the writes
    assert command[0] == "SELECT EVENTS.ID, EVENTS.USER_ID, EVENTS.KIND,", command
    command = command[1:]
    # the attacker (its version only), the target, the encounter's version and the event with the two it names
    # (one executemany, the filtered log's index), with the GM's shock roll: the same statements as the ORM's flush
    # sent, the rows as Core statements (bot/db/repositories.py) and only the decision through the flush; not the
    # attacker's combatant, whose round was spent on an attack already
    assert command[:5] == ["UPDATE CHARACTERS SET VERSION=?,", "UPDATE CHARACTERS SET SHEET=?,",
                           "UPDATE ENCOUNTERS SET VERSION=?,", "INSERT INTO EVENTS (GUILD_ID,",
                           "INSERT INTO EVENT_NAMES (EVENT_ID,"], command
    assert command[5:] == (["INSERT INTO PENDING_DECISIONS (GUILD_ID,"] if mode == "gm" else []), command
    assert flushed == ([["PendingDecision"]] if mode == "gm" else []), flushed
    if mode == "auto":
        assert after == [["UPDATE EVENTS SET ANSWERED=?,"]]
    else:
        assert table.buttons(message), "the GM's buttons"
        assert after == [["UPDATE EVENTS SET MESSAGE_ID=?", "UPDATE PENDING_DECISIONS SET MESSAGE_ID=?"],
                         ["UPDATE EVENTS SET ANSWERED=?"]]
        stored = await table.count_rows("SELECT count(*) FROM pending_decisions WHERE message_id = :m",
                                        m=int(message.id))
        assert stored == 1
    assert await table.count_rows("SELECT count(*) FROM events WHERE answered = false") == 0
    assert await table.count_rows("SELECT count(*) FROM events WHERE kind = 'attack' AND message_id IS NULL") == 0


@contextmanager
def session_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """The bot's calls into its sessions' greenlet meanwhile, by name: flushes (each one, even one with nothing
    to write), the session's connection fetched (to run Core statements on it) and run_sync."""
    seen: Counter[str] = Counter()

    def counted(name: str) -> None:
        original = getattr(AsyncSession, name)

        async def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            seen[name] += 1
            return await original(self, *args, **kwargs)

        monkeypatch.setattr(AsyncSession, name, call)

    for name in ("flush", "connection", "run_sync"):
        counted(name)
    yield seen
    monkeypatch.undo()


@pytest.mark.parametrize("mode", ["auto", "gm"])
async def test_an_attack_that_hits_calls_into_the_session_for_what_it_writes_only(
        table: Any, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    await fight(table, mode)
    with session_calls(monkeypatch) as calls:
        await hit(table, "Bandit 2")
    # the rows' Core statements in two calls (the UPDATEs together, then the event's INSERTs), not a call to fetch
    # the connection and one to run each; no flush with nothing to write (the command's after its action, the
    # runner's after the command, the answer log's): only the GM's decision is flushed
    assert calls["run_sync"] == 2, calls
    assert calls["connection"] == 0, calls
    assert calls["flush"] == (1 if mode == "gm" else 0), calls
