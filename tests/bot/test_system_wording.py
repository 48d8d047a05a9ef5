"""Embeds built from what the three engines really return (the content/examples scenarios, run through
bot.scenario_runner.resolve_text): every outcome field a player needs reads as words, none leaks raw."""

from __future__ import annotations

from importlib import resources
from typing import Any

import discord
import yaml

from bot.scenario_runner import resolve_text
from bot.services.event_records import StoredRoll, read_event
from bot.services.results import ActionReport, CharacterView, EventView, PartyView, PendingDecisionView
from bot.ui import action_embeds, character_embeds, decision_embeds, record_embeds
from bot.ui.outcomes import Severity, roll_line
from content import load_catalog
from rules.model import SheetSummary, Wound
from rules.registry import get_engine
from tests.bot.action_report_support import resolved_report


def _example(name: str) -> dict[str, Any]:
    return yaml.safe_load((resources.files("content") / "examples" / name).read_text(encoding="utf-8"))


def _resolve(doc: dict[str, Any]) -> dict[str, Any]:
    return resolve_text(yaml.safe_dump(doc), "test")


def _report(resolution: dict[str, Any], system: str, actor: str, target: str | None, action: str = "attack",
            decided: PendingDecisionView | None = None, pending: tuple[PendingDecisionView, ...] = ()) -> ActionReport:
    return resolved_report({**resolution, "system": system}, action, actor, target, pending=pending, event_id=3,
                           decided=decided)


def _text(embed: discord.Embed) -> str:
    return "\n".join([embed.title or "", embed.description or ""]
                     + [f"{f.name}: {f.value}" for f in embed.fields])


def _scenario(name: str, action: str = "attack") -> tuple[str, ActionReport]:
    doc = _example(name)
    report = _report(_resolve(doc), doc["system"], doc["attacker"]["name"], doc.get("defender", {}).get("name"),
                     action)
    # what a player can read: the public message and, behind its Details button, the rest
    return _text(action_embeds.action(report)) + "\n" + _text(action_embeds.report_details(report)), report


def _line(roll: dict[str, object]) -> str:
    return roll_line(StoredRoll.from_dict(roll))


def test_pendragon_major_wound_knockdown_and_effects_are_words() -> None:
    text, _ = _scenario("pendragon-sword-against-axe.yaml")
    assert "**Sir Bors** wins the exchange: Wulfhere takes **18** damage." in text
    assert "Sir Bors (sword): 14 vs 16: **success**" in text and "Wulfhere (axe): 9 vs 13: **success**" in text
    assert "Wulfhere is **knocked down**" in text
    assert "Wulfhere suffers a **major wound** and needs chirurgery" in text
    assert "Wulfhere stays conscious (7 vs 9, success)" in text
    assert "Wulfhere fights on (Valorous 4 vs 13, success)" in text
    assert "loses a point of **STR**" in text
    assert "Details" not in text and "Hit points after" not in text and "Conscious roll" not in text


def test_pendragon_tie_names_the_broken_weapon_and_the_lance_charge_its_modifiers() -> None:
    text, _ = _scenario("pendragon-tie-sword-breaks-spear.yaml")
    assert text.count("**Tie**") == 2 and "'s spear breaks: they must re-arm (/ready)" in text
    assert "Weapons lost" not in text
    text, report = _scenario("pendragon-lance-charge.yaml")
    assert "(mounted +5, charge +5)" in text and "horse damage" in text
    assert "falls **unconscious**" in text
    assert action_embeds.action(report).colour == discord.Colour(Severity.GRIEVOUS.colour)


def test_fading_suns_attack_fields_are_the_engines() -> None:
    text, _ = _scenario("fading-suns-broadsword-vs-jerkin.yaml")
    assert "**Hit** on Thug's **chest**: a **major** wound." in text
    assert "7 vs goal 11: **success**, 2 VP (dex 6, melee 5)" in text
    assert "6 + 2 VP = 8 \u2212 armour 4 (leather jerkin) = **4** slash" in text
    assert "STUN roll (2 \u00d7 END): 15 vs 8: **failure** \u2192 stun" in text
    assert "Thug is **stunned**" in text and "Wound penalties: Thug: goal \u22124, initiative \u22121" in text
    assert "Details" not in text
    text, _ = _scenario("fading-suns-crippling-axe.yaml")
    assert "a **crippled** wound" in text and "right leg" in text and "no effect" in text
    assert "Condition: Urth Hound: prone" in text
    text, _ = _scenario("fading-suns-dodged-blaster.yaml")
    assert "dueling shield 10 (14 hits left)" in text and "Decados Duellist dodges: 9 vs goal 13" in text
    assert "nothing gets through" in text


