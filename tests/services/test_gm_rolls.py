"""Rolls that wait for the GM (``/setup rolls mode:gm``) in each system: a decision per owed roll, the GM's
Roll / Dice choices and /pending-roll, what they lead to, and that they survive a restart and refuse players."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from bot.db.models import PendingDecision
from bot.errors import Conflict, PermissionDenied, UserError
from bot.services.combat import decision_value
from tests.conftest import EXAMPLE_SHEETS, bjorn_against_a_bandit, npc_table
from tests.services.test_guards import snapshot

# Bjorn's blows on Bandit 1 (options, dice): one owes a shock roll, the other a kill roll and a shock roll
SHOCK_BLOW = ({"aspect": "edge", "aim": "high"}, "attack=9 defense=3 location=12")
KILL_BLOW = ({"aspect": "edge", "aim": "mid", "modifier": 8}, "attack=9 defense=2 location=50")


async def _bjorn_hits(services: Any, alice: Any, blow: tuple[dict[str, Any], str]) -> Any:
    """Bjorn's Broadsword on Bandit 1, `blow` (options, dice) as SHOCK_BLOW and KILL_BLOW are."""
    return await services.combat.attack(alice, "Bandit 1", "Broadsword", *blow, attacker="Bjorn")


async def _sir_owain_against(services: Any, manager: Any, gm: Any, alice: Any, npc: str,
                             more: dict[str, int] | None = None) -> None:
    """pendragon: Alice's Sir Owain (sword 16, chainmail and a shield; `more` stats) against one `npc`."""
    await npc_table(services, manager, gm, "pendragon", npc, gm_rolls=True)
    stats = {"siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11, "skills.sword": 16, **(more or {})}
    await services.characters.create(alice, "Sir Owain", stats, ["sword"], ["chainmail", "shield"])
    await services.encounters.add(alice, "Sir Owain")


def _kinds(report: Any) -> list[str]:
    return [p.kind for p in report.pending]


async def test_ars_harn_shock_and_kill_wait_for_the_gm_and_chain_to_the_death_decision(
        make_services: Any, manager: Any, gm: Any, alice: Any) -> None:
    services = make_services()
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=True)

    hit = await _bjorn_hits(services, alice, SHOCK_BLOW)
    (shock,) = hit.pending
    assert (shock.kind, shock.who, shock.options, shock.roll) == ("roll:shock", "Bandit 1", ("roll", "dice"), "shock")
    with pytest.raises(PermissionDenied):
        await services.combat.decide(alice, shock.id, "roll")

    restarted = make_services(seed=2)  # a restart: the decision is in the database
    rolled = await restarted.combat.decide(gm, shock.id, "dice", "9")
    assert rolled.action == "shock" and rolled.decided is not None and rolled.decided.choice == "dice"
    assert rolled.outcome.shock.passed is True and rolled.pending == ()
    with pytest.raises(Conflict, match="already decided"):
        await restarted.combat.decide(gm, shock.id, "roll")

    kill_hit = await _bjorn_hits(restarted, alice, KILL_BLOW)
    assert _kinds(kill_hit) == ["roll:kill", "roll:shock"]
    kill, shock2 = kill_hit.pending
    # issue 24: a face this roll does not use is one line, and nothing is rolled in its place or stored
    before = await snapshot(restarted)
    for typed, says in (("shock=99", "this kill roll does not roll shock (shock=99): type its own faces"),
                        ("kill=2,3", "3 left over for kill: this kill roll takes fewer faces")):
        with pytest.raises(UserError, match=re.escape(says)):
            await restarted.combat.decide(gm, kill.id, "dice", typed)
        assert await snapshot(restarted) == before
    failed = await restarted.combat.decide(gm, kill.id, "dice", "kill=2")
    assert failed.outcome.kill.passed is False
    assert _kinds(failed) == ["kill"] and [m.id for m in failed.moot] == [shock2.id]
    with pytest.raises(Conflict, match="no longer owes that roll"):
        await restarted.combat.decide(gm, shock2.id, "roll")
    dead = await restarted.combat.decide(gm, failed.pending[0].id, "death")
    assert (await restarted.characters.get(gm, "Bandit 1")).sheet["conditions"] == ["dead"]
    assert dead.decided is not None and dead.decided.choice == "death"


