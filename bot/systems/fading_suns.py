"""Fading Suns on the bot side: how the commands reach its engine, and its body diagram."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.systems.odds_rows import NESTED, detail, less, top
from bot.systems.pictures import BodyWounds, LocationMark, LocationWound
from bot.systems.profile import DecisionWords, HelpWords, OddsWords, SystemProfile, Treatment, WayOutWords, nowhere
from rules.fading_suns.catalog import FadingSunsCatalog
from rules.fading_suns.character import parse
from rules.model import Catalog


def picture(sheet: Mapping[str, Any], catalog: Catalog, rulings: Mapping[str, Any]) -> BodyWounds | None:
    """Every wounded location, its wounds' severities (``GRI``) and whether it is crippled."""
    if not isinstance(catalog, FadingSunsCatalog):
        return None
    char = parse(sheet, catalog)
    grouped: dict[str, list[Any]] = {}
    for wound in char.wounds:
        grouped.setdefault(wound.location, []).append(wound)
    marks = []
    for key, wounds in grouped.items():
        try:
            label = catalog.location(key).label
        except KeyError:
            label = key.replace("_", " ")
        marks.append(LocationMark(
            key=key, label=label,
            wounds=tuple(LocationWound(w.severity, w.severity[:3].upper(), w.index) for w in wounds),
            crippled=any(w.severity == "crippled" for w in wounds)))
    conditions = tuple(c for c in char.conditions if c != "prone")
    return BodyWounds(system="fading-suns", name=char.name, marks=tuple(marks), conditions=conditions)


PROFILE = SystemProfile(
    system="fading-suns",
    title="Fading Suns",
    gm_rolls="wound-effect, STUMBLE and FUMBLE rolls",
    own_commands=frozenset(),
    own_options={
        "attack": {
            "location": "A called location",
            "defense": "The target dodges or parries (rolled only if the attack succeeds)",
            "throw": "Throw the weapon (a knife or spear) instead of striking with it",
        },
    },
    decide_options=("choice",),
    attack_option_names={"location": "aim", "modifier": "modifiers"},
    attack_switches={"throw": ("mode", "missile", "melee")},  # a thrown knife or spear is its missile mode
    command_actions={"rearm": ("recover", {"condition": "disarmed"})},
    # Fading Suns heals with a skill: Remedy (minor to grievous wounds) or Physick (crippled ones too), and
    # names the treatment by it, as its results do ("treats ... with Physick")
    treatments={"first_aid": Treatment("heal", {"skill": "remedy"}, "Remedy"),
                "chirurgy": Treatment("heal", {"skill": "physick"}, "Physick")},
    patient_acts=False,
    modifier_option="modifiers",
    rest_days=1,
    rest_refusal="",
    recorded_fields=("wounds", "conditions", "pending", "pending_decision"),
    pending_field="pending",
    roll_actions={"effect": "effect", "stumble": "effect", "fumble": "effect"},
    pending_ids=True,
    roll_names={"effect": "wound-effect roll", "stumble": "STUMBLE roll", "fumble": "FUMBLE roll"},
    label_names={"attack": "attack roll", "defense": "defence roll", "location": "hit location roll",
                 "heal": "treatment roll", "damage": "damage roll", "armor": "armour roll"},
    decisions={"death": DecisionWords("{who} took a deadly wound",
                                    {"death": "dies", "unconscious": "survives, **unconscious**"})},
    picture=picture,
    hit_locations=True,
    armour_held_at=nowhere,
    help=HelpWords(
        attack_options="`location` (a called location), `defense` (the target dodges or parries if the attack "
                       "succeeds)",
        combat_extra="",
        dice_example="`dice:\"attack=7 location=12\"`",
        heal="`/heal character method healer` \u2014 `remedy` (the healer's Remedy: minor to grievous "
             "wounds) or `physick` (the healer's Physick: crippled ones too)\n`/rest character days` \u2014 "
             "the healing rolls over the days",
        roll_examples="`3d6+2`, `fs vs 12`",
        decisions="a deadly wound under `gm_confirms_death` (death or mercy)",
        initiative="`/encounter initiative` rolls initiative and sets the turn order",
    ),
    odds=OddsWords(
        headline=(("Success", top("success")), ("Hit", top("hit")), ("Wound", top("wound")),
                  ("Crippled", detail("crippled")), ("Dead", top("dead"))),
        chart=(("Miss", detail("miss")), ("Defended", detail("defended")),
               ("Hit, no wound", less(top("hit"), top("wound"))), ("Wound", top("wound")),
               (NESTED + "crippled", detail("crippled")), (NESTED + "stunned", detail("stunned")),
               (NESTED + "unconscious", detail("unconscious")), (NESTED + "dead", top("dead"))),
        follow_ups="wound effect",
        hidden_when_unreachable=frozenset({"Hit, no wound"}),
        aims_at_locations=True,  # /attack's location option is the engine's aim
    ),
    way_out=WayOutWords(
        action_cost="that is their action this turn",
        does={"prone": "gets up", "unconscious": "comes round", "stunned": "shakes off the stun",
              "dropped": "picks up the {weapon}"},
        ended={"prone": "gets up", "stunned": "shakes off the stun", "shield_spent": "recharges the energy shield"},
    ),
    action_titles={"effect": "rolls for the wound's effect"},
    bleeding_note="",
    healing_next="a severity better after {days} more days of rest",
    describers="bot.ui.outcomes.fading_suns",
    secret_fields=frozenset({
        "roll", "goal", "modifiers", "penalties", "victory_points", "location_roll", "damage_before_armor", "armor",
        "armor_rating", "damage",
    }),
)
