"""Turns go to those who can act, in the rules' order (issue 18 section 2), on the real engines."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import UserError
from bot.ui import encounter_embeds
from tests.conftest import GM_ROLE

WULF = {"str": 1, "sta": 1, "dex": 1, "qik": 3, "abilities.Sword": 5}


async def _ars_harn(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Wulf", WULF, ["Broadsword"], [])
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Wulf")
    await services.encounters.add_npcs(gm, "archer", 2)


async def test_ars_harn_orders_by_the_initiative_total_not_the_raw_die(services: Any, manager: Any, alice: Any,
                                                                        gm: Any) -> None:
    await _ars_harn(services, manager, alice, gm)
    view = await services.encounters.roll_initiative(gm, "Wulf=7; Archer 1=9; Archer 2=8")
    by_name = {c.name: c.initiative for c in view.combatants}
    shown = await services.characters.get(alice, "Wulf")
    assert by_name["Wulf"] == shown.sheet["initiative"]  # the tracker shows what /character show says
    assert by_name["Wulf"] != 7  # the total, not the die
    assert [c.name for c in view.combatants] == sorted(by_name, key=lambda n: -by_name[n])
    assert [(r.name, r.faces, r.typed) for r in view.initiative_rolls] == [
        ("Wulf", (7,), True), ("Archer 1", (9,), True), ("Archer 2", (8,), True)]


async def test_typed_faces_say_whose_they_are_and_a_stress_one_takes_its_reroll(services: Any, manager: Any,
                                                                                 alice: Any, gm: Any) -> None:
    await _ars_harn(services, manager, alice, gm)
    view = await services.encounters.roll_initiative(gm, "wulf=1,4 Archer 2=5")
    rolls = {r.name: r for r in view.initiative_rolls}
    assert rolls["Wulf"].faces == (1, 4) and rolls["Wulf"].typed
    assert rolls["Archer 2"].faces == (5,) and rolls["Archer 2"].typed
    assert not rolls["Archer 1"].typed  # not named: rolled, and the reply says so
    embed = encounter_embeds.initiative(view).to_dict()
    faces = next(f["value"] for f in embed["fields"] if f["name"] == "Faces")
    assert "Wulf: typed 1,4" in faces and "Archer 1: rolled" in faces


@pytest.mark.parametrize(("dice", "message"), [
    ("initiative=2,3,1", "ran out at Archer 2"),  # a stress 1 needs its re-roll: nothing rolled in its place
    ("initiative=2,3,9,5", "left over"),
    ("Wulf=1", "Wulf's faces \\[1\\] ran out"),
    ("Wulf=5,5", "left over"),
    ("Gandalf=5", "'Gandalf' is not in the fight \\(combatants: Wulf, Archer 1, Archer 2\\)"),
    ("Wulf=5 initiative=3", "not both"),
])
async def test_typed_faces_that_do_not_fit_are_one_line_and_change_nothing(
        services: Any, manager: Any, alice: Any, gm: Any, dice: str, message: str) -> None:
    await _ars_harn(services, manager, alice, gm)
    before = await services.encounters.status(gm)
    with pytest.raises(UserError, match=message):
        await services.encounters.roll_initiative(gm, dice)
    after = await services.encounters.status(gm)
    assert [(c.name, c.initiative) for c in after.combatants] == [(c.name, c.initiative) for c in before.combatants]
    assert (await services.characters.get(alice, "Wulf")).sheet.get("initiative") is None


async def test_the_dead_are_skipped_one_line_each(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _ars_harn(services, manager, alice, gm)
    await services.encounters.roll_initiative(gm, "Wulf=9; Archer 1=5; Archer 2=4")
    await services.combat.act(gm, "condition", "Archer 1", {"add": "dead"})
    view = await services.encounters.next_turn(alice)
    assert [(s.name, s.words) for s in view.skipped] == [("Archer 1", "is dead")]
    assert view.current.name == "Archer 2"
    line = encounter_embeds.next_turn(view)
    assert line.splitlines() == ["**Archer 1** is dead: skipped.", "Round 1: **Archer 2**'s turn."]
    tracker = encounter_embeds.tracker(view).to_dict()["description"]
    assert "\u23ed\ufe0f **2. Archer 1** (3) \u00b7 dead" in tracker  # one short line (issue 34, N5)
    assert "cannot act" not in tracker
    view = await services.encounters.next_turn(gm)
    assert (view.round, view.current.name, view.skipped) == (2, "Wulf", ())


async def test_a_fight_where_nobody_can_act_says_so(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _ars_harn(services, manager, alice, gm)
    for name in ("Archer 1", "Archer 2"):
        await services.combat.act(gm, "condition", name, {"add": "unconscious"})
    await services.combat.act(gm, "condition", "Wulf", {"add": "incapacitated"})
    view = await services.encounters.next_turn(gm)
    assert view.stalled and len(view.skipped) == 3
    assert "nobody in the encounter can act" in encounter_embeds.next_turn(view)


async def test_fading_suns_stun_costs_the_next_turn_and_then_ends(services: Any, manager: Any, alice: Any,
                                                                 gm: Any) -> None:
    await services.setup.set_system(manager, "fading-suns")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Erian", {"dex": 6, "wits": 5, "skills.melee": 5}, ["broadsword"], [])
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Erian")
    await services.encounters.add_npcs(gm, "soldier", 1)
    stunned = await services.characters.get(gm, "Hazat Soldier 1")
    await _stun(services, gm, "Hazat Soldier 1", stunned.sheet)
    view = await services.encounters.next_turn(alice)  # Erian's turn ends; the soldier's is lost to the stun
    assert [(s.name, s.recovered) for s in view.skipped] == [("Hazat Soldier 1", True)]
    assert (view.round, view.current.name) == (2, "Erian")
    assert "stunned" not in (await services.characters.get(gm, "Hazat Soldier 1")).sheet.get("conditions", [])
    tracker = encounter_embeds.tracker(view).to_dict()["description"]
    assert "turn skipped" not in tracker
    # one clause each, no colon too many (issue 18: "is stunned: loses this turn, then the stun ends: skipped.")
    assert "**Hazat Soldier 1** is stunned: loses this turn, then recovers." in encounter_embeds.next_turn(view)
    view = await services.encounters.next_turn(alice)
    assert (view.current.name, view.skipped) == ("Hazat Soldier 1", ())  # recovered: the soldier fights on
    await services.records.undo(gm)
    undone = await services.records.undo(gm)  # the skipped turn: the stun comes back with it
    assert undone.kind == "next_turn"
    assert "stunned" in (await services.characters.get(gm, "Hazat Soldier 1")).sheet["conditions"]
    view = await services.encounters.status(gm)
    assert view.current.name == "Erian" and view.combatants[1].readiness.ends_when_skipped


async def _stun(services: Any, gm: Any, name: str, sheet: dict[str, Any]) -> None:
    await services.characters.import_sheet(gm, f"{name}.json", _json({**sheet, "conditions": ["stunned"]}),
                                           replace=True)


def _json(sheet: dict[str, Any]) -> bytes:
    import json

    return json.dumps(sheet).encode()


async def _pendragon(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await services.setup.set_system(manager, "pendragon")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Sir Cador", {"siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11,
                                                          "skills.sword": 16}, ["sword"], [])
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Sir Cador")
    await services.encounters.add_npcs(gm, "bandit", 2)


async def test_the_gm_sets_and_changes_the_order_in_pendragon_and_the_turn_stays_put(
        services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _pendragon(services, manager, alice, gm)
    await services.encounters.next_turn(alice)  # Sir Cador's turn is over: the round has begun
    view = await services.encounters.set_order(gm, names="Bandit 2, bandit 1")
    assert [c.name for c in view.combatants] == ["Bandit 2", "Bandit 1", "Sir Cador"]
    assert view.current.name == "Bandit 1"  # whose turn it was keeps it
    assert encounter_embeds.order_changed(view) == ("Turn order changed (**Bandit 2**, **Bandit 1** moved): "
                                                    "1. Bandit 2, 2. Bandit 1, 3. Sir Cador. It is still "
                                                    "**Bandit 1**'s turn.")
    view = await services.encounters.set_order(gm, "Sir Cador", position=1)
    assert [c.name for c in view.combatants] == ["Sir Cador", "Bandit 2", "Bandit 1"]
    view = await services.encounters.set_order(gm, "Bandit 1", before="Bandit 2")
    assert [c.name for c in view.combatants] == ["Sir Cador", "Bandit 1", "Bandit 2"]
    view = await services.encounters.set_order(gm, "Sir Cador", after="Bandit 2")
    assert [c.name for c in view.combatants] == ["Bandit 1", "Bandit 2", "Sir Cador"]
    assert view.current.name == "Bandit 1"
    tracker = encounter_embeds.tracker(view).to_dict()["description"]
    assert tracker.index("Bandit 1") < tracker.index("Bandit 2") < tracker.index("Sir Cador")
    await services.records.undo(gm)
    assert [c.name for c in (await services.encounters.status(gm)).combatants] == ["Sir Cador", "Bandit 1",
                                                                                   "Bandit 2"]


async def test_a_reorder_before_the_rounds_first_action_starts_the_round_at_the_new_first(
        services: Any, manager: Any, alice: Any, gm: Any) -> None:
    """Issue 34, N3: the knights moved to the top do not lose round 1 to whoever was first before."""
    await _pendragon(services, manager, alice, gm)
    await services.setup.set_turns(manager, "enforce")
    view = await services.encounters.set_order(gm, names="Bandit 1, Bandit 2")
    assert view.current.name == "Bandit 1" and view.round_restarted
    assert encounter_embeds.order_changed(view).endswith("Nobody had acted yet: the round starts with **Bandit 1**.")
    view = await services.encounters.set_order(gm, "Sir Cador", position=1)
    assert view.current.name == "Sir Cador"
    await services.combat.attack(alice, "Bandit 1", "sword", dice_text="attacker=14 defender=15")
    view = await services.encounters.set_order(gm, "Sir Cador", position=3)  # he has acted: his turn stays
    assert view.current.name == "Sir Cador" and not view.round_restarted


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"names": "Gawain, Bandit 1"}, "'Gawain' is not in this encounter \\(in it: Sir Cador, Bandit 1, Bandit 2\\)"),
    ({"names": " , ;"}, "names lists nobody"),
    ({"names": "Bandit 1, bandit 1"}, "named twice"),
    ({"character": "Bandit 1", "position": 9}, "position is 1 to 3"),
    ({"character": "Bandit 1"}, "one of position, before or after"),
    ({"character": "Bandit 1", "after": "Bandit 1"}, "next to themself"),
    ({"character": "Bandit 1", "after": "Morgan"}, "'Morgan' is not in this encounter"),
    ({"character": "Bandit 1", "position": 1, "names": "Bandit 2"}, "not both|or one character"),
])
async def test_an_order_naming_nobody_is_one_line_and_changes_nothing(
        services: Any, manager: Any, alice: Any, gm: Any, kwargs: dict[str, Any], message: str) -> None:
    await _pendragon(services, manager, alice, gm)
    kwargs = dict(kwargs)  # the parameters are shared by both backends' runs
    character = kwargs.pop("character", None)
    with pytest.raises(UserError, match=message):
        await services.encounters.set_order(gm, character, **kwargs)
    assert [c.name for c in (await services.encounters.status(gm)).combatants] == ["Sir Cador", "Bandit 1",
                                                                                   "Bandit 2"]


async def test_only_the_gm_changes_the_order(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _pendragon(services, manager, alice, gm)
    with pytest.raises(UserError, match="change the turn order"):
        await services.encounters.set_order(alice, "Sir Cador", position=3)


async def test_a_delayed_turn_comes_after_the_one_it_waits_for_and_keeps_that_place(
        services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _pendragon(services, manager, alice, gm)
    view = await services.encounters.delay(alice, after="Bandit 1")
    assert [c.name for c in view.combatants] == ["Bandit 1", "Sir Cador", "Bandit 2"]
    assert (view.round, view.current.name) == (1, "Bandit 1")
    assert encounter_embeds.delayed(view).splitlines() == [
        "**Sir Cador** holds the turn and will act after **Bandit 1**.", "Round 1: **Bandit 1**'s turn."]
    view = await services.encounters.next_turn(gm)
    assert view.current.name == "Sir Cador"
    with pytest.raises(UserError, match="can wait only for someone still to act this round \\(Bandit 2\\)"):
        await services.encounters.delay(alice, after="Bandit 1")
    view = await services.encounters.delay(alice)  # to the end of the round
    assert [c.name for c in view.combatants] == ["Bandit 1", "Bandit 2", "Sir Cador"]
    assert view.current.name == "Bandit 2"
    with pytest.raises(UserError, match="delay their turn"):
        await services.encounters.delay(alice)  # Bandit 2's turn: not Alice's to hold


async def test_a_delay_passes_over_those_who_cannot_act(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    await _ars_harn(services, manager, alice, gm)
    await services.combat.act(gm, "condition", "Archer 1", {"add": "dead"})
    view = await services.encounters.delay(alice)
    assert [(s.name, s.words) for s in view.skipped] == [("Archer 1", "is dead")]
    assert view.current.name == "Archer 2"
    assert [c.name for c in view.combatants] == ["Archer 1", "Archer 2", "Wulf"]


async def _owain_and_a_bandit(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    """Pendragon: Alice's Sir Owain and one bandit in an encounter."""
    await services.setup.set_system(manager, "pendragon")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Sir Owain", {"siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11,
                                                          "skills.sword": 16}, ["sword"], ["chainmail", "shield"])
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Sir Owain")
    await services.encounters.add_npcs(gm, "bandit", 1)