async def test_pending_roll_command_is_for_the_gm_and_takes_bare_faces(services: Any, manager: Any, gm: Any,
                                                                       alice: Any) -> None:
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=True)
    await _bjorn_hits(services, alice, SHOCK_BLOW)
    with pytest.raises(PermissionDenied):
        await services.combat.pending_roll(alice, "Bandit 1")
    with pytest.raises(UserError, match="owes only: shock, not a kill roll"):
        await services.combat.pending_roll(gm, "Bandit 1", "kill")
    rolled = await services.combat.pending_roll(gm, "Bandit 1", "shock", "0")
    assert rolled.action == "shock" and rolled.decided is not None and rolled.decided.roll == "shock"
    assert rolled.event.shown_rolls[0].label == "shock"
    with pytest.raises(UserError, match="owes no roll"):
        await services.combat.pending_roll(gm, "Bandit 1")


async def test_pendragon_knockdown_and_major_wound_wait_and_each_decision_gets_buttons(
        make_services: Any, manager: Any, gm: Any, alice: Any) -> None:
    services = make_services()
    await _sir_owain_against(services, manager, gm, alice, "bandit", {"traits.valorous": 15})
    blow = await services.combat.attack(alice, "Bandit 1", "sword", {},
                                        "attacker=14 defender=15 damage=4,4,3,3,2", attacker="Sir Owain")
    assert _kinds(blow) == ["roll:knockdown", "roll:major_wound"]
    with pytest.raises(PermissionDenied):
        await services.combat.decide(alice, blow.pending[0].id, "roll")
    restarted = make_services(seed=3)
    down = await restarted.combat.pending_roll(gm, "Bandit 1", "knockdown", "13")
    assert down.action == "knockdown" and down.outcome.knockdown.passed is False
    effects = await restarted.combat.decide(gm, blow.pending[1].id, "roll")
    assert effects.action == "major_wound" and effects.outcome.major_wound_effects.conscious_roll is not None

    # bug: a critical that leaves the loser dying also asks for the winner's experience check: both get buttons;
    # death or survival comes once the major wound roll is made (it may cost SIZ or CON: hit points)
    await restarted.encounters.add_npcs(gm, "bandit", 1)
    crit = await restarted.combat.attack(alice, "Bandit 2", "sword", {}, "attacker=16 defender=3 damage=6,6,6,6,6",
                                         attacker="Sir Owain")
    assert {(p.kind, p.who) for p in crit.pending} == {("roll:major_wound", "Bandit 2"),
                                                       ("experience_check", "Sir Owain")}
    major = next(p for p in crit.pending if p.roll is not None)
    rolled = await restarted.combat.decide(gm, major.id, "dice", "stat_loss=6")
    dying = next(p for p in rolled.pending if p.kind == "dying")
    dead = await restarted.combat.decide(gm, dying.id, "death")
    assert dead.moot == () and dead.pending == ()


async def test_pendragon_death_or_survival_comes_after_the_major_wound_roll_and_is_asked_once(
        make_services: Any, manager: Any, gm: Any, alice: Any) -> None:
    """Issue 18, the bear's blow: Death, Survival and the major wound's Roll were offered at once; the GM pressed
    Survival ("at 1 hit point"), then Roll, whose lost CON made the knight dying again and asked Death or Survival
    a second time. The roll is offered first; death or survival after it, once."""
    services = make_services()
    await _sir_owain_against(services, manager, gm, alice, "bandit")
    first = await services.combat.attack(alice, "Bandit 1", "sword", {}, "attacker=14 defender=3 damage=2,2,2,2,2",
                                         attacker="Sir Owain")
    assert first.pending == ()  # 9 damage: no major wound, no knockdown; 13 hit points left
    blow = await services.combat.attack(alice, "Bandit 1", "sword", {}, "attacker=14 defender=3 damage=3,3,3,3,2",
                                        attacker="Sir Owain")
    assert blow.outcome.dying is True  # 13 damage: 0 hit points, a major wound
    # no Death or Survival yet; nor a knockdown roll: the wound laid him on the ground, it can change nothing
    assert _kinds(blow) == ["roll:major_wound"]
    rolled = await services.combat.decide(gm, blow.pending[0].id, "dice", "stat_loss=4")  # CON 11 -> 10
    assert rolled.outcome.major_wound_effects.stat_lost == "con"
    assert _kinds(rolled) == ["dying"]
    saved = await services.combat.decide(gm, rolled.pending[0].id, "survival")
    assert saved.outcome.hit_points == 1 and saved.pending == ()


