"""Embeds from every system's outcome shape: the right words, the right colour, and always within Discord's limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.scenario_runner import resolve_text
from bot.services.event_records import StoredRoll, read_event
from bot.services.results import (
    ActionReport,
    CharacterBrief,
    CharacterView,
    CombatantView,
    EncounterView,
    EventView,
    PendingDecisionView,
    RollView,
    SetupView,
)
from bot.ui import (
    action_embeds,
    character_embeds,
    decision_embeds,
    encounter_embeds,
    help_embeds,
    limits,
    record_embeds,
    replies,
    setup_embeds,
)
from bot.ui.outcomes import Severity
from rules.model import Ruling, SheetSummary, Wound
from tests.bot.action_report_support import action_report, resolved_report

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "content" / "examples").glob("*.yaml"))
HUGE = "\U0001f5e1\ufe0f" + "x" * 9000  # surrogate pairs included, far over every limit


def assert_within_limits(embed: discord.Embed) -> None:
    data = embed.to_dict()
    assert limits.size(data.get("title", "")) <= limits.TITLE
    assert limits.size(data.get("description", "")) <= limits.DESCRIPTION
    fields = data.get("fields", [])
    assert len(fields) <= limits.FIELDS
    for field in fields:
        assert 0 < limits.size(field["name"]) <= limits.FIELD_NAME
        assert 0 < limits.size(field["value"]) <= limits.FIELD_VALUE
    assert limits.size(data.get("footer", {}).get("text", "")) <= limits.FOOTER
    assert limits.embed_size(embed) <= limits.TOTAL


def report(system: str, outcome: dict[str, Any], *, rolls: list[dict[str, Any]] | None = None,
           pending: tuple[PendingDecisionView, ...] = (), action: str = "attack", actor: str = "Bjorn",
           target: str | None = "Aldo", unused: dict[str, list[int]] | None = None) -> ActionReport:
    return action_report(system, action, actor, target, outcome, rolls or (), unused_dice=unused, pending=pending,
                         event_id=7)


ARS_HIT = {
    "action": "attack", "attack_total": 27, "defense_total": 8, "hit": True, "excess": 19, "saved_points": 0,
    "tactical_advantage": False,
    "damage_total": 26, "soak_total": 1, "location": "thorax", "side": None, "effective_impact": 25,
    "injury": {"code": "K5", "severity": "kill", "levels": 5, "bleeding": True}, "injury_levels": 5,
    "shock": None, "kill": {"total": 7, "ease_factor": 10, "passed": False}, "fumble": None, "stumble": None,
    "amputation": None, "attack_modifiers": {"dex": 1, "ability": 5, "wounds": 0}, "weapon": "Broadsword",
    "aspect": "edge", "aim": "mid",
    "gm_decision": {"kind": "kill", "who": "defender", "options": ["death", "incapacitation"]},
}


def test_ars_harn_hit_shows_location_impact_injury_and_kill() -> None:
    kill = PendingDecisionView(id=3, kind="kill", who="Aldo", options=("death", "incapacitation"))
    embed = action_embeds.action(report("ars-harn", ARS_HIT, rolls=[{"label": "attack", "kind": "stress",
                                                              "faces": [1, 9], "total": 18, "flags": ["exploded"]}],
                                 pending=(kill,)))
    text = str(embed.to_dict())
    assert "thorax" in embed.description and "K5" in embed.description
    assert "27 vs 8 \u00b7 impact 25" in embed.description and "Kill roll **failed**" in embed.description
    assert "failed the kill roll: the GM chooses **death** or **incapacitation**" in text
    assert embed.colour == discord.Colour(Severity.MORTAL.colour)
    assert_within_limits(embed)
    details = action_embeds.report_details(report("ars-harn", ARS_HIT, rolls=[{"label": "attack", "kind": "stress",
                                                                       "faces": [1, 9], "total": 18,
                                                                       "flags": ["exploded"]}]))
    fields = {f.name: f.value for f in details.fields}
    assert "**25**" in fields["Impact"]
    assert fields["Kill roll"] == "**failed**"  # its figures are the dice list's (issue 34, the reader's 8)
    assert "exploded" in fields["Dice"]


def test_the_public_embed_is_short_and_says_no_number_twice() -> None:
    """Issue 10: the headline and a handful of lines; the arithmetic is behind Details."""
    kill = PendingDecisionView(id=3, kind="kill", who="Aldo", options=("death", "incapacitation"))
    embed = action_embeds.action(report("ars-harn", ARS_HIT, pending=(kill,)))
    assert "Dice" not in {f.name for f in embed.fields} and "Impact" not in {f.name for f in embed.fields}
    assert limits.phone_lines(embed) <= limits.PUBLIC_LINES
    assert embed.description.count("K5") == 1


@pytest.mark.parametrize(("code", "severity"), [("M1", Severity.LIGHT), ("S3", Severity.SERIOUS),
                                                ("G4", Severity.GRIEVOUS), ("K4", Severity.MORTAL)])
def test_ars_harn_colour_follows_the_injury(code: str, severity: Severity) -> None:
    outcome = {**ARS_HIT, "injury": {"code": code, "levels": int(code[1])}, "kill": None, "gm_decision": None}
    assert action_embeds.action(report("ars-harn", outcome)).colour == discord.Colour(severity.colour)


def test_ars_harn_miss_and_armour_that_holds() -> None:
    miss = action_embeds.action(report("ars-harn", {"action": "attack", "attack_total": 5, "defense_total": 12,
                                                 "hit": False}))
    assert miss.description.startswith("**Miss**")
    assert miss.colour == discord.Colour(Severity.NONE.colour)
    held = action_embeds.action(report("ars-harn", {**ARS_HIT, "injury": None, "kill": None, "effective_impact": 0}))
    assert "armour takes it all" in held.description


def test_ars_harn_shock_fumble_stumble_and_tactical_advantage() -> None:
    outcome = {**ARS_HIT, "injury": {"code": "G4", "levels": 4, "bleeding": True}, "kill": None,
               "shock": {"total": 3, "ease_factor": 9, "passed": False},
               "fumble": {"total": 8, "ease_factor": 6, "passed": True},
               "stumble": {"total": 2, "ease_factor": 6, "passed": False},
               "tactical_advantage": True, "tactical_advantage_for": "defender"}
    fields = {f.name: f.value for f in action_embeds.report_details(report("ars-harn", outcome)).fields}
    assert "failed" in fields["Shock"] and "passed" in fields["Fumble"] and "failed" in fields["Stumble"]
    assert "Aldo gains a tactical advantage" in fields["Tactical advantage"]
    public = action_embeds.action(report("ars-harn", outcome)).description
    # what happened, not whose roll passed (issue 34, A1)
    assert "Shock **failed** \u00b7 Aldo keeps hold of their weapon \u00b7 Aldo falls prone" in public
    assert "Aldo gains a tactical advantage" in public


PENDRAGON = {
    "action": "attack", "attacker_roll": {"face": 14, "target": 16, "result": "success"},
    "defender_roll": {"face": 9, "target": 13, "result": "success"}, "winner": "attacker", "tie": False,
    "damage_rolled": 22, "armor": 4, "shield_applied": False, "damage_taken": 18,
    "knockdown": {"total": 12, "target": 5, "passed": False}, "major_wound": True, "unconscious": False,
    "hit_points": 9, "weapon_broken": None, "weapon_dropped": None,
}


def test_pendragon_exchange_winner_damage_knockdown_major_wound() -> None:
    embed = action_embeds.action(report("pendragon", PENDRAGON))
    assert "**Bjorn** wins the exchange" in embed.description and "18" in embed.description
    assert "Aldo is **knocked down** \u00b7 Aldo suffers a **major wound**" in embed.description
    assert "Aldo: 9 hit points left" in embed.description
    fields = {f.name: f.value for f in action_embeds.report_details(report("pendragon", PENDRAGON)).fields}
    assert "14 vs 16" in fields["Bjorn"] and "9 vs 13" in fields["Aldo"]
    assert "knocked down" in fields["Knockdown"]
    assert "major wound" in fields["Major wound"]
    assert embed.colour == discord.Colour(Severity.GRIEVOUS.colour)
    assert_within_limits(embed)


def test_pendragon_tie_dying_and_broken_weapon() -> None:
    tie = action_embeds.action(report("pendragon", {**PENDRAGON, "tie": True, "winner": "none", "damage_taken": 0,
                                             "knockdown": None, "major_wound": False, "weapon_broken": "defender"}))
    assert tie.description.startswith("**Tie**")
    assert "Aldo's weapon breaks" in str(tie.to_dict())
    dying = action_embeds.action(report("pendragon", {**PENDRAGON, "hit_points": -2}))
    assert dying.colour == discord.Colour(Severity.MORTAL.colour)


FADING = {"action": "attack", "goal": 14, "roll": 9, "success": True, "critical": False, "victory_points": 2,
          "location": "left leg", "armor": 3, "damage": 6, "severity": "grievous",
          "effect_roll": {"roll": 15, "goal": 12, "result": "failure"}, "effect": "unconscious",
          "penalties": {"goal": -9, "initiative": -3}}


def test_fading_suns_location_severity_effect_and_penalties() -> None:
    embed = action_embeds.action(report("fading-suns", FADING))
    assert "left leg" in embed.description and "grievous" in embed.description
    assert "Aldo is knocked **unconscious**" in embed.description
    fields = {f.name: f.value for f in action_embeds.report_details(report("fading-suns", FADING)).fields}
    assert "2 VP" in fields["Goal roll"]
    assert "unconscious" in fields["Effect"]
    assert "goal \u22129" in fields["Wound penalties"]
    assert embed.colour == discord.Colour(Severity.GRIEVOUS.colour)
    miss = action_embeds.action(report("fading-suns", {"action": "attack", "goal": 10, "roll": 19, "success": False}))
    assert miss.description.startswith("**Miss**")


def test_unknown_fields_are_listed_not_lost_and_odd_shapes_never_raise() -> None:
    # an untyped system lists what it has no words for; a typed record (ars-harn) words every field it has
    embed = action_embeds.report_details(report("homebrew", {**PENDRAGON, "brand_new_rule": "applied"}))
    assert "Brand new rule: applied" in {f.name: f.value for f in embed.fields}["Details"]
    typed = action_embeds.report_details(report("ars-harn", {**ARS_HIT, "brand_new_rule": "applied"}))
    assert "Details" not in {f.name for f in typed.fields}
    for outcome in ({"injury": "S3", "kill": 5, "location": ["a", "b"]}, {"winner": 3, "knockdown": "x"}, {}):
        for system in ("ars-harn", "pendragon", "fading-suns", "homebrew"):
            assert_within_limits(action_embeds.action(report(system, outcome)))  # type: ignore[arg-type]
            assert_within_limits(action_embeds.report_details(report(system, outcome)))  # type: ignore[arg-type]


@pytest.mark.parametrize("system", ["ars-harn", "pendragon", "fading-suns", "homebrew"])
def test_huge_inputs_are_clipped_within_every_limit(system: str) -> None:
    outcome: dict[str, Any] = {**ARS_HIT, **PENDRAGON, **FADING, "location": HUGE,
                               **{f"extra_{i}": HUGE for i in range(40)}}
    rolls = [{"label": HUGE[:300], "kind": "stress", "faces": list(range(200)), "total": 1}] * 60
    pending = tuple(PendingDecisionView(id=i, kind=HUGE, who=HUGE, options=(HUGE, HUGE)) for i in range(30))
    huge = report(system, outcome, rolls=rolls, pending=pending, actor=HUGE, target=HUGE,
                  unused={HUGE: list(range(500))})
    assert_within_limits(action_embeds.action(huge))
    assert_within_limits(action_embeds.report_details(huge))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_scenario_becomes_a_worded_embed(path: Path) -> None:
    resolution = resolve_text(path.read_bytes(), str(path))
    attacker = (resolution.get("attacker") or {}).get("name", "A")
    defender = (resolution.get("defender") or {}).get("name")
    action = str(resolution["outcome"].get("action", "attack"))
    made = resolved_report(resolution, action, attacker, defender)
    embed = action_embeds.action(made)
    assert (embed.description and not embed.description.endswith("acts.")) or action != "attack"
    assert_within_limits(embed)
    assert limits.phone_lines(embed) <= limits.PUBLIC_LINES, embed.to_dict()
    for placeholder in (": ?", " ?\n", "passed yes", "1 injury levels", "parrys"):
        assert placeholder not in str(embed.to_dict()) + str(action_embeds.report_details(made).to_dict())


def test_a_sheet_leaves_out_figures_at_nothing() -> None:
    """Issue 34, the reader's 7: 'Load 5.18 · Burden 2 · Encumbrance 0 · Saved points 0 · Initiative -'."""
    summary = SheetSummary(name="Bjorn", stats=(("Soak Base", "1"), ("Load", "5.18"), ("Burden", "2"),
                                                ("Encumbrance", "0"), ("Saved points", "0"), ("Initiative", "-"),
                                                ("Load penalty", "\u22120")), equipment=(), wounds=(), condition="")
    view = CharacterView(id=1, name="Bjorn", system="ars-harn", owner_id=42, npc=False, sheet={"name": "Bjorn"},
                         summary=summary, version=3)
    fields = {f.name: f.value for f in character_embeds.character(view).fields}
    assert fields["Stats"] == "Soak Base **1** \u00b7 Load **5.18** \u00b7 Burden **2**"


