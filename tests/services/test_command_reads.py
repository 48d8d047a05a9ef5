"""What a command reads (issue 23): the server's settings row is asked of the session once a command, however
many checks read it (the GM role, the catalog, the rulings, secret rolls), and not at all when the encounter
comes from memory; a row the session no longer holds is never handed out. A blow that only adds to the rolls
its target owes the GM reads no decision. Counts, never timings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from inspect import signature
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.orm import Mapper, Session
from sqlalchemy.orm.attributes import instance_state

from bot.db import repositories as repo
from bot.db.models import Event, GuildSettings, PendingDecision
from bot.services import encounter_cache
from tests.conftest import CHANNEL, EXAMPLE_SHEETS, GM_ROLE, GUILD, aldo_and_brun, bjorn_against_a_bandit


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
    services = await aldo_and_brun(make_services(encounter_cache=False), manager, alice, bob)
    with settings_gets(monkeypatch) as seen:
        await services.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    assert seen == [GUILD]


async def test_an_attack_on_an_encounter_in_memory_asks_for_no_settings_row(
        table: Any, gm: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    hits = table.runtime.transactions.encounters.hits
    with settings_gets(monkeypatch) as seen:
        await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=20")
    assert table.runtime.transactions.encounters.hits == hits + 1
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


HIT = "attack=9 defense=3 location=12"  # an edge blow to a Bandit: a wound, and a shock roll


@contextmanager
def selects(db: Any) -> Iterator[list[str]]:
    """The tables of every SELECT ``db`` sends meanwhile (those it joins after the first)."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        # (PostgreSQL's per-channel advisory lock, taken by every write, is a lock, not a read)
        if statement.lstrip().upper().startswith("SELECT") and "pg_advisory_xact_lock" not in statement:
            seen.append(" ".join(re.findall(r"\b(?:FROM|JOIN)\s+(\w+)", statement)))

    event.listen(db.engine.sync_engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", record)


async def _open_rolls(services: Any) -> list[str]:
    async with services.db.sessions() as session:
        rows = await session.scalars(select(PendingDecision.kind).where(PendingDecision.choice.is_(None))
                                     .order_by(PendingDecision.id))
        return list(rows)


async def test_a_blow_on_a_bandit_owing_the_gm_a_roll_looks_up_no_decision(
        services: Any, manager: Any, gm: Any, alice: Any) -> None:
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=True)
    attack = {"aspect": "edge", "aim": "high"}
    first = await services.combat.attack(alice, "Bandit 1", "Broadsword", attack, HIT, attacker="Bjorn")
    assert [p.kind for p in first.pending] == ["roll:shock"]
    with selects(services.db) as seen:  # the Bandit owes shock; this blow adds a kill roll and closes none
        second = await services.combat.attack(alice, "Bandit 1", "Broadsword", {**attack, "aim": "mid", "modifier": 8},
                                              "attack=9 defense=2 location=50", attacker="Bjorn")
    assert seen == []
    assert [p.kind for p in second.pending] == ["roll:kill"] and second.moot == ()
    assert await _open_rolls(services) == ["roll:shock", "roll:kill"]
    # the GM rolls the shock: the Bandit's open rolls are read, as that one is settled
    rolled = await services.combat.decide(gm, first.pending[0].id, "dice", "1")
    assert rolled.decided is not None and rolled.decided.kind == "roll:shock"
    assert await _open_rolls(services) == ["roll:kill"]



async def _open_decisions(services: Any) -> list[tuple[int, str]]:
    async with services.db.sessions() as session:
        rows = await session.execute(select(PendingDecision.id, PendingDecision.kind)
                                     .where(PendingDecision.choice.is_(None)).order_by(PendingDecision.id))
        return [(row.id, row.kind) for row in rows]


async def test_a_blow_on_a_bandit_waiting_for_the_gm_looks_up_its_decisions_only_where_one_could_lapse(
        services: Any, manager: Any, gm: Any, alice: Any) -> None:
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=False)
    grave = ({"aspect": "edge", "aim": "mid", "modifier": 8}, "attack=9 defense=2 location=50")
    first = await services.combat.attack(alice, "Bandit 1", "Broadsword", *grave, attacker="Bjorn")
    (kill,) = first.pending
    assert kill.kind == "kill"  # the bot rolled the kill roll; life or death is the GM's
    with selects(services.db) as seen:  # a blow that asks nothing more: the kill decision cannot lapse
        await services.combat.attack(alice, "Bandit 1", "Broadsword", {"aspect": "edge", "aim": "high"}, HIT,
                                     attacker="Bjorn")
    assert seen == []
    assert await _open_decisions(services) == [(kill.id, "kill")]
    with selects(services.db) as seen:  # a blow that asks again: one of the two goes, so they are read
        again = await services.combat.attack(alice, "Bandit 1", "Broadsword", *grave, attacker="Bjorn")
    assert seen == ["pending_decisions"]
    assert [p.kind for p in again.pending] == ["kill"] and [p.kind for p in again.moot] == ["kill"]
    assert len(await _open_decisions(services)) == 1