def test_fading_suns_healing_and_death_decision() -> None:
    doc = _example("fading-suns-physician.yaml")
    heal = _report(_resolve(doc), "fading-suns", doc["attacker"]["name"], doc["defender"]["name"], "heal")
    text = _text(action_embeds.action(heal))
    assert text.startswith("Sister Miriam treats Patient")
    assert "treats Patient's crippled wound `2` with Physick: **success**" in text
    assert "2 days of healing credited" in text
    doc = _example("fading-suns-gm-rolls-the-effect.yaml")
    rolled = _resolve(doc)
    decided = _resolve({"system": "fading-suns", "attacker": rolled["attacker"],
                        "action": {"type": "gm_decide", "choice": "unconscious"}})
    decision = PendingDecisionView(id=1, kind="death", who="Sir Hakon", options=("death", "unconscious"),
                                   choice="unconscious", decided_by=42)
    report = _report(decided, "fading-suns", "Sir Hakon", None, "gm_decide", decided=decision)
    text = _text(action_embeds.action(report))
    assert "**Sir Hakon** survives, **unconscious**." in text
    assert "Chosen by <@42>." in text and "The GM chose" not in text
    assert " acts" not in text and "Details" not in text and "Who" not in text


def test_a_gm_decision_says_itself_once_in_the_message_it_posts() -> None:
    """Before (issue 22 §4): 'Bandit 1 lives, but is incapacitated.' / 'The GM chose incapacitation for Bandit 1
    (@gm).' / 'Condition: Bandit 1: incapacitated': the condition said a third time; the choice was still named
    twice until its second line said only who chose."""
    decided = {"system": "ars-harn", "rolls": [], "outcome": {"action": "gm_decide", "decision": "incapacitation",
                                                              "conditions": ["incapacitated"]}}
    decision = PendingDecisionView(id=1, kind="kill", who="Bandit 1", options=("death", "incapacitation"),
                                   choice="incapacitation", decided_by=42)
    report = _report(decided, "ars-harn", "Bandit 1", None, "gm_decide", decided=decision)
    assert (action_embeds.action(report).description or "").splitlines() == [
        "**Bandit 1** lives, but is **incapacitated**.", "Chosen by <@42>."]


def _decided_lines(system: str, outcome: dict[str, Any], kind: str, choice: str, who: str) -> list[str]:
    decision = PendingDecisionView(id=1, kind=kind, who=who, options=(choice,), choice=choice, decided_by=42)
    report = _report({"system": system, "rolls": [], "outcome": {"action": "gm_decide", **outcome}}, system, who,
                     None, "gm_decide", decided=decision)
    return (action_embeds.action(report).description or "").splitlines()


def test_a_gm_decision_says_only_what_its_sentence_does_not() -> None:
    """Issue 34 (the reader's 4 and 10): 'Thug 1 survives, unconscious.' was followed by 'Condition: Thug 1:
    prone, unconscious', 'Bandit 1 dies.' by 'Condition: Bandit 1: dead', 'survives, at 1 hit point' by 'Hit
    points: Bandit 1: 1'; a choice no profile words read 'The GM chose **damage** for Sir Gawain.' above
    'Chosen by'."""
    assert _decided_lines("fading-suns", {"decision": "death", "choice": "unconscious",
                                          "conditions": ["prone", "unconscious"]}, "death", "unconscious",
                          "Thug 1") == ["**Thug 1** survives, **unconscious**.", "Chosen by <@42>.",
                                        "Thug 1 is also prone."]
    assert _decided_lines("ars-harn", {"decision": "death", "conditions": ["dead"]}, "kill", "death",
                          "Bandit 1") == ["**Bandit 1** dies.", "Chosen by <@42>."]
    assert _decided_lines("pendragon", {"kind": "dying", "decision": "survival", "hit_points": 1}, "dying",
                          "survival", "Bandit 1") == ["**Bandit 1** survives, at 1 hit point.", "Chosen by <@42>."]
    assert _decided_lines("pendragon", {"kind": "dying", "decision": "death", "hit_points": -7}, "dying",
                          "death", "Bandit 1") == ["**Bandit 1** dies.", "Chosen by <@42>.",
                                               "Hit points: Bandit 1: \u22127"]
    # every choice the engines offer is worded by its profile; one that is not still reads once
    assert _decided_lines("pendragon", {"kind": "fall_damage", "decision": "damage", "amount": 3, "hit_points": 9},
                          "fall_damage", "damage", "Sir Gawain")[:2] == [
        "**Sir Gawain** takes damage from the fall.", "Chosen by <@42>."]
    from bot.ui.outcomes import decision_words
    assert decision_words("omen", "sunrise", "Sir Gawain") == "**Sir Gawain**: sunrise."