def _wounds(count: int, note: str = "") -> tuple[Wound, ...]:
    return tuple(Wound(index=i, location="left upper arm", code="S3", severity="serious", levels=3, bleeding=i % 2 == 0,
                       penalty=3, note=note) for i in range(1, count + 1))


def test_character_and_injuries_embeds_with_many_wounds() -> None:
    summary = SheetSummary(name="Bjorn", stats=(("str", "2"), ("sta", "1")), equipment=(("weapon", "Broadsword"),),
                           wounds=_wounds(200, HUGE[:50]), condition="in shock")
    view = CharacterView(id=1, name="Bjorn", system="ars-harn", owner_id=42, npc=False, sheet={"name": "Bjorn"},
                         summary=summary, version=3)
    for embed in (character_embeds.character(view), character_embeds.injuries(view)):
        assert_within_limits(embed)
        assert "more" in str(embed.to_dict())
        # issue 22 §3: what bleeding does and what stops it, said once under the list
        assert str(embed.to_dict()).count("\u22121 to Shock and Fatigue rolls, until a chirurgy success") == 1
    bare = CharacterView(id=2, name="Ghost", system="pendragon", owner_id=1, npc=True,
                         sheet={"name": "Ghost", "siz": 12}, summary=None, version=1)
    assert "siz" in str(character_embeds.character(bare).to_dict())
    healthy = CharacterView(id=3, name="Fit", system="ars-harn", owner_id=1, npc=False, sheet={},
                            summary=SheetSummary("Fit", (), (), (), ""), version=1)
    assert character_embeds.injuries(healthy).description == "No wounds."


