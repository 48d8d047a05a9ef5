"""Derived scores: penalties, Load and Encumbrance, Damage and Soak Base, armour at a location."""

from __future__ import annotations

from rules.ars_harn.catalog import ArsHarnCatalog
from rules.ars_harn.character import Character
from rules.ars_harn.rulings import Rulings


def fatigue_penalty(c: Character, catalog: ArsHarnCatalog) -> int:
    return catalog.fatigue_level(c.fatigue).penalty


def load(c: Character, catalog: ArsHarnCatalog) -> float:
    """Seed: 10 lb of HarnMaster weight is Load 1 (armour worn and weapons carried, not dropped ones)."""
    pounds = sum(p.weight for p in c.armour)
    pounds += sum(w.weight for i, w in enumerate(c.weapons) if i not in c.dropped)
    return round(pounds / catalog.numbers.pounds_per_load, 2)


def burden(value: float, catalog: ArsHarnCatalog) -> int:
    return sum(1 for threshold in catalog.numbers.burden_thresholds if value >= threshold)


def encumbrance(c: Character, catalog: ArsHarnCatalog) -> int:
    """ArM5: Burden less Strength (a negative Strength is not added)."""
    return max(0, burden(load(c, catalog), catalog) - max(c.char("str"), 0))


def physical_encumbrance(c: Character, catalog: ArsHarnCatalog, rulings: Rulings) -> int:
    """Encumbrance on Attack, Defense, Fumble and Stumble rolls, when the ruling says so."""
    if rulings.encumbrance_on == "initiative_and_physical":
        return encumbrance(c, catalog)
    return 0


def damage_base(c: Character, missile: bool) -> int:
    """Seed: Str + Size in melee, zero in missile combat."""
    return 0 if missile else c.char("str") + c.size


def soak_base(c: Character) -> int:
    """Seed: Sta + Size."""
    return c.char("sta") + c.size


def armour_at(c: Character, location: str, damage_type: str) -> tuple[int, list[str]]:
    """Every layer covering ``location`` adds its protection against ``damage_type``."""
    total = 0
    names: list[str] = []
    for piece in c.armour:
        if location in piece.locations:
            total += piece.protection.get(damage_type, 0)
            names.append(piece.name)
    return total, names


def common_penalty(c: Character, catalog: ArsHarnCatalog) -> dict[str, int]:
    """What every roll that takes wound penalties loses: the total Injury Levels, and fatigue."""
    return {"wounds": -c.injury_levels, "fatigue": fatigue_penalty(c, catalog)}
