"""King Arthur Pendragon on the bot side: how the commands reach its engine, and its hit-point bar."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.systems.odds_rows import NESTED, detail, top
from bot.systems.pictures import HitPointWounds, Segment
from bot.systems.profile import DecisionWords, HelpWords, OddsWords, SystemProfile, Treatment, WayOutWords, nowhere
from rules.model import Catalog
from rules.pendragon.catalog import PendragonCatalog
from rules.pendragon.character import parse_character
from rules.pendragon.derived import current_hp, derive
from rules.registry import get_engine

DAYS_PER_WEEK = 7


def _first_blow(value: int, trigger: str) -> int:
    """The smallest blow that counts against ``value``: one more when it must exceed it."""
    return value + 1 if trigger == "exceeds" else value


def picture(sheet: Mapping[str, Any], catalog: Catalog, rulings: Mapping[str, Any]) -> HitPointWounds | None:
    """Hit points with the thresholds the rulings set (knockdown, major wound), each open wound a segment."""
    if not isinstance(catalog, PendragonCatalog):
        return None
    char = parse_character(sheet, catalog)
    derived = derive(char, catalog)
    defaults = {s.name: s.default for s in get_engine("pendragon").rulings}
    knockdown = _first_blow(derived.knockdown, str(rulings.get("knockdown_trigger", defaults["knockdown_trigger"])))
    major = _first_blow(derived.major_wound,
                        str(rulings.get("major_wound_threshold", defaults["major_wound_threshold"])))
    segments = tuple(Segment(w.index, w.remaining, w.major, w.mortal, w.first_aid)
                     for w in char.wounds if w.remaining > 0)
    flags = [("chirurgery needed", char.chirurgery_needed), ("dead", char.dead), ("dying", char.dying),
             ("unconscious", char.unconscious), ("prone", char.prone)]
    return HitPointWounds(system="pendragon", name=char.name, hit_points=derived.hit_points,
                          current=current_hp(char, catalog), unconscious=derived.unconscious,
                          knockdown=knockdown, major_wound=major, segments=segments,
                          conditions=tuple(name for name, on in flags if on))


PROFILE = SystemProfile(
    system="pendragon",
    title="King Arthur Pendragon",
    gm_rolls="knockdown, major wound and fall rolls",
    own_commands=frozenset(),
    own_options={
        "attack": {
            "mounted": "You fight from horseback",
            "charge": "A mounted lance charge",
            "unopposed": "Only you roll (default for a bow or javelin at range; false: an exchange)",
        },
    },
    decide_options=("kind", "decision"),
    attack_option_names={},
    attack_switches={},
    command_actions={},
    treatments={"first_aid": Treatment("first_aid", label="First aid"),
                "chirurgy": Treatment("chirurgery", label="Chirurgery")},
    patient_acts=True,  # first_aid and chirurgery act on the patient; the healer is the defender
    modifier_option="modifier",
    rest_days=DAYS_PER_WEEK,
    rest_refusal=f"Pendragon heals by the week: rest {DAYS_PER_WEEK} days or more (days:{2 * DAYS_PER_WEEK} is "
                 "two weeks)",
    recorded_fields=("wounds", "wounds_taken", "prone", "unconscious", "dying", "mortal", "dead", "out_of_fight",
                     "chirurgery_needed", "pending_decisions", "pending_rolls", "stats_lost"),
    pending_field="pending_rolls",
    roll_actions={"knockdown": "knockdown", "major_wound": "major_wound", "fall": "fall"},
    pending_ids=False,
    roll_names={"knockdown": "knockdown roll", "major_wound": "major wound rolls", "fall": "fall (DEX) roll"},
    label_names={"attacker": "combat roll", "defender": "combat roll", "damage": "damage roll",
                 "defender_damage": "damage roll", "fall_damage": "fall damage roll", "valorous": "Valorous roll",
                 "stat_loss": "stat loss roll", "first_aid": "First Aid roll", "chirurgery": "Chirurgery roll",
                 "healing": "healing roll"},
    decisions={
        "dying": DecisionWords("{who} is dying", {"death": "dies", "survival": "survives, at 1 hit point"}),
        "experience_check": DecisionWords("{who}'s notable success earns an experience check",
                                          {"approve": "earns an experience check",
                                           "deny": "earns no experience check"}),
        "fall_damage": DecisionWords("{who} fell gently", {"none": "lands without harm",
                                                            "damage": "takes damage from the fall"}),
    },
    picture=picture,
    hit_locations=False,
    armour_held_at=nowhere,
    help=HelpWords(
        attack_options="`mounted` (on horseback), `charge` (a mounted lance charge: the sheet needs a `horse`)",
        combat_extra="",
        dice_example="`dice:\"attacker=14 damage=4,4,3\"`",
        heal="`/heal character method healer` \u2014 `first_aid` (once per wound) or `chirurgy` "
             "(Chirurgery, weekly, when needed)\n`/rest character days` \u2014 healing by the week (7 days a roll)",
        roll_examples="`3d6+2`, `d20 vs 14`",
        decisions="dying (death or survival), an experience check, a gentle fall",
        initiative="`/encounter initiative` keeps the order they joined: both sides of an exchange roll at once; "
                   "`/encounter order` changes it",
    ),
    odds=OddsWords(
        headline=(("Win", top("win")), ("Tie", top("tie")), ("Loss", top("loss")),
                  ("Major wound", top("major_wound")), ("Unconscious", top("unconscious"))),
        chart=(("Win", top("win")), ("Tie", top("tie")), ("Both fail", detail("neither")),
               ("Loss", top("loss")), (NESTED + "knockdown", detail("knockdown")),
               (NESTED + "major wound", top("major_wound")), (NESTED + "unconscious", top("unconscious"))),
        follow_ups="knockdown and major wound",
        # when the attacker rolls alone (the foe cannot strike back): a success hits, anything else misses
        unopposed_headline=(("Hit", top("win")), ("Miss", detail("neither")), ("Major wound", top("major_wound")),
                            ("Unconscious", top("unconscious"))),
        unopposed_chart=(("Hit", top("win")), ("Miss", detail("neither")), (NESTED + "knockdown", detail("knockdown")),
                         (NESTED + "major wound", top("major_wound")), (NESTED + "unconscious", top("unconscious"))),
    ),
    way_out=WayOutWords(
        action_cost="it takes the round",
        does={"prone": "gets up", "unhorsed": "mounts up", "unconscious": "comes round",
              "out_of_fight": "rejoins the fight", "dropped": "picks up the {weapon}",
              "broken": "takes a new {weapon}", "not_in_hand": "readies the {weapon}"},
        ended={"prone": "gets up", "out_of_fight": "is back with the others"},
    ),
    # first aid and chirurgery name the healer after the patient (bot/ui/action_embeds.action_heading)
    action_titles={"first_aid": "gets first aid", "chirurgery": "is treated by a chirurgeon", "stand": "stands up",
                   "knockdown": "rolls against knockdown", "major_wound": "rolls for a major wound",
                   "fall": "rolls to fall safely"},
    bleeding_note="",
    describers="bot.ui.outcomes.pendragon",
    healing_next="healed after {weeks} more weeks of rest (the Healing Rate each week, oldest wound first)",
    secret_fields=frozenset({
        "face", "total", "target", "modifiers", "hit_points", "amount", "fall_damage", "damage_taken",
        "damage_rolled", "armour", "size", "healed", "lost", "harmed",
    }),
)