async def test_a_beasts_critical_earns_no_experience_check_a_knights_does(make_services: Any, manager: Any,
                                                                         gm: Any, alice: Any) -> None:
    """Before: "Bear 1's notable success earns an experience check", with Approve / Deny buttons for the GM."""
    services = make_services()
    await _sir_owain_against(services, manager, gm, alice, "bear")
    mauled = await services.combat.attack(gm, "Sir Owain", "claws", {}, "attacker=14 defender=3 damage=1,1,1,1,1,1",
                                          attacker="Bear 1")
    assert mauled.outcome.critical is True and "experience_check" not in _kinds(mauled)
    struck = await services.combat.attack(alice, "Bear 1", "sword", {}, "attacker=16 defender=3 damage=1,1,1,1,1",
                                          attacker="Sir Owain")
    assert [(p.kind, p.who) for p in struck.pending if p.kind == "experience_check"] == [
        ("experience_check", "Sir Owain")]


async def test_fading_suns_effect_roll_waits_and_a_death_result_asks_the_gm(make_services: Any, manager: Any,
                                                                             gm: Any, alice: Any) -> None:
    services = make_services()
    await npc_table(services, manager, gm, "fading-suns", "thug", gm_rolls=True)
    await services.setup.set_ruling(manager, "gm_confirms_death", "true")
    await services.characters.import_sheet(alice, "erian.yaml", (EXAMPLE_SHEETS / "erian.yaml").read_bytes())
    await services.encounters.add(alice, "Erian")
    hit = await services.combat.attack(alice, "Thug 1", "broadsword", {}, "attack=10 location=20", attacker="Erian")
    (effect,) = hit.pending
    assert (effect.kind, effect.roll, effect.who) == ("roll:effect:1", "effect", "Thug 1")
    with pytest.raises(PermissionDenied):
        await services.combat.decide(alice, effect.id, "roll")
    restarted = make_services(seed=4)
    with pytest.raises(UserError, match="type the faces"):
        await restarted.combat.decide(gm, effect.id, "dice", " ")
    deadly = await restarted.combat.decide(gm, effect.id, "dice", "20")
    assert deadly.action == "effect" and deadly.outcome.to_dict()["effect"] == "death"
    (death,) = deadly.pending
    assert (death.kind, death.options) == ("death", ("death", "unconscious"))
    spared = await restarted.combat.decide(gm, death.id, "unconscious")
    assert "unconscious" in spared.outcome.conditions


def test_a_damage_choice_needs_a_whole_amount() -> None:
    assert decision_value("fall_damage", "damage", " 3 ") == {"amount": 3}
    assert decision_value("fall_damage", "none", None) == {}
    with pytest.raises(UserError, match="whole number"):
        decision_value("fall_damage", "damage", "lots")


