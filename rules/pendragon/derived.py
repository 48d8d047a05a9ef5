"""Derived statistics from SIZ, DEX, STR, CON (docs/rules/pendragon.md, rule 1), each overridable on the sheet."""

from __future__ import annotations

from dataclasses import dataclass

from rules.pendragon.catalog import PendragonCatalog
from rules.pendragon.character import Character


def half_up(numerator: int, divisor: int) -> int:
    """Division rounded half up (0.5 -> 1), as the research gives for every derived figure."""
    return (2 * numerator + divisor) // (2 * divisor)


@dataclass(frozen=True)
class Derived:
    damage_dice: int
    hit_points: int
    unconscious: int
    major_wound: int
    knockdown: int
    healing_rate: int
    move: int


# derived figures by (pack, characteristics, overrides): a blow asks for them a dozen times on the same few
_Key = tuple[int, tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
_CACHE: dict[_Key, tuple[PendragonCatalog, Derived]] = {}


def derive(char: Character, catalog: PendragonCatalog) -> Derived:
    key = (id(catalog), tuple(char.stats.items()), tuple(char.overrides.items()))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is catalog:
        return hit[1]
    value = _derive(char, catalog)
    if len(_CACHE) >= 4096:
        _CACHE.clear()
    _CACHE[key] = (catalog, value)
    return value


def _derive(char: Character, catalog: PendragonCatalog) -> Derived:
    s = char.stats
    rules = catalog.derived
    o = char.overrides

    def formula(name: str, value: int) -> int:
        rule = rules[name]
        return max(rule.minimum, half_up(value, rule.divisor))

    hit_points = o.get("hit_points", s["siz"] + s["con"])
    return Derived(
        damage_dice=o.get("damage_dice", formula("damage_dice", s["str"] + s["siz"])),
        hit_points=hit_points,
        unconscious=o.get("unconscious_value", formula("unconscious", hit_points)),
        major_wound=o.get("major_wound_value", s["con"]),
        knockdown=o.get("knockdown_value", s["siz"]),
        healing_rate=o.get("healing_rate", formula("healing_rate", s["str"] + s["con"])),
        move=o.get("move", formula("move", s["str"] + s["dex"])),
    )


def current_hp(char: Character, catalog: PendragonCatalog) -> int:
    """Hit points now: the total less what the recorded wounds still hold."""
    return derive(char, catalog).hit_points - char.damage_taken
