"""Permissions and bad input: each refusal is one clear UserError/RulesError, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from bot.errors import NotFound, NotInEncounter, PermissionDenied, UserError
from bot.services import Actor
from rules.errors import IllegalAction, RulesError, UnknownEntry


async def snapshot(services: Any) -> dict[str, Any]:
    """Every row of every table, to prove a refused command changed nothing."""
    out = {}
    async with services.db.sessions() as session:
        for table in ("characters", "encounters", "combatants", "events", "pending_decisions", "guild_settings",
                      "channel_settings"):
            rows = (await session.execute(text(f"SELECT * FROM {table} ORDER BY 1"))).all()
            out[table] = [tuple(map(str, row)) for row in rows]
    return out


async def refused(services: Any, exc: type[Exception], match: str, call: Any) -> None:
    before = await snapshot(services)
    with pytest.raises(exc, match=match) as info:
        await call
    assert "\n" not in str(info.value)
    assert await snapshot(services) == before


async def test_a_player_cannot_act_for_someone_elses_character(table: Any, alice: Any, bob: Any) -> None:
    await refused(table, PermissionDenied, "Aldo is not yours", table.combat.attack(bob, "Brun", attacker="Aldo"))
    await refused(table, PermissionDenied, "not yours", table.characters.edit_stat(bob, "Aldo", "str", 3))
    await refused(table, PermissionDenied, "not yours", table.characters.add_item(bob, "Aldo", "weapon", "Club"))
    await refused(table, PermissionDenied, "not yours", table.characters.delete(bob, "Aldo"))
    await refused(table, PermissionDenied, "not yours", table.injuries.rest(bob, "Aldo", 3))
    await refused(table, PermissionDenied, "not yours", table.encounters.remove(bob, "Aldo"))
    await refused(table, PermissionDenied, "not yours", table.encounters.declare(bob, "Aldo", aim="low"))
    await refused(table, PermissionDenied, "not yours", table.encounters.next_turn(bob))  # Aldo's turn
    await refused(table, PermissionDenied, "not yours", table.combat.act(bob, "shock", "Aldo"))


async def test_a_player_is_not_a_gm(table: Any, alice: Any, bob: Any, gm: Any) -> None:
    report = await table.combat.attack(alice, "Brun", dice_text="attack=0 location=4")
    decision = report.pending[0].id
    await refused(table, PermissionDenied, "only the GM", table.combat.decide(bob, decision, "death"))
    await refused(table, PermissionDenied, "only the GM", table.combat.decide(alice, decision, "death"))
    await refused(table, PermissionDenied, "only the GM", table.records.undo(alice))
    await refused(table, PermissionDenied, "only the GM", table.encounters.end(alice))
    await refused(table, PermissionDenied, "only the GM", table.encounters.add_npcs(alice, "bandit", 2))
    await refused(table, PermissionDenied, "only the GM", table.encounters.roll_initiative(bob))
    await refused(table, PermissionDenied, "only the GM", table.characters.create(bob, "Ogre", npc=True))
    for call in (table.setup.set_system(gm, "fake"), table.setup.set_gm_role(gm, 1),
                 table.setup.set_rolls(gm, "gm"), table.setup.set_ruling(gm, "hit_on", "4")):
        await refused(table, PermissionDenied, "only a server manager", call)
    assert not (await table.setup.viewer(alice)).is_gm


async def test_the_gm_may_act_for_anyone_and_owns_npcs(table: Any, alice: Any, gm: Any) -> None:
    await table.encounters.add_npcs(gm, "bandit", 1)
    report = await table.combat.attack(gm, "Aldo", attacker="Bandit 1", dice_text="attack=5 location=1")
    assert report.actor_name == "Bandit 1"
    await refused(table, PermissionDenied, "NPC", table.combat.attack(alice, "Aldo", attacker="Bandit 1"))
    assert (await table.characters.edit_stat(gm, "Aldo", "str", 13)).sheet["str"] == 13


@pytest.mark.parametrize(("kwargs", "exc", "match"), [
    ({"target": "Zed"}, NotFound, "'Zed' is not in this encounter \\(in it: Aldo, Brun\\)"),
    ({"target": "Brun", "weapon": "Axe"}, NotFound, "Aldo has no weapon 'Axe' \\(has: Sword\\)"),
    ({"target": "Brun", "options": {"aspect": "fire"}}, UnknownEntry, "unknown aspect 'fire'"),
    ({"target": "Brun", "options": {"aspect": "blunt"}}, IllegalAction, "Sword has no blunt aspect"),
    ({"target": "Aldo"}, UserError, "cannot attack themselves"),
    ({"target": "Brun", "dice_text": "attak=3"}, UserError, "unknown label 'attak' \\(labels: attack, healing"),
    ({"target": "Brun", "dice_text": "attack=11"}, RulesError, "impossible on a d10"),
    ({"target": "Brun", "dice_text": "attack seven"}, UserError, "cannot read 'attack'"),
    ({"target": "Brun", "attacker": "Nobody"}, NotFound, "'Nobody' is not in this encounter"),
])
async def test_bad_attacks_change_nothing(table: Any, alice: Any, kwargs: dict[str, Any], exc: type[Exception],
                                          match: str) -> None:
    await refused(table, exc, match, table.combat.attack(alice, **kwargs))


async def test_attacking_outside_an_encounter(services: Any, manager: Any, alice: Any) -> None:
    await services.setup.set_system(manager, "fake")
    await services.characters.create(alice, "Aldo", {}, ["Sword"])
    await refused(services, NotInEncounter, "no encounter in this channel", services.combat.attack(alice, "Brun"))
    await refused(services, NotInEncounter, "no encounter", services.encounters.next_turn(alice))
    await services.encounters.start(alice)
    await refused(services, NotInEncounter, "nobody is in the encounter", services.combat.attack(alice, "Brun"))
    elsewhere = Actor(alice.guild_id, alice.channel_id + 1, alice.user_id, alice.user_name)
    await refused(services, NotInEncounter, "no encounter", services.combat.attack(elsewhere, "Aldo"))


BOMB = b"""a: &a ["x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e]
name: Bomb
"""
BIG_BOMB = BOMB + b"g: &g [" + b",".join([b"*f"] * 40) + b"]\n"


@pytest.mark.parametrize(("filename", "data", "match"), [
    ("evil.yaml", b"!!python/object/apply:os.system ['touch /tmp/grievous-pwned']\n", "not allowed"),
    ("evil.yaml", b"name: !!python/name:os.system\n", "not allowed"),
    ("bomb.yaml", BOMB, "line 4, column 29: holds more than 5000 values"),
    ("bigbomb.yaml", BIG_BOMB, "holds more than 5000 values"),
    ("huge.yaml", b"name: Huge\nnotes: '" + b"x" * 70_000 + b"'\n", "over the 64 KiB limit"),
    ("list.yaml", b"- a\n- b\n", "a sheet is a mapping"),
    ("broken.yaml", b"name: [unclosed\n", "is not valid YAML"),
    ("noname.yaml", b"str: 3\n", "field 'name'"),
    ("bad.yaml", b"name: Cara\nstr: lots\n", "bad.yaml: field 'str' must be a whole number"),
    ("bad.json", b'{"name": "Cara", "weapons": ["Lightsaber"]}', "unknown item 'Lightsaber'"),
    ("keys.yaml", b"name: Cara\n1: one\n", "key that is not text"),
    ("deep.json", b'{"name": "Deep", "x": ' + b"[" * 30 + b"]" * 30 + b"}", "nests more than 12 levels"),
    ("latin1.yaml", "name: Caf\xe9\n".encode("latin-1"), "not UTF-8"),
])
async def test_hostile_or_malformed_uploads(services: Any, manager: Any, alice: Any, filename: str, data: bytes,
                                            match: str) -> None:
    await services.setup.set_system(manager, "fake")
    await refused(services, (UserError, RulesError), match,  # type: ignore[arg-type]
                  services.characters.import_sheet(alice, filename, data))


@pytest.mark.parametrize(("call", "exc", "match"), [
    (lambda s, a: s.characters.create(a, "Cato", {"str": 50}), RulesError, "field 'str' must be"),
    (lambda s, a: s.characters.create(a, "Cato", {}, ["Lightsaber"]), NotFound, "unknown weapon 'Lightsaber'"),
    (lambda s, a: s.characters.create(a, "Cato", {}, ["swrod"]), NotFound, "did you mean Sword"),
    (lambda s, a: s.characters.create(a, "   "), UserError, "needs a name"),
    (lambda s, a: s.characters.create(a, "x" * 101), UserError, "at most 100"),
    (lambda s, a: s.characters.create(a, "Cato", {"weapons": 3}), UserError, "own option"),
    (lambda s, a: s.characters.get(a, "Nobody"), NotFound, "no character named 'Nobody'"),
    (lambda s, a: s.characters.remove_item(a, "Brun", "weapon", "Axe"), NotFound, "has no weapon 'Axe'"),
    (lambda s, a: s.characters.add_item(a, "Brun", "shield", "Axe"), UserError, "weapon or armour"),
    (lambda s, a: s.characters.create(a, "brun"), UserError, "already exists"),
    (lambda s, a: s.characters.edit_stat(a, "Brun", "str", "strong"), RulesError, "field 'str'"),
    (lambda s, a: s.characters.delete(a, "Brun"), UserError, "in an encounter"),
    (lambda s, a: s.encounters.add(a, "Brun"), UserError, "already in the encounter"),
    (lambda s, a: s.encounters.start(a), UserError, "already has an encounter"),
    (lambda s, a: s.injuries.heal(a, "Brun", "prayer"), UserError, "no 'prayer' action"),
    (lambda s, a: s.records.roll(a, "3q6"), RulesError, "cannot read"),
    (lambda s, a: s.records.roll(a, "d6", "roll=9"), RulesError, "impossible on a d6"),
])
async def test_bad_input_is_one_line_and_changes_nothing(table: Any, bob: Any, call: Any, exc: type[Exception],
                                                         match: str) -> None:
    await refused(table, exc, match, call(table, bob))


async def test_characters_of_another_system_cannot_join(table: Any, manager: Any, bob: Any) -> None:
    from rules.registry import available_ids

    real = [system for system in available_ids() if system != "fake"]
    if not real:
        pytest.skip("no real engine yet")
    other = Actor(bob.guild_id, bob.channel_id + 5, bob.user_id, bob.user_name)
    await table.setup.set_system(Actor(bob.guild_id, other.channel_id, 1, "M", is_manager=True), real[0],
                                    channel_only=True)
    await table.encounters.start(other)
    await refused(table, UserError, f"Brun plays fake, but this encounter is {real[0]}",
                  table.encounters.add(other, "Brun"))


async def test_a_dice_face_longer_than_any_die_is_one_short_line(services: Any, manager: Any, alice: Any) -> None:
    await services.setup.set_system(manager, "fake")
    await refused(services, UserError, r"^dice: a face is a number a die shows, at most 4 digits$",
                  services.records.roll(alice, "3d6", "9" * 150))
    await refused(services, RulesError, r"^a number in a roll is at most 999999, not 9999999999\u2026$",
                  services.records.roll(alice, "3d6+" + "9" * 90))