async def test_a_gm_press_takes_the_encounter_from_memory_and_leaves_it_there(
        services: Any, manager: Any, gm: Any, alice: Any) -> None:
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=True)
    attack = {"aspect": "edge", "aim": "high"}
    hit = await services.combat.attack(alice, "Bandit 1", "Broadsword", attack, HIT, attacker="Bjorn")
    (shock,) = hit.pending
    with selects(services.db) as pressed:
        rolled = await services.combat.decide(gm, shock.id, "dice", "1")
    assert rolled.decided is not None and rolled.decided.kind == "roll:shock"
    assert not [s for s in pressed if "encounters" in s or "characters" in s], pressed
    with selects(services.db) as seen:  # the press kept it in memory for the next blow
        await services.combat.attack(alice, "Bandit 1", "Broadsword", attack, HIT, attacker="Bjorn")
    assert not [s for s in seen if "encounters" in s or "characters" in s], seen
    bandit = await services.characters.get(gm, "Bandit 1")
    assert len(bandit.sheet["wounds"]) == 2


async def test_a_roll_in_an_encounter_reads_only_its_id(table: Any, alice: Any) -> None:
    with selects(table.db) as seen:
        rolled = await table.records.roll(alice, "3d6+2")
    assert seen == ["encounters"]  # its id: not its combatants, nor their characters' sheets
    async with table.db.sessions() as session:
        logged = await session.get(Event, rolled.event_id)
        encounter_id = await repo.active_encounter_id(session, alice.channel_id)
    assert logged is not None and encounter_id is not None and logged.encounter_id == encounter_id


async def test_the_log_does_not_read_the_undo_records(table: Any, gm: Any) -> None:
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(table.db.engine.sync_engine, "before_cursor_execute", record)
    try:
        log = await table.records.log(gm)
    finally:
        event.remove(table.db.engine.sync_engine, "before_cursor_execute", record)
    assert log[0].kind == "attack" and getattr(log[0].record, "target", None) == "Brun"
    (read,) = [s for s in statements if "FROM events" in s]
    assert "before" not in read  # the sheets as they were: /undo's, not the log's


def _session_holds(session: Any, rows: list[object]) -> tuple[Any, ...]:
    sync = session.sync_session
    return (sorted(map(repr, session.identity_map.keys())), [row in session for row in rows],
            [instance_state(row).session_id == sync.hash_key for row in rows],
            list(sync.new), list(sync.dirty), list(sync.deleted))


async def test_attach_leaves_the_session_as_adding_the_encounter_would_without_its_cascade(
        table: Any, gm: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # attach calls Session._update_impl for each row the entry lists instead of walking session.add's cascade
    # (private API: this holds it to what add does, and fails if its signature changes)
    assert list(signature(Session._update_impl).parameters) == ["self", "state", "revert_deletion"]
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=10")
    cache = table.runtime.transactions.encounters
    entry = cache.take(CHANNEL)
    assert entry is not None
    rows = [entry.encounter, *entry.encounter.combatants, *(c.character for c in entry.encounter.combatants)]
    walked: list[str] = []
    real = Mapper.cascade_iterator

    def cascade_iterator(self: Mapper[Any], *args: Any, **kw: Any) -> Any:
        walked.append(self.class_.__name__)
        return real(self, *args, **kw)

    async with table.db.sessions() as session, session.begin():
        monkeypatch.setattr(Mapper, "cascade_iterator", cascade_iterator)
        assert encounter_cache.attach(session, entry)
        monkeypatch.undo()
        attached = _session_holds(session, rows)
        session.expunge_all()
    assert "Encounter" not in walked  # no walk from the encounter to its combatants and characters
    async with table.db.sessions() as session, session.begin():
        session.add(entry.encounter)
        if entry.guild is not None:
            session.add(entry.guild)
        assert _session_holds(session, rows) == attached
        assert len(attached[0]) == len(rows) + (entry.guild is not None)
        session.expunge_all()
    cache.release(entry)


async def test_the_commands_that_fill_an_encounter_leave_it_in_memory(
        services: Any, manager: Any, gm: Any, alice: Any) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.import_sheet(alice, "bjorn.yaml", (EXAMPLE_SHEETS / "bjorn.yaml").read_bytes())
    await services.encounters.start(gm)
    with selects(services.db) as filled:
        await services.encounters.add_npcs(gm, "bandit", 2)  # new characters, new combatants
        await services.encounters.add(alice, "Bjorn")  # a character read by name joins
    with selects(services.db) as seen:
        await services.combat.attack(alice, "Bandit 1", "Broadsword", {"aspect": "edge", "aim": "high"}, HIT,
                                     attacker="Bjorn")
    assert not [s for s in seen if "encounters" in s or "characters" in s], seen
    assert not [s for s in filled if "combatants" in s], filled  # /encounter start left it in memory too
    assert (await services.characters.get(gm, "Bandit 1")).sheet["wounds"]