async def test_a_way_out_that_takes_the_round_spends_it(services: Any, manager: Any, alice: Any, gm: Any) -> None:
    """Issue 18: standing and readying in the same round were stated ("it takes the round") but not counted.
    Standing up spends Sir Owain's round: an attack after it in that round is refused where turns are enforced,
    said where they warn; the next round is his again; /undo of the stand gives the round back."""
    from bot.ui import action_embeds

    await _owain_and_a_bandit(services, manager, alice, gm)
    await services.characters.set_condition(gm, "Sir Owain", "prone", True)
    await services.setup.set_turns(manager, "enforce")
    stood = await services.combat.recover(alice, "Sir Owain", condition="prone")
    assert stood.spent_before is None
    with pytest.raises(UserError, match=r"Sir Owain has spent this round's action already \(recovering \(prone\)\)"):
        await services.combat.attack(alice, "Bandit 1", "sword", dice_text="attacker=14 defender=15")
    await services.setup.set_turns(manager, "warn")
    late = await services.combat.attack(alice, "Bandit 1", "sword", dice_text="attacker=19 defender=18")
    assert late.spent_before == "recover:prone"
    said = action_embeds.action(late).description
    assert "Sir Owain had spent this round's action already (recovering (prone))." in said
    await services.records.undo(gm)  # the late attack
    await services.records.undo(gm)  # the stand: the round is his again
    again = await services.combat.attack(alice, "Bandit 1", "sword", dice_text="attacker=19 defender=18")
    assert again.spent_before is None
    await services.encounters.next_turn(alice)
    await services.encounters.next_turn(gm)  # round 2
    fresh = await services.combat.attack(alice, "Bandit 1", "sword", dice_text="attacker=19 defender=18")
    assert fresh.spent_before is None


async def test_a_warned_action_out_of_turn_says_whose_turn_it_was(services: Any, manager: Any, alice: Any,
                                                                   gm: Any) -> None:
    """On a server that only warns, an action taken out of turn says whose turn it was, whichever command took
    it (the report comes whole from the action, not patched by each command)."""
    await _owain_and_a_bandit(services, manager, alice, gm)
    await services.setup.set_turns(manager, "warn")
    await services.encounters.next_turn(alice)  # the bandit's turn now
    await services.characters.set_condition(gm, "Sir Owain", "prone", True)
    stood = await services.combat.recover(alice, "Sir Owain", condition="prone")
    assert (stood.out_of_turn, stood.way_out is not None) == ("Bandit 1", True)
    struck = await services.combat.attack(alice, "Bandit 1", "sword", dice_text="attacker=19 defender=18")
    assert struck.out_of_turn == "Bandit 1"
    npc = await services.combat.attack(gm, "Sir Owain", None, dice_text="attacker=3 defender=18")
    assert npc.out_of_turn is None  # the GM, whose turn order it is, is never warned
