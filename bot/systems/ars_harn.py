"""Ars Magica x HarnMaster on the bot side: how the commands reach its engine, and its body diagram."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.systems.odds_rows import NESTED, detail, less, top
from bot.systems.pictures import BodyWounds, LocationMark, LocationWound
from bot.systems.profile import DecisionWords, HelpWords, OddsWords, SystemProfile, Treatment, WayOutWords
from rules.ars_harn.catalog import ArsHarnCatalog
from rules.ars_harn.character import parse_character
from rules.ars_harn.outcomes import AttackOutcome, CastOutcome
from rules.model import Catalog
from rules.outcome import Outcome


def picture(sheet: Mapping[str, Any], catalog: Catalog, rulings: Mapping[str, Any]) -> BodyWounds | None:
    """Every wounded location (side and location joined), its wounds' codes, bleeding and amputation."""
    if not isinstance(catalog, ArsHarnCatalog):
        return None
    char = parse_character(sheet, "sheet", catalog)
    grouped: dict[str, list[Any]] = {}
    for wound in char.wounds:
        grouped.setdefault(wound.where(), []).append(wound)
    marks = []
    for key, wounds in grouped.items():
        first = wounds[0]
        known = catalog.locations.get(first.location)
        label = known.label if known else first.location.replace("_", " ")
        marks.append(LocationMark(
            key=key, label=f"{first.side} {label}" if first.side else label,
            wounds=tuple(LocationWound(w.severity, w.code, w.index) for w in wounds),
            bleeding=any(w.bleeding for w in wounds), amputated=any(w.amputated for w in wounds)))
    conditions = [c for c in char.conditions if c != "prone"]
    if char.bleeding_wounds:
        bleeding = char.bleeding_wounds
        conditions.append(f"bleeding: {bleeding} wound{'s' if bleeding != 1 else ''}")
    return BodyWounds(system="ars-harn", name=char.name, marks=tuple(marks), conditions=tuple(conditions))


def armour_held_at(outcome: Outcome) -> str | None:
    """The location (side joined) where a hit met armour that left no injury, else None."""
    return outcome.armour_held_at if isinstance(outcome, AttackOutcome | CastOutcome) else None


PROFILE = SystemProfile(
    system="ars-harn",
    title="Ars Magica \u00d7 HarnMaster",
    gm_rolls="shock and kill rolls",
    own_commands=frozenset({
        "cast",  # the engine's "cast" action
        "advantage",  # "tactical_advantage"
        "shock",  # the others roll their rolls through /pending-roll
        "encounter declare",  # the Ars Magica movement phase
    }),
    own_options={
        "attack": {
            "aspect": "Blunt, edge or point",
            "aim": "High, mid or low (high and low are -3)",
            "save_excess": "Keep the excess points for next round instead of adding them to damage",
            "range": "A missile's range band: short, medium, long or extreme (default short)",
        },
        "heal": {"body_levels": "Body Levels a healing spell heals"},  # only ars-harn has a healing spell
        "ready": {"hand": "The hand it goes in (default: the main hand, or the off hand if the main arm is "
                          "unusable)"},
    },
    decide_options=("decision",),
    attack_option_names={},
    attack_switches={},
    command_actions={"rearm": ("ready", {})},
    treatments={"chirurgy": Treatment("heal", {"method": "chirurgy"}, "Chirurgy"),
                "spell": Treatment("heal", {"method": "spell"}, "Healing spell")},
    patient_acts=False,
    modifier_option="modifier",
    rest_days=1,
    rest_refusal="",
    recorded_fields=("wounds", "wound_counter", "injury_levels", "fatigue", "conditions", "unusable_limbs",
                     "severed", "pending_rolls", "pending_decision"),
    pending_field="pending_rolls",
    roll_actions={"shock": "shock", "kill": "kill"},
    pending_ids=False,
    roll_names={"shock": "shock roll", "kill": "kill roll"},
    label_names={"initiative": "initiative roll", "attack": "attack roll", "defense": "defence roll",
                 "location": "strike location roll", "fumble": "fumble roll", "stumble": "stumble roll",
                 "amputation": "amputation roll", "targeting": "Targeting roll", "chirurgy": "chirurgy roll",
                 "healing": "healing roll", "fatigue": "fatigue roll"},
    decisions={"kill": DecisionWords("{who} failed the kill roll",
                                   {"death": "dies", "incapacitation": "lives, but is **incapacitated**"})},
    picture=picture,
    hit_locations=True,
    armour_held_at=armour_held_at,
    help=HelpWords(
        attack_options="`aspect` (blunt, edge, point), `aim` (high, mid, low), `save_excess` (keep excess points "
                       "for next round)",
        combat_extra="`/cast target spell damage kind body_levels aim` \u2014 damaging and Body Level spells\n"
                     "`/shock` \u2014 re-roll shock; `/advantage` \u2014 use a Tactical Advantage",
        dice_example="`dice:\"attack=7 location=55\"`",
        heal="`/heal character method healer` \u2014 `chirurgy` (the healer's Chirurgy) or `spell` "
             "(`body_levels` healed)\n`/rest character days` \u2014 the healing rolls over the days",
        roll_examples="`3d6+2`, `stress+5 vs 9`, `simple+3`",
        decisions="a failed kill roll (death or incapacitation)",
        initiative="`/encounter initiative` rolls initiative; `/encounter declare` sets aspect, aim and target in "
                   "the movement phase",
    ),
    odds=OddsWords(
        headline=(("Hit", top("hit")), ("Injury", top("injury")), ("Grievous or worse", top("grievous_or_worse")),
                  ("Kill roll failed", top("kill_failed")), ("Shock failed", top("shock_failed"))),
        chart=(("Miss", detail("miss")), ("Hit, no injury", less(top("hit"), top("injury"))),
               ("Minor", detail("severity", "minor")), ("Serious", detail("severity", "serious")),
               ("Grievous", detail("severity", "grievous")), ("Kill-level", detail("severity", "kill")),
               (NESTED + "kill roll failed", top("kill_failed"))),
        follow_ups="kill and shock",
        hidden_when_unreachable=frozenset({"Hit, no injury"}),  # an ars-harn hit nearly always injures
    ),
    way_out=WayOutWords(
        action_cost="that is their action this round",
        does={"prone": "gets up", "shock": "tries to snap out of shock", "unconscious": "comes round",
              "incapacitated": "is no longer incapacitated", "dropped": "picks up the {weapon}",
              "not_in_hand": "readies the {weapon}"},
        ended={"prone": "gets up"},
        # shock outlasts the fight (issue 34, A4)
        kept={"shock": "is still in shock: `/recover condition:shock` rolls to snap out of it, and a rest ends it"},
        costs={"advantage": "free: the Tactical Advantage is spent"},
    ),
    action_titles={"cast": "casts at", "shock": "rolls for shock", "kill": "rolls to survive",
                   "tactical_advantage": "uses a tactical advantage"},
    # issue 22 §3: a G4 showed "bleeding" for a week with nothing saying what that meant
    bleeding_note=("\U0001fa78 each bleeding wound: \u22121 to Shock and Fatigue rolls, until a chirurgy success "
                   "or a healing spell stops it (or it heals below grievous)"),
    healing_next="next healing roll after {days} more days of rest",
    describers="bot.ui.outcomes.ars_harn",
    secret_fields=frozenset({
        "total", "die", "ease_factor", "critical_ease_factor", "modifiers", "effective_impact",
        "location_roll", "injury_levels", "levels", "soak_base", "soak_total", "armour", "damage_base", "damage_total",
    }),
)
