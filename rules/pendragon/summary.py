"""Checking a whole sheet, and the summary a character embed shows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.model import SheetSummary, Wound
from rules.pendragon.catalog import PendragonCatalog
from rules.pendragon.character import Character, character_to_sheet, parse_character
from rules.pendragon.derived import current_hp, derive


def to_sheet(char: Character, catalog: PendragonCatalog) -> dict[str, Any]:
    return character_to_sheet(char, current_hp(char, catalog))


def validate_sheet(sheet: Mapping[str, Any], catalog: PendragonCatalog, who: str = "sheet") -> dict[str, Any]:
    return to_sheet(parse_character(sheet, catalog, who), catalog)


def condition(char: Character) -> str:
    for flag in ("dead", "dying", "unconscious"):
        if getattr(char, flag):
            return flag
    parts = [flag for flag in ("out_of_fight", "prone", "must_rearm", "chirurgery_needed") if getattr(char, flag)]
    if char.mounted:
        parts.insert(0, "mounted")
    elif char.prone and char.horse is not None:
        # down, his horse beside him: both ways up are named as /recover takes them (docs/rules/pendragon.md,
        # "Knocked down and unhorsed"): condition:prone stands him up on foot, condition:unhorsed in the saddle
        parts.insert(parts.index("prone") + 1, "unhorsed")
    return ", ".join(parts) or "ready"


def _shown(name: str) -> str:
    """A pack key as the sheet shows it: ``great_axe`` -> ``great axe``."""
    return name.replace("_", " ")


def summarize(sheet: Mapping[str, Any], catalog: PendragonCatalog) -> SheetSummary:
    char = parse_character(sheet, catalog)
    d = derive(char, catalog)
    hp = current_hp(char, catalog)
    stats = [(s.upper(), str(v)) for s, v in char.stats.items()]
    stats += [("Damage", f"{d.damage_dice}d6"), ("Hit Points", f"{hp}/{d.hit_points}"),
              ("Unconscious", str(d.unconscious)), ("Major Wound", str(d.major_wound)),
              ("Knockdown", str(d.knockdown)), ("Healing Rate", str(d.healing_rate)), ("Move", str(d.move)),
              ("Armour", str(char.armour_points) + (f"+{char.shield.points}" if char.shield else ""))]
    equipment: list[tuple[str, str]] = []
    for weapon in char.weapons:
        state = ("broken" if weapon.name in char.broken_weapons else
                 "dropped" if weapon.name in char.dropped_weapons else str(char.skills.get(weapon.skill, "-")))
        equipment.append((_shown(weapon.name), state))
    equipment += [(_shown(a.name), str(a.points)) for a in char.armour]
    if char.horse is not None:
        equipment.append((_shown(char.horse.name), f"{char.horse.damage_dice}d6"))
    # Pendragon has no hit locations: a wound is its hit points, and major or mortal (the severity says so)
    healed_by = _weeks_to_heal(char, d.healing_rate)
    wounds = tuple(
        Wound(index=w.index, location="", code="mortal" if w.mortal else "major" if w.major else "wound",
              severity="mortal wound" if w.mortal else "major wound" if w.major else "wound", levels=w.remaining,
              note="first aid" if w.first_aid else "",
              next_healing=None if weeks is None else 7 * weeks)
        for w, weeks in zip(char.wounds, healed_by, strict=True))
    return SheetSummary(name=char.name, stats=tuple(stats), equipment=tuple(equipment), wounds=wounds,
                        condition=condition(char))


def _weeks_to_heal(char: Character, healing_rate: int) -> list[int | None]:
    """Each wound's weeks of rest until it is healed: the Healing Rate comes off the wounds each week, oldest
    first (rules.pendragon.recovery.rest). None for all while rest heals nothing: the dead, and whoever needs a
    chirurgeon (untreated, a week's rest deteriorates instead)."""
    if char.dead or char.chirurgery_needed or healing_rate <= 0:
        return [None] * len(char.wounds)
    held = 0
    weeks: list[int | None] = []
    for wound in char.wounds:
        held += wound.remaining
        weeks.append(-(-held // healing_rate))
    return weeks