def test_injuries_lists_a_full_sheets_wounds_and_points_past_itself_only_to_the_export() -> None:
    """/injuries is where the whole list is read: 64 wounds (a full ars-harn sheet) all show, over several fields;
    /character show keeps one field and points at /injuries; what /injuries cannot hold points at the export,
    not at /injuries itself."""
    def view(count: int) -> CharacterView:
        summary = SheetSummary(name="Bjorn", stats=(), equipment=(), wounds=_wounds(count), condition="ok")
        return CharacterView(id=1, name="Bjorn", system="ars-harn", owner_id=42, npc=False, sheet={"name": "Bjorn"},
                             summary=summary, version=3)

    full = character_embeds.injuries(view(64))
    assert_within_limits(full)
    text = "\n".join(field.value or "" for field in full.fields)
    assert all(f"`{n}` left upper arm" in text for n in range(1, 65)) and "more" not in text
    assert text.count("to Shock and Fatigue rolls") == 1  # the bleeding note, once, whole
    assert [f.name for f in full.fields][:2] == ["Wounds (64)", "Wounds, continued"]
    shown = character_embeds.character(view(64))
    assert "more (see /injuries)" in str(shown.to_dict())
    huge = character_embeds.injuries(view(200))
    assert_within_limits(huge)
    assert "more (/character export has every one)" in str(huge.to_dict())
    assert "see /injuries" not in str(huge.to_dict())


