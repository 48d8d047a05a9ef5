"""100 attacks at once, into one channel and into 20 channels: every wound and event exactly once.

Besides counting, ``assert_unbroken_chain`` proves no lost update in general: each attack started
from exactly the state the previous action on that character left behind.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import Character, Event
from bot.errors import UserError
from bot.services import Actor
from rules.errors import RulesError
from rules.registry import available_ids

GUILD = 1000


async def assert_unbroken_chain(services: Any) -> None:
    async with services.db.sessions() as session:
        events = [e for e in (await session.scalars(select(Event).order_by(Event.id))).all() if "after" in e.payload]
        characters = {c.id: c.sheet for c in (await session.scalars(select(Character))).all()}
    latest: dict[int, Any] = {}
    for event in events:
        assert event.payload.get("actor")
        for key, before in event.payload["before"].items():
            character_id = int(key)
            if character_id in latest:
                assert before == latest[character_id], f"event {event.id} started from a stale sheet"
        after = event.payload.get("after") or {}
        latest.update({int(k): v for k, v in after.items()})
    for character_id, sheet in latest.items():
        assert characters[character_id] == sheet


@pytest.fixture(autouse=True)
def record_after_sheets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep each action's sheets before and after in its event payload, so the chain can be checked."""
    import bot.services.actions as actions

    original_run = actions.run_action

    async def run(rt: Any, session: Any, actor: Any, call: Any, encounter: Any) -> Any:
        rows = [call.actor_character] + ([call.target] if call.target is not None else [])
        before = {str(row.id): row.sheet for row in rows}
        report = await original_run(rt, session, actor, call, encounter)
        event = await session.get(Event, report.event_id)
        after = {str(row.id): row.sheet for row in rows}
        event.payload = {**event.payload, "before": before, "after": after}
        await session.flush()
        return report

    for module in ("bot.services.combat", "bot.services.injuries"):
        monkeypatch.setattr(f"{module}.run_action", run)


def wounds_by(sheet: dict[str, Any]) -> list[int]:
    return [w["location"] for w in sheet["wounds"]]


async def test_100_attacks_at_once_into_one_channel(table: Any, gm: Any, make_services: Any) -> None:
    second_process = make_services(seed=2)  # its own channel locks: only the version check protects us
    calls = []
    for i in range(100):
        attacker, target = ("Aldo", "Brun") if i % 2 == 0 else ("Brun", "Aldo")
        weapon = "Sword" if attacker == "Aldo" else "Club"
        services = table if i % 3 else second_process
        calls.append(services.combat.attack(gm, target, weapon, attacker=attacker,
                                            dice_text=f"attack=5 location={i + 1}"))
    reports = await asyncio.gather(*calls)
    assert len({r.event_id for r in reports}) == 100
    aldo, brun = (await table.characters.get(gm, "Aldo")).sheet, (await table.characters.get(gm, "Brun")).sheet
    assert sorted(wounds_by(brun)) == list(range(1, 101, 2))
    assert sorted(wounds_by(aldo)) == list(range(2, 101, 2))
    assert [w["index"] for w in brun["wounds"]] == list(range(1, 51))
    log = await table.records.log(gm, limit=50)
    async with table.db.sessions() as session:
        kinds = Counter((await session.scalars(select(Event.kind))).all())
    assert kinds["attack"] == 100 and len(log) == 50
    await assert_unbroken_chain(table)


async def test_100_attacks_at_once_into_20_channels(services: Any, manager: Any, gm: Any) -> None:
    await services.setup.set_system(manager, "fake")
    await services.setup.set_gm_role(manager, 3000)
    channels = [Actor(GUILD, 5000 + n, gm.user_id, gm.user_name, gm.role_ids) for n in range(20)]
    for n, actor in enumerate(channels):
        await services.characters.create(actor, f"Red {n}", {}, ["Spear"], npc=True)
        await services.characters.create(actor, f"Blue {n}", {}, ["Club"], npc=True)
        await services.encounters.start(actor)
        await services.encounters.add(actor, f"Red {n}")
        await services.encounters.add(actor, f"Blue {n}")
    calls = [services.combat.attack(actor, f"Blue {n}", attacker=f"Red {n}", dice_text=f"attack=6 location={k + 1}")
             for k in range(5) for n, actor in enumerate(channels)]
    reports = await asyncio.gather(*calls)
    assert len({r.event_id for r in reports}) == 100
    for n, actor in enumerate(channels):
        blue = (await services.characters.get(actor, f"Blue {n}")).sheet
        assert sorted(wounds_by(blue)) == [1, 2, 3, 4, 5]
        assert len([e for e in await services.records.log(actor, 50) if e.kind == "attack"]) == 5
    await assert_unbroken_chain(services)


@pytest.mark.parametrize("system", [s for s in ("ars-harn", "pendragon", "fading-suns")])
async def test_100_attacks_with_a_real_engine(services: Any, manager: Any, gm: Any, system: str) -> None:
    if system not in available_ids():
        pytest.skip(f"{system} engine not available yet")
    await services.setup.set_system(manager, system)
    await services.setup.set_gm_role(manager, 3000)
    channels = [Actor(GUILD, 7000 + n, gm.user_id, gm.user_name, gm.role_ids) for n in range(20)]
    templates = list(services.runtime.catalogs.catalog(system).npc_templates())
    for n, actor in enumerate(channels):
        await services.encounters.start(actor)
        await services.encounters.add_npcs(actor, templates[n % len(templates)], 2, name_prefix=f"Foe {n}")

    async def attack(n: int, actor: Actor, k: int) -> Any:
        attacker, target = (f"Foe {n} 1", f"Foe {n} 2") if k % 2 == 0 else (f"Foe {n} 2", f"Foe {n} 1")
        try:
            return await services.combat.attack(actor, target, attacker=attacker)
        except (RulesError, UserError) as exc:  # a fallen or disarmed fighter may not attack: that is fine
            return exc

    results = await asyncio.gather(*(attack(n, actor, k) for k in range(5) for n, actor in enumerate(channels)))
    done = [r for r in results if not isinstance(r, Exception)]
    assert done, results[:3]
    assert len({r.event_id for r in done}) == len(done)
    async with services.db.sessions() as session:
        attacks = (await session.scalars(select(Event.id).where(Event.kind == "attack"))).all()
    assert sorted(attacks) == sorted(r.event_id for r in done)
    await assert_unbroken_chain(services)
