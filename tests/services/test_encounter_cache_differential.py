"""The encounter cache changes no outcome: one seeded stream of commands over two channels (attacks, edits,
rest, removes and adds, turns, settings, undo, an encounter ended and started again), run once with the cache
and once without, gives the same answers, the same refusals and the same stored rows."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from typing import Any

import pytest
from sqlalchemy import select

from bench.switches import SwitchedServices, Switches
from bot.db.engine import Database
from bot.db.models import Character, Combatant, Encounter, Event, GuildSettings
from bot.errors import UserError
from bot.services import Actor, Services
from rules.errors import RulesError
from tests.conftest import GM_ROLE, GUILD, catalogs

TAVERN, ROAD = 2101, 2102
FIXED = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
MANAGER = Actor(GUILD, TAVERN, 1, "Manager", (), is_manager=True)
GM = Actor(GUILD, TAVERN, 2, "Gemma", (GM_ROLE,))
ALICE = Actor(GUILD, TAVERN, 11, "Alice")
BOB = Actor(GUILD, TAVERN, 12, "Bob")


def at(actor: Actor, channel: int) -> Actor:
    return Actor(actor.guild_id, channel, actor.user_id, actor.user_name, actor.role_ids, actor.is_manager)


async def setup_table(services: Services) -> None:
    await services.setup.set_system(MANAGER, "fake")
    await services.setup.set_gm_role(MANAGER, GM_ROLE)
    await services.characters.create(ALICE, "Aldo", {"str": 12}, ["Sword"])
    await services.characters.create(BOB, "Brun", {"str": 11}, ["Club", "Spear"])
    await services.characters.create(ALICE, "Cora", {"str": 9}, ["Spear"])
    for channel, names in ((TAVERN, ("Aldo", "Brun")), (ROAD, ("Cora", "Brun"))):
        await services.encounters.start(at(GM, channel))
        for name in names:
            await services.encounters.add(at(GM, channel), name)


def commands(seed: int, count: int) -> list[tuple[str, int, tuple[Any, ...]]]:
    """What a busy evening sends, drawn once from ``seed``: (command, channel, arguments)."""
    pick = Random(seed)
    out: list[tuple[str, int, tuple[Any, ...]]] = []
    for _ in range(count):
        channel = pick.choice((TAVERN, ROAD))
        kind = pick.choices(["attack", "edit", "rest", "remove_add", "next", "turns", "undo", "restart"],
                            [10, 2, 1, 1, 2, 2, 2, 1])[0]
        out.append((kind, channel, (pick.randint(0, 9), pick.randint(1, 100), pick.choice(("Aldo", "Brun", "Cora")),
                                    pick.choice(("enforce", "warn", "off")))))
    return out


async def play(services: Services, stream: list[tuple[str, int, tuple[Any, ...]]]) -> list[str]:
    answers = []
    for kind, channel, (face, location, name, mode) in stream:
        gm = at(GM, channel)
        try:
            if kind == "attack":  # between two of whoever is in the channel's encounter now
                names = [c.name for c in (await services.encounters.status(gm)).combatants]
                if len(names) < 2:
                    answers.append(f"attack: {len(names)} in the encounter")
                    continue
                attacker, target = names[face % len(names)], names[(face + 1) % len(names)]
                weapon = {"Aldo": "Sword", "Brun": "Club", "Cora": "Spear"}[attacker]
                # players attack with their own characters too, so the server's turn order counts
                who = gm if location % 2 else at(BOB if attacker == "Brun" else ALICE, channel)
                report = await services.combat.attack(who, target, weapon, attacker=attacker,
                                                      dice_text=f"attack={face} location={location}")
                answers.append(f"attack {getattr(report.outcome, 'hit', None)} {report.event_id} "
                               f"out of turn: {report.out_of_turn}")
            elif kind == "edit":
                view = await services.characters.edit_stat(gm, name, "str", face + 5)
                answers.append(f"edit {view.name}")
            elif kind == "rest":
                report = await services.injuries.rest(gm, name, 1, dice_text="healing=3")
                answers.append(f"rest {report.event_id}")
            elif kind == "remove_add":
                await services.encounters.remove(gm, name)
                view = await services.encounters.add(gm, name)
                answers.append(f"remove_add {[c.name for c in view.combatants]}")
            elif kind == "next":
                view = await services.encounters.next_turn(gm)
                answers.append(f"next {view.round}.{view.turn}")
            elif kind == "turns":
                await services.setup.set_turns(at(MANAGER, channel), mode)
                answers.append(f"turns {mode}")
            elif kind == "undo":
                event = await services.records.undo(gm)
                answers.append(f"undo {event.id}")
            else:
                await services.encounters.end(gm)
                await services.encounters.start(gm)
                for who in (name, "Brun" if name != "Brun" else "Aldo"):
                    await services.encounters.add(gm, who)
                answers.append("restart")
        except (UserError, RulesError) as refused:
            answers.append(f"{kind} refused: {refused}")
    return answers


async def stored(db: Database) -> dict[str, Any]:
    async with db.sessions() as session:
        characters = {c.name: (c.sheet, c.version) for c in (await session.scalars(select(Character))).all()}
        encounters = [(e.channel_id, e.active, e.round, e.turn, e.order, e.version)
                      for e in (await session.scalars(select(Encounter).order_by(Encounter.id))).all()]
        combatants = sorted((c.encounter_id, c.character_id) for c in (await session.scalars(select(Combatant))).all())
        events = [(e.kind, e.channel_id, e.payload, e.undone)
                  for e in (await session.scalars(select(Event).order_by(Event.id))).all()]
        settings = [(g.turns, g.gm_role_id) for g in (await session.scalars(select(GuildSettings))).all()]
    return {"characters": characters, "encounters": encounters, "combatants": combatants, "events": events,
            "settings": settings}


# Seeds whose streams give other answers or rows without the cache's invalidation (checked by hand).
@pytest.mark.parametrize("seed", [4, 6, 8, 9, 10, 11])
async def test_the_cache_changes_no_outcome(seed: int, sqlite_template: Path, tmp_path: Path, fake_system: str
                                            ) -> None:
    stream = commands(seed, 80)
    results = []
    for cached in (True, False):
        path = tmp_path / f"cache-{cached}.db"
        shutil.copyfile(sqlite_template, path)
        db = Database.from_url(f"sqlite+aiosqlite:///{path}")
        counter, ticks = iter(range(10**9)), iter(range(10**9))
        services = SwitchedServices(db, Switches(encounter_cache=cached),
                                    rng=lambda counter=counter: Random(seed * 1_000_003 + next(counter)),
                                    catalogs=catalogs, clock=lambda ticks=ticks: FIXED + timedelta(seconds=next(ticks)))
        try:
            await setup_table(services)
            answers = await play(services, stream)
            cache = services.runtime.transactions.encounters
            hits = cache.hits if cache is not None else None
            results.append((answers, await stored(db), hits))
        finally:
            await services.runtime.close()
            await db.dispose()
    (answers_on, rows_on, hits), (answers_off, rows_off, _) = results
    assert answers_on == answers_off
    assert rows_on == rows_off
    # the stream did run through the cache (a character in both channels drops the other channel's entry)
    assert hits is not None and hits >= 15
    assert sum(a.startswith("attack ") and "refused" not in a for a in answers_on) > 20