def test_tracker_marks_the_current_turn_and_fits_with_many_combatants() -> None:
    combatants = tuple(CombatantView(character_id=i, name=f"Bandit {i}", owner_id=9, npc=True, initiative=20 - i,
                                     condition="in shock" * 20, wounds=_wounds(2), penalty=6,
                                     declaration={"aspect": "edge", "aim": "high", "target": "Bjorn"})
                       for i in range(60))
    view = EncounterView(id=1, guild_id=1, channel_id=2, system="ars-harn", round=3, turn=1, active=True,
                         combatants=combatants, tracker_message_id=None, version=4)
    embed = encounter_embeds.tracker(view)
    assert "Round 3" in (embed.title or "")
    assert "\u25b6\ufe0f **2. Bandit 1**" in (embed.description or "")
    assert_within_limits(embed)
    empty = EncounterView(1, 1, 2, "pendragon", 1, 0, True, (), None, 1)
    assert "Nobody" in (encounter_embeds.tracker(empty).description or "")


def test_initiative_answers_with_the_order_in_one_paragraph_not_the_tracker_again() -> None:
    """Issue 22 §4: /encounter initiative edited the pinned tracker, then posted the whole tracker again."""
    combatants = tuple(CombatantView(character_id=i, name=f"Bandit {i}", owner_id=9, npc=True, initiative=20 - i,
                                     condition="in shock", wounds=_wounds(2), penalty=6, declaration={})
                       for i in range(1, 4))
    view = EncounterView(id=1, guild_id=1, channel_id=2, system="ars-harn", round=1, turn=0, active=True,
                         combatants=combatants, tracker_message_id=None, version=4)
    shown = encounter_embeds.initiative(view)
    assert shown.description == "1. **Bandit 1** (19) \u00b7 2. **Bandit 2** (18) \u00b7 3. **Bandit 3** (17)"
    assert "wound" not in str(shown.to_dict()) and "shock" not in str(shown.to_dict())
    assert [f.value for f in shown.fields if f.name == "Turn"] == ["Bandit 1 (NPC)"]