def test_ars_harn_gm_decision_reads_as_the_ruling_and_the_original_embed_shows_it() -> None:
    rolled = _resolve(_example("ars-harn-kill-decision.yaml"))
    waiting = PendingDecisionView(id=5, kind="kill", who="Thief", options=("death", "incapacitation"))
    original = action_embeds.action(_report(rolled, "ars-harn", "Guard", "Thief", pending=(waiting,)))
    assert "\u23f3 Waiting for the GM" in _text(original)
    decided = _resolve({"system": "ars-harn", "attacker": rolled["defender"],
                        "action": {"type": "gm_decide", "decision": "death"}})
    decision = PendingDecisionView(id=5, kind="kill", who="Thief", options=waiting.options, choice="death",
                                   decided_by=42)
    text = _text(action_embeds.action(_report(decided, "ars-harn", "Thief", None, "gm_decide", decided=decision)))
    assert text.startswith("\u2696\ufe0f The GM decides for Thief\n**Thief** dies.")
    assert "Name:" not in text and "Who:" not in text and " acts" not in text
    marked = _text(decision_embeds.mark_decided(original.copy(), decision))
    assert "\u23f3 Waiting for the GM" not in marked
    # the decision is said once, in the new message (issue 22 §4, issue 34 N14): the edit only stops waiting
    assert "GM decided" not in marked and "death" not in marked and "**Thief** dies." not in marked


def test_ars_harn_chirurgy_names_healer_result_and_healing_rate() -> None:
    text, _ = _scenario("ars-harn-chirurgy.yaml", action="heal")
    assert text.startswith("Brother Anselm treats Hrolf")
    assert "with chirurgy: **critical success**" in text and "Bleeding: stopped" in text
    assert "Heals: a healing roll every 5 days of rest, +5 for the treatment" in text


def test_pendragon_wounds_list_hit_points_not_levels_and_conditions_lose_underscores() -> None:
    summary = SheetSummary("Bandit", (), (), (Wound(1, "body", "major", "major", levels=15),
                                              Wound(2, "body", "wound", "minor", levels=1, note="first aid")),
                           "out_of_fight, prone")
    view = CharacterView(id=1, name="Bandit", system="pendragon", owner_id=1, npc=True, sheet={}, summary=summary,
                         version=1)
    text = _text(character_embeds.injuries(view))
    assert "`#1` **major wound**, 15 hit points" in text and "`#2` **wound**, 1 hit point, first aid" in text
    assert "body" not in text and "out of fight, prone" in text
    fading = Wound(1, "Chest", "MAJ", "major", penalty=-4)
    assert character_embeds.wound_line(fading, "fading-suns") == "`1` Chest: **major**, penalty \u22124"


def test_pendragon_party_injuries_say_the_wounds_not_a_hit_location() -> None:
    """Before: '/injuries party:true' read 'Sir Owain · major body' (Pendragon has no hit locations)."""
    sheet = {"name": "Sir Owain", "siz": 14, "dex": 12, "str": 13, "con": 14, "app": 11, "skills": {"sword": 16},
             "weapons": ["great_axe"], "armour": ["chainmail"],
             "wounds": [{"amount": 16, "major": True}, {"amount": 30, "mortal": True}, {"amount": 3}]}
    summary = get_engine("pendragon").summarize(sheet, load_catalog("pendragon"))
    owain = CharacterView(id=1, name="Sir Owain", system="pendragon", owner_id=1, npc=False, version=1,
                          sheet=sheet, summary=summary)
    line = (character_embeds.party_injuries(PartyView("encounter", (owain,)), 1).description or "").splitlines()[0]
    assert line == ("**Sir Owain** \u00b7 major wound (16 hit points), mortal wound (30 hit points), "
                    "wound (3 hit points)")
    assert "`#2` **mortal wound**, 30 hit points" in _text(character_embeds.character(owain))
    assert ("great axe", "-") in summary.equipment and all(w.location == "" for w in summary.wounds)


