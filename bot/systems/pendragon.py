"""King Arthur Pendragon on the bot side: how the commands reach its engine, and its hit-point bar."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.systems.pictures import HitPointWounds, Segment
from bot.systems.profile import SystemProfile, Treatment
from rules.pendragon.catalog import PendragonCatalog
from rules.pendragon.character import parse_character
from rules.pendragon.derived import current_hp, derive
from rules.registry import get_engine

DAYS_PER_WEEK = 7


def _first_blow(value: int, trigger: str) -> int:
    """The smallest blow that counts against ``value``: one more when it must exceed it."""
    return value + 1 if trigger == "exceeds" else value


def picture(sheet: Mapping[str, Any], catalog: Any, rulings: Mapping[str, Any]) -> HitPointWounds | None:
    """Hit points with the thresholds the rulings set (knockdown, major wound), each open wound a segment."""
    if not isinstance(catalog, PendragonCatalog):
        return None
    char = parse_character(sheet, catalog)
    derived = derive(char, catalog)
    defaults = {s.name: s.default for s in get_engine("pendragon").settings}
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
    command_actions={},
    treatments={"first_aid": Treatment("first_aid"), "chirurgy": Treatment("chirurgery")},
    patient_acts=True,  # first_aid and chirurgery act on the patient; the healer is the defender
    modifier_option="modifier",
    rest_days=DAYS_PER_WEEK,
    rest_refusal=f"Pendragon heals by the week: rest {DAYS_PER_WEEK} days or more (days:{2 * DAYS_PER_WEEK} is "
                 "two weeks)",
    pending_field="pending_rolls",
    roll_actions={"knockdown": "knockdown", "major_wound": "major_wound", "fall": "fall"},
    pending_ids=False,
    picture=picture,
)