def test_roll_log_undo_settings_and_lists() -> None:
    roll = RollView(expression="stress+5 vs 9", total=21, result="success",
                    rolls=(StoredRoll(label="roll", kind="stress", faces=(1, 1, 4), total=16),), unused_dice={},
                    event_id=5)
    assert "21" in (action_embeds.roll(roll, "Alice").description or "")
    events = [EventView(id=i, kind="attack", channel_id=2, encounter_id=1, user_id=1, user_name="gm",
                        record=read_event("attack", {"system": "ars-harn", "action": {"type": "attack"},
                                                     "actor": "Bjorn", "target": "Aldo", "outcome": ARS_HIT}),
                        undone=i == 2) for i in range(1, 30)]
    log = record_embeds.log(events)
    assert "Bjorn attacks Aldo" in (log.description or "") and "~~" in (log.description or "")
    assert_within_limits(log)
    assert "Took back" in (record_embeds.undone(events[0]).description or "")
    settings = SetupView(guild_id=1, channel_id=2, guild_system="ars-harn", channel_system="pendragon",
                                 system="pendragon", gm_role_id=77, rolls="gm",
                                 rulings={f"rule_{i}": HUGE[:40] for i in range(80)}, overridden=("rule_1",))
    assert_within_limits(setup_embeds.setup_shown(settings, [Ruling("rule_1", "x", "a ruling")]))
    briefs = [CharacterBrief(id=i, name=f"N{i}" * 30, system="ars-harn", owner_id=i, npc=i % 2 == 0)
              for i in range(300)]
    assert_within_limits(character_embeds.character_list(briefs))
    for topic in help_embeds.HELP:
        assert_within_limits(help_embeds.help_topic(topic))