def test_log_lines_for_encounter_events_and_healing_read_as_sentences() -> None:
    def event(kind: str, summary: dict[str, Any]) -> str:
        return record_embeds.event_line(EventView(id=1, kind=kind, channel_id=1, encounter_id=1, user_id=1,
                                           user_name="Gemma", record=read_event(kind, summary)))

    assert "Gemma: Bjorn joined the encounter" in event("join", {"names": ["Bjorn"]})
    assert "Gemma ends the turn (round 2)" in event("next_turn", {"round": 2, "turn": 0})
    first_aid = event("first_aid", {"system": "pendragon", "actor": "Bandit", "target": "Sir Owain",
                                    "action": {"type": "first_aid"},
                                    "outcome": {"action": "first_aid", "roll": {"face": 5, "total": 5, "target": 12,
                                                                                "result": "success"}, "healed": 2}})
    # said once (issue 34): not 'Bandit gets first aid from Sir Owain: First aid for **Bandit** by Sir Owain'
    assert first_aid.endswith(" First aid for **Bandit** by Sir Owain: success, heals **2** hit points.")
    assert "gets first aid" not in first_aid
    decided = event("gm_decide", {"system": "ars-harn", "actor": "Thief", "action": {"type": "gm_decide"},
                                  "outcome": {"action": "gm_decide", "decision": "death", "who": "attacker"}})
    assert "The GM decides: **Thief** dies." in decided


def test_a_lance_break_on_both_sides_names_both_knights() -> None:
    doc = _example("pendragon-lance-charge.yaml")
    resolution = _resolve(doc)
    names = (doc["attacker"]["name"], doc["defender"]["name"])
    for broken, shown in (("both", f"{names[0]}'s and {names[1]}'s lances break"),
                          ("defender", f"{names[1]}'s lance breaks"), ("attacker", f"{names[0]}'s lance breaks")):
        resolution["outcome"]["lance_broken"] = broken
        made = _report(resolution, "pendragon", *names)
        text = _text(action_embeds.action(made)) + "\n" + _text(action_embeds.report_details(made))
        assert f"Lance: {shown} on the blow" in text, text


def test_fading_suns_wound_notes_say_initiative_with_a_minus_sign() -> None:
    wound = Wound(1, "Chest", "MAJ", "major", penalty=-4, note="-1 init, treated")
    shown = character_embeds.wound_line(wound, "fading-suns")
    assert shown == "`1` Chest: **major**, penalty \u22124, initiative \u22121, treated"
    assert character_embeds.wound_note("2 days healed") == "2 days healed"


def test_the_dice_lines_use_the_games_words_not_the_engines_roll_kinds() -> None:
    """Before: 'd20 pendragon [6] = 6 vs 12 success', 'healing.botch 1d10 botch [7] = 0', 'damage 5d6 1'."""
    assert _line({"label": "attacker", "kind": "d20 pendragon", "faces": [6], "total": 6, "target": 12,
                      "result": "success"}) == "attacker d20 [6] = **6** vs 12: success"
    assert _line({"label": "attack", "kind": "d20 fading-suns", "faces": [5], "total": 5, "target": 11,
                      "result": "success", "victory_points": 1}) == "attack d20 [5] = **5** vs goal 11: success, 1 VP"
    assert _line({"label": "healing.botch", "kind": "1d10 botch", "faces": [7], "total": 0}) == \
        "healing botch die [7]: **no botch**"
    assert _line({"label": "attack.botch", "kind": "2d10 botch", "faces": [0, 3], "total": 1,
                      "flags": ["botch"]}) == "attack 2 botch dice [0, 3]: **1 botch**"
    assert _line({"label": "damage", "kind": "5d6-1", "faces": [1, 2, 3, 4, 5], "total": 14}) == \
        "damage 5d6-1 [1, 2, 3, 4, 5] = **14**"
