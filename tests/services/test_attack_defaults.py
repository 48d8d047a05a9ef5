"""The rules' defaults, said out loud (issue 18 section 3): /attack's options in each system."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import Conflict, PermissionDenied, UserError
from bot.services.results import DefensePrompt
from bot.ui import action_embeds, defense_embeds
from rules.errors import RulesError
from tests.conftest import GM_ROLE


async def _fight(services: Any, manager: Any, alice: Any, gm: Any, system: str, sheet: dict[str, Any],
                 weapons: list[str], template: str) -> None:
    await services.setup.set_system(manager, system)
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Hero", sheet, weapons, [])
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Hero")
    await services.encounters.add_npcs(gm, template, 1)


PENDRAGON_BOWMAN = {"siz": 12, "dex": 14, "str": 11, "con": 12, "app": 10, "skills.bow": 14}


async def test_a_pendragon_bowman_shoots_unopposed_by_default(services: Any, manager: Any, alice: Any,
                                                               gm: Any) -> None:
    await _fight(services, manager, alice, gm, "pendragon", PENDRAGON_BOWMAN, ["bow"], "knight")
    report = await services.combat.attack(alice, "Knight 1", "bow", dice_text="attacker=9 damage=3,3,3")
    assert report.outcome.unopposed and report.outcome.unopposed_why == "missile"
    assert report.outcome.winner == "attacker"
    assert "could not fight back (a missile, unopposed at range)" in action_embeds.action(report).description


async def test_a_pendragon_bowman_in_reach_fights_an_exchange_when_asked(services: Any, manager: Any, alice: Any,
                                                                          gm: Any) -> None:
    await _fight(services, manager, alice, gm, "pendragon", PENDRAGON_BOWMAN, ["bow"], "knight")
    report = await services.combat.attack(alice, "Knight 1", "bow", {"unopposed": False},
                                          dice_text="attacker=9 defender=12 damage=3,3,3,3,3,3")
    assert report.outcome.defender_roll is not None and report.outcome.winner == "defender"


async def test_an_ars_harn_missile_takes_its_range_band(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _fight(services, manager, alice, gm, "ars-harn", {"str": 0, "sta": 0, "dex": 2, "qik": 1,
                                                            "abilities.Bow": 5}, ["Longbow"], "bandit")
    near = await services.combat.attack(alice, "Bandit 1", "Longbow", {"range": "short"},
                                        dice_text="attack=9 defense=2 location=50 defender_shock=9")
    far = await services.combat.attack(alice, "Bandit 1", "Longbow", {"range": "extreme"},
                                       dice_text="attack=9 defense=2 location=50 defender_shock=9")
    assert (near.outcome.range, far.outcome.range) == ("short", "extreme")
    def impact(report: Any) -> int:  # damage less the excess: the weapon's impact at that range, and Strength
        return int(report.outcome.to_dict()["damage_total"] - report.outcome.excess)

    assert impact(near) - impact(far) == 6 - 3  # the pack's Longbow: short 8 ... extreme 5
    with pytest.raises(RulesError, match="only for missile weapons"):
        await services.combat.attack(gm, "Hero", "Shortsword", {"range": "long"}, attacker="Bandit 1",
                                     dice_text="attack=9 defense=2 location=50")


async def test_a_fading_suns_knife_can_be_thrown(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _fight(services, manager, alice, gm, "fading-suns", {"dex": 6, "skills.melee": 5}, ["knife"], "thug")
    report = await services.combat.attack(alice, "Thug 1", "knife", {"throw": True}, dice_text="attack=3 location=12")
    assert report.outcome.mode == "missile"
    hero = await services.characters.get(alice, "Hero")
    assert hero.sheet["dropped"] == ["knife"]  # thrown: it left the hand


async def test_the_fading_suns_defender_side_chooses_the_defence(services: Any, manager: Any, alice: Any,
                                                                 gm: Any) -> None:
    await _fight(services, manager, alice, gm, "fading-suns", {"dex": 6, "skills.melee": 5}, ["broadsword"], "thug")
    await services.encounters.add_npcs(gm, "thug", 2)  # a fresh thug for each case
    # the attacker does not choose the target's defence
    with pytest.raises(UserError, match="Thug 1's defence is the GM's to choose"):
        await services.combat.attack(alice, "Thug 1", "broadsword", {"defense": "parry"},
                                     dice_text="attack=7 defense=19 location=12")
    # left out, the target still defends: a dodge, and the answer says where it came from
    report = await services.combat.attack(alice, "Thug 1", "broadsword", dice_text="attack=7 defense=2 location=12")
    assert report.outcome.defense.kind == "dodge" and report.outcome.defense_from == "ruling"
    assert "no defence named: a dodge" in str(action_embeds.report_details(report).to_dict())
    # the GM's word for an NPC
    report = await services.combat.attack(gm, "Thug 2", "broadsword", {"defense": "dodge"}, attacker="Hero",
                                          dice_text="attack=7 defense=2 location=12")
    assert report.outcome.defense_from == "attack" and report.outcome.defense.kind == "dodge"
    # the sheet's own choice
    await services.characters.edit_stat(gm, "Thug 3", "defense", "none")
    report = await services.combat.attack(alice, "Thug 3", "broadsword", dice_text="attack=7 location=12")
    assert report.outcome.defense is None and report.outcome.no_defense == "none_chosen"


async def test_a_fading_suns_players_character_is_asked_its_defence(services: Any, manager: Any, alice: Any,
                                                                     gm: Any, bob: Any) -> None:
    """Issue 18: "The defender's side chooses: a default on the sheet, or the GM for an NPC, or a prompt to the
    defender's player." The GM's thug attacks Alice's hero, whose sheet names no defence: the attack waits for
    her choice (or the GM's); nobody else may answer; a second answer is one line; no answer in time makes it
    with the ruling, and says so."""
    await _fight(services, manager, alice, gm, "fading-suns", {"dex": 6, "skills.melee": 5, "skills.dodge": 4},
                 ["broadsword"], "thug")
    asked = await services.combat.attack(gm, "Hero", "knife", attacker="Thug 1", dice_text="attack=3 location=12")
    assert isinstance(asked, DefensePrompt)
    assert (asked.target, asked.owner_id, asked.choices, asked.fallback) == (
        "Hero", alice.user_id, ("dodge", "parry", "none"), "dodge")
    assert f"<@{alice.user_id}>, how does Hero defend?" in defense_embeds.defense_prompt(asked)
    with pytest.raises(PermissionDenied, match="only its owner or the GM can choose their defence"):
        await services.combat.answer_defense(bob, asked.event_id, "none")
    _, report = await services.combat.answer_defense(alice, asked.event_id, "parry")
    assert report.outcome.defense_from == "attack" and report.outcome.defense.kind == "parry"
    assert report.defense_asked is not None and report.defense_asked.by == "player"
    assert "Hero's player chose a parry." in action_embeds.action(report).description
    assert report.actor_name == "Thug 1" and report.target_name == "Hero"
    with pytest.raises(Conflict, match="already made"):
        await services.combat.answer_defense(gm, asked.event_id, "dodge")

    # each case on a fresh character of hers (a wound may leave one stunned: then there is no defence to ask)
    for name in ("Hero B", "Hero C", "Hero D", "Hero E", "Hero F"):
        await services.characters.create(alice, name, {"dex": 6, "skills.dodge": 4}, ["broadsword"], [])
        await services.encounters.add(alice, name)
    # no defence at all is a choice too, and the GM may make it for her
    asked = await services.combat.attack(gm, "Hero B", "knife", attacker="Thug 1", dice_text="attack=3 location=12")
    _, report = await services.combat.answer_defense(gm, asked.event_id, "none")
    assert report.outcome.defense is None and report.outcome.no_defense == "none_chosen"
    assert "The GM chose no defence." in action_embeds.action(report).description

    # no answer in time: the ruling's dodge, said
    asked = await services.combat.attack(gm, "Hero C", "knife", attacker="Thug 1", dice_text="attack=3 location=12")
    _, report = await services.combat.answer_defense(gm, asked.event_id, None)
    assert report.outcome.defense_from == "ruling" and report.outcome.defense.kind == "dodge"
    assert "No answer for Hero C in a minute: a dodge, the table's rule" in action_embeds.action(report).description

    # not asked: a defence the GM names, the dice of a defence rolled at the table, a sheet's default, the ruling off
    named = await services.combat.attack(gm, "Hero D", "knife", {"defense": "dodge"}, attacker="Thug 1",
                                         dice_text="attack=19")
    typed = await services.combat.attack(gm, "Hero D", "knife", attacker="Thug 1", dice_text="attack=19 defense=19")
    missed = await services.combat.attack(gm, "Hero D", "knife", attacker="Thug 1", dice_text="attack=18")
    assert not any(isinstance(r, DefensePrompt) for r in (named, typed, missed))  # 18: a miss, nothing to defend
    await services.characters.edit_stat(alice, "Hero E", "defense", "dodge")
    sheet = await services.combat.attack(gm, "Hero E", "knife", attacker="Thug 1", dice_text="attack=3 location=12")
    assert not isinstance(sheet, DefensePrompt) and sheet.outcome.defense_from == "sheet"
    # an attack the engine refuses (a stunned attacker) says so at once, not after asking her
    await services.characters.set_condition(gm, "Thug 1", "stunned", True)
    with pytest.raises(RulesError, match="stunned"):
        await services.combat.attack(gm, "Hero F", "knife", attacker="Thug 1", dice_text="location=12")
    await services.characters.set_condition(gm, "Thug 1", "stunned", False)
    await services.setup.set_ruling(manager, "ask_defense", "false")
    off = await services.combat.attack(gm, "Hero F", "knife", attacker="Thug 1", dice_text="attack=3 location=12")
    assert not isinstance(off, DefensePrompt) and off.outcome.defense_from == "ruling"


# What a cog passes: every option of /attack (and /odds) as Discord gave it, None for each one left out.
LEFT_OUT = dict.fromkeys(("aspect", "aim", "location", "modifier", "save_excess", "mounted", "charge", "defense",
                          "unopposed", "range", "throw"))


async def test_an_option_left_out_is_one_not_given(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    """The cogs hand the options over as given, None for those left out; the service alone drops them, so an
    attack with every option left out is the bare attack, and /odds with no spell named is an attack's odds."""
    await _fight(services, manager, alice, gm, "ars-harn", {"str": 0, "sta": 0, "dex": 2, "qik": 1,
                                                            "abilities.Bow": 5}, ["Longbow"], "bandit")
    dice = "attack=9 defense=2 location=50 defender_shock=9"
    bare = await services.combat.attack(alice, "Bandit 1", "Longbow", {}, dice_text=dice)
    await services.records.undo(gm)
    left_out = await services.combat.attack(alice, "Bandit 1", "Longbow", LEFT_OUT, dice_text=dice)
    assert left_out.outcome == bare.outcome
    assert left_out.outcome.range == "short"  # the default band, not a None one
    odds = await services.odds.odds(alice, "Bandit 1", "Longbow", {**LEFT_OUT, "spell": None, "damage": None,
                                                                   "kind": None, "body_levels": None})
    assert [d.action["type"] for d in odds.declarations] == ["attack"]
    assert None not in odds.declarations[0].action.values()