def test_clip_keeps_code_fences_closed_and_characters_whole() -> None:
    clipped = limits.clip("```\n" + "\U0001f600" * 500, 101)
    assert limits.size(clipped) <= 101
    assert clipped.count("```") % 2 == 0
    assert limits.clip("short", 10) == "short"
    assert replies.error_line("line one\nline two") == "\u26a0\ufe0f line one"


# -- rolls the GM makes, and decisions -------------------------------------------------------------------


def test_a_roll_waiting_for_the_gm_says_whose_and_which_with_labelled_buttons() -> None:
    from bot.ui.action_message import decision_buttons

    shock = PendingDecisionView(id=7, kind="roll:shock", who="Bandit 1", options=("roll", "dice"))
    effect = PendingDecisionView(id=8, kind="roll:effect:2", who="Thug 1", options=("roll", "dice"))
    embed = action_embeds.action(report("ars-harn", ARS_HIT, pending=(shock, effect)))
    waiting = {f.name: f.value for f in embed.fields}["\u23f3 Waiting for the GM"]
    assert waiting.startswith("Bandit 1's shock roll: the GM presses **Roll**")
    assert "Thug 1's wound-effect roll" in waiting
    view = decision_buttons([shock, effect])
    assert view is not None
    labels = [(item.item.custom_id, item.item.label) for item in view.children]  # type: ignore[attr-defined]
    assert labels[:2] == [("grv:gm:7:roll", "Roll: Bandit 1's shock"), ("grv:gm:7:dice", "Dice: Bandit 1's shock")]


def test_marking_a_roll_decided_drops_its_line_and_moot_ones_and_keeps_the_rest() -> None:
    shock = PendingDecisionView(id=7, kind="roll:shock", who="Bandit 1", options=("roll", "dice"))
    kill = PendingDecisionView(id=6, kind="roll:kill", who="Bandit 1", options=("roll", "dice"))
    other = PendingDecisionView(id=9, kind="roll:shock", who="Brun", options=("roll", "dice"))
    embed = action_embeds.action(report("ars-harn", ARS_HIT, pending=(kill, shock, other)))
    decided = PendingDecisionView(id=6, kind="roll:kill", who="Bandit 1", options=("roll", "dice"), choice="dice",
                                  decided_by=2)
    marked = decision_embeds.mark_decided(embed, decided, (shock,))
    fields = {f.name: f.value for f in marked.fields}
    assert fields["\u23f3 Waiting for the GM"].startswith("Brun's shock roll")
    assert "Bandit 1" not in fields["\u23f3 Waiting for the GM"]
    # the roll and its result are the new message below, said once (issue 34, N14)
    assert "\u2696\ufe0f The GM decided" not in fields and "kill roll" not in str(marked.to_dict())


def test_death_settles_the_dying_field_and_prompts_read_well() -> None:
    dying = PendingDecisionView(id=1, kind="dying", who="Aldo", options=("death", "survival"))
    embed = action_embeds.action(report("pendragon", {"action": "attack", "winner": "attacker", "damage_taken": 30,
                                               "hit_points": -5, "dying": True}, pending=(dying,)))
    assert "Aldo is **dying**" in embed.description
    marked = decision_embeds.mark_decided(embed, PendingDecisionView(1, "dying", "Aldo", ("death", "survival"),
                                                                     "death", 2))
    assert "dying" not in (marked.description or "")
    # said once, in the result posted below (issue 22 §4, issue 34 N14): the edit names no choice
    assert "death" not in str(marked.to_dict()) and "GM decided" not in str(marked.to_dict())
    death = PendingDecisionView(id=2, kind="death", who="Thug 1", options=("death", "unconscious"))
    assert decision_embeds.pending_line(death) == ("Thug 1 took a deadly wound: the GM chooses **death** or "
                                          "**mercy (unconscious)**.")


