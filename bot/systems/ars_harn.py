"""Ars Magica x HarnMaster on the bot side: how the commands reach its engine, and its body diagram."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.systems.pictures import BodyWounds, LocationMark, LocationWound
from bot.systems.profile import SystemProfile, Treatment
from rules.ars_harn.catalog import ArsHarnCatalog
from rules.ars_harn.character import parse_character


def picture(sheet: Mapping[str, Any], catalog: Any, rulings: Mapping[str, Any]) -> BodyWounds | None:
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
    },
    decide_options=("decision",),
    attack_option_names={},
    command_actions={"rearm": ("ready", {})},
    treatments={"chirurgy": Treatment("heal", {"method": "chirurgy"}), "spell": Treatment("heal", {"method": "spell"})},
    patient_acts=False,
    modifier_option="modifier",
    rest_days=1,
    rest_refusal="",
    pending_field="pending_rolls",
    roll_actions={"shock": "shock", "kill": "kill"},
    pending_ids=False,
    picture=picture,
)