async def test_settled_and_moot_decisions_name_the_message_their_buttons_are_on(services: Any, manager: Any, gm: Any,
                                                                               alice: Any) -> None:
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=True)
    hit = await _bjorn_hits(services, alice, SHOCK_BLOW)
    (shock,) = hit.pending
    assert shock.message_id is None and shock.channel_id == alice.channel_id
    await services.combat.set_decision_message(alice, [shock.id], 111)
    kill_hit = await _bjorn_hits(services, alice, KILL_BLOW)
    (kill,) = [p for p in kill_hit.pending if p.roll == "kill"]
    await services.combat.set_decision_message(alice, [p.id for p in kill_hit.pending], 222)
    # the kill roll fails: the shock roll the first attack asked for is moot, on the first attack's message
    failed = await services.combat.pending_roll(gm, "Bandit 1", "kill", "2")
    assert failed.decided is not None and (failed.decided.id, failed.decided.message_id) == (kill.id, 222)
    assert {(m.id, m.message_id) for m in failed.moot if m.id == shock.id} == {(shock.id, 111)}
    assert all(m.channel_id == alice.channel_id for m in failed.moot)


async def test_a_decision_is_given_a_message_only_in_its_own_channel(services: Any, manager: Any, gm: Any,
                                                                    alice: Any) -> None:
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=True)
    hit = await _bjorn_hits(services, alice, SHOCK_BLOW)
    (shock,) = hit.pending
    await services.combat.set_decision_message(alice, [shock.id], 111)
    await services.combat.set_decision_message(replace(alice, channel_id=alice.channel_id + 1), [shock.id], 222)
    await services.combat.set_decision_message(replace(alice, guild_id=alice.guild_id + 1), [shock.id], 333)
    async with services.db.transaction() as session:
        stored = await session.get(PendingDecision, shock.id)
        assert stored is not None and stored.message_id == 111


async def test_undo_closes_the_decisions_an_action_asked_for_and_reopens_those_it_settled(
        services: Any, manager: Any, gm: Any, alice: Any) -> None:
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=True)
    kill_hit = await _bjorn_hits(services, alice, KILL_BLOW)
    kill, shock = kill_hit.pending
    await services.combat.set_decision_message(alice, [kill.id, shock.id], 333)
    failed = await services.combat.decide(gm, kill.id, "dice", "kill=2")
    (death,) = failed.pending
    assert [m.id for m in failed.moot] == [shock.id]

    # undoing the failed kill roll: the death decision it asked for closes, the kill roll and the shock roll it
    # made moot wait again (and can be made)
    undone = await services.records.undo(gm)
    assert [d.id for d in undone.closed] == [death.id]
    assert {(d.id, d.choice, d.message_id) for d in undone.reopened} == {(kill.id, None, 333), (shock.id, None, 333)}
    with pytest.raises(Conflict, match="taken back"):
        await services.combat.decide(gm, death.id, "death")
    rolled = await services.combat.pending_roll(gm, "Bandit 1", "shock", "0")
    assert rolled.decided is not None and rolled.decided.id == shock.id

    # undoing the shock roll opens it again; undoing the attack then closes both of its rolls
    assert [d.id for d in (await services.records.undo(gm)).reopened] == [shock.id]
    undone = await services.records.undo(gm)
    assert {d.id for d in undone.closed} == {kill.id, shock.id} and undone.reopened == ()
    with pytest.raises(UserError, match="owes no roll"):
        await services.combat.pending_roll(gm, "Bandit 1")


async def test_a_second_failed_kill_roll_supersedes_the_waiting_kill_decision(
        services: Any, manager: Any, gm: Any, alice: Any) -> None:
    """ars-harn keeps one kill decision on a sheet, naming the latest K wound (docs/rules/ars-harn.md, ruling 8):
    a second failed kill roll replaces it there, so the decision the new blow asks for is the one that stands and
    the one waiting before it is moot, not the other way round."""
    await bjorn_against_a_bandit(services, manager, gm, alice, gm_rolls=False)  # the bot rolls the kill rolls
    grave = (KILL_BLOW[0], KILL_BLOW[1] + " defender_kill=2")
    first = await _bjorn_hits(services, alice, grave)
    (old,) = first.pending
    again = await _bjorn_hits(services, alice, grave)
    (new,) = again.pending
    assert new.kind == "kill" and new.id != old.id
    assert [m.id for m in again.moot] == [old.id]
    with pytest.raises(Conflict):
        await services.combat.decide(gm, old.id, "death")
    decided = await services.combat.decide(gm, new.id, "death")
    assert decided.decided is not None and decided.decided.id == new.id