def test_a_late_post_drops_the_condition_the_gm_decision_settled() -> None:
    """Issue 34 (the reader's 11): a late post (full Details) kept 'Condition: Keeper 1: incapacitated' after
    the GM pressed Death, above the new message's 'Keeper 1 dies'."""
    kill = PendingDecisionView(id=4, kind="kill", who="Keeper 1", options=("death", "incapacitation"))
    embed = discord.Embed(title="\u23f0 late: Bjorn attacks Keeper 1", description="**Hit** on Keeper 1's skull")
    embed.add_field(name="Condition", value="Keeper 1: incapacitated")
    embed.add_field(name="Impact", value="damage 22 \u2212 soak 5 = **17**")
    embed.add_field(name="\u23f3 Waiting for the GM", value=decision_embeds.pending_line(kill), inline=False)
    marked = decision_embeds.mark_decided(embed, PendingDecisionView(4, "kill", "Keeper 1", kill.options, "death", 2))
    assert [f.name for f in marked.fields] == ["Impact"]


def test_the_log_tells_a_treatment_offer_in_words() -> None:
    """Issue 22 §3: /log said "#38 Alice treatment offer"."""
    offer = EventView(id=38, kind="treatment_offer", channel_id=1, encounter_id=None, user_id=1, user_name="Alice",
                      record=read_event("treatment_offer", {"patient": "Thug 2", "healer": "Erian",
                                                            "method": "chirurgy", "system": "fading-suns"}))
    line = record_embeds.event_line(offer)
    assert line.endswith("Alice: Erian offers Thug 2 physick"), line
    older = EventView(id=39, kind="treatment_offer", channel_id=1, encounter_id=None, user_id=1, user_name="Bob",
                      record=read_event("treatment_offer", {"patient": "Hrolf", "healer": "Anselm",
                                                            "method": "first_aid"}))
    assert record_embeds.event_line(older).endswith("Bob: Anselm offers Hrolf first aid")


def test_the_log_says_a_condition_in_words_with_no_markdown_escape_between_them() -> None:
    """Issue 34, N6: /log showed a GM's condition edit as "now out\\ of\\ fight"."""
    edit = EventView(id=40, kind="edit", channel_id=1, encounter_id=None, user_id=1, user_name="GM",
                     record=read_event("edit", {"character": "Bandit 1", "condition": "out_of_fight", "set": True}))
    line = record_embeds.event_line(edit)
    assert line.endswith("GM edits Bandit 1: now out of fight"), line


def test_no_ruling_a_gm_reads_in_setup_show_points_at_our_research_notes() -> None:
    """Issue 22 §3: /setup show read "First Aid may be given to oneself (research A5: it cannot)"."""
    from rules.registry import available_ids, get_engine

    for system in available_ids():
        for setting in get_engine(system).rulings:
            assert "research" not in setting.description.casefold(), (system, setting.name)


def test_a_knights_approved_experience_checks_show_on_character_show() -> None:
    """Issue 22 §3: a knight's approved checks showed only in the export."""
    summary = SheetSummary(name="Sir Gawain", stats=(("SIZ", "15"),), equipment=(("sword", "18"),), wounds=(),
                           condition="ready")
    view = CharacterView(id=1, name="Sir Gawain", system="pendragon", owner_id=42, npc=False, version=3,
                         sheet={"name": "Sir Gawain", "experience_checks": ["sword", "great_spear"]}, summary=summary)
    fields = {f.name: f.value for f in character_embeds.character(view).fields}
    assert fields["Experience checks"] == "sword, great spear (approved by the GM)"
    view = CharacterView(id=1, name="Sir Gawain", system="pendragon", owner_id=42, npc=False, version=3,
                         sheet={"name": "Sir Gawain"}, summary=summary)
    assert "Experience checks" not in {f.name for f in character_embeds.character(view).fields}
