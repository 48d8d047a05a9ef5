"""Weapons, armour pieces and energy shields on a sheet: by content name or inline, checked field by field."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from rules.errors import SheetError
from rules.fading_suns.catalog import (
    DAMAGE_TYPES,
    MODES,
    ArmourPiece,
    EnergyShield,
    FadingSunsCatalog,
    Weapon,
    unknown,
)
from rules.sheet import as_mapping, get_bool, get_int, get_list, get_str

MAX_KG = 100_000


def get_kg(data: Mapping[str, Any], key: str, who: str, default: float | int = 0) -> Fraction:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SheetError(f"{who}: field '{key}' must be a number of kg, not {value!r}")
    if not math.isfinite(value) or value < 0 or value > MAX_KG:
        raise SheetError(f"{who}: field '{key}' must be between 0 and {MAX_KG} kg, not {value!r}")
    return Fraction(str(value))


def _int(data: Mapping[str, Any], key: str, who: str, default: int | None, low: int, high: int) -> int:
    """A whole number field; required when there is no default."""
    if default is None:
        return get_int(data, key, who, low=low, high=high)
    return get_int(data, key, who, default, low=low, high=high)


def _check_keys(data: Mapping[str, Any], allowed: Iterable[str], who: str) -> None:
    allowed = set(allowed)
    for key in data:
        if key not in allowed:
            raise SheetError(f"{who}: field '{key}' is not known here (fields: {', '.join(sorted(allowed))})")


WEAPON_FIELDS = ("name", "damage", "type", "modes", "skill", "characteristic", "goal", "init", "weight",
                 "ignores_armour", "ignores_shield")


def parse_weapon(entry: Any, catalog: FadingSunsCatalog, who: str) -> Weapon:
    """A content weapon name, or a mapping: a content name with overrides, or a whole inline weapon."""
    if isinstance(entry, str):
        weapon = catalog.weapons.get(entry.strip())
        if weapon is None:
            raise unknown("weapon", entry, catalog.weapons)
        return weapon
    data = as_mapping(entry, who)
    _check_keys(data, WEAPON_FIELDS, who)
    name = get_str(data, "name", who).strip()
    if not name:
        raise SheetError(f"{who}: field 'name' must not be empty")
    base = catalog.weapons.get(name)
    if base is None:
        base = Weapon(name, -1, "", ("melee",), "melee")
    new = base.damage < 0  # not a content weapon: damage and type must be given

    damage = _int(data, "damage", who, None if new else base.damage, 0, 50)
    if new and "type" not in data:
        raise SheetError(f"{who}: field 'type' is missing")
    damage_type = get_str(data, "type", who, base.type, choices=DAMAGE_TYPES)
    modes_raw = get_list(data, "modes", who, list(base.modes))
    if not modes_raw:
        raise SheetError(f"{who}: field 'modes' must list at least one of {', '.join(MODES)}")
    modes: list[str] = []
    for mode in modes_raw:
        if mode not in MODES:
            raise SheetError(f"{who}: field 'modes' must hold only {', '.join(MODES)}, not {mode!r}")
        if mode not in modes:
            modes.append(mode)
    skill = get_str(data, "skill", who, base.skill).strip().lower()
    if not skill:
        raise SheetError(f"{who}: field 'skill' must not be empty")
    characteristic = get_str(data, "characteristic", who, base.characteristic, choices=catalog.characteristics)
    return Weapon(
        name=name,
        damage=damage,
        type=damage_type,
        modes=tuple(modes),
        skill=skill,
        characteristic=characteristic,
        goal=get_int(data, "goal", who, base.goal, low=-20, high=20),
        init=get_int(data, "init", who, base.init, low=-20, high=20),
        weight=get_kg(data, "weight", who, float(base.weight)),
        ignores_armour=get_bool(data, "ignores_armour", who, base.ignores_armour),
        ignores_shield=get_bool(data, "ignores_shield", who, base.ignores_shield),
    )


ARMOUR_PENALTIES = ("dex", "vigor")
ARMOUR_FIELDS = ("name", "material", "covers", *DAMAGE_TYPES, "suit_weight", "weight",
                 *(f"{t}_penalty" for t in ARMOUR_PENALTIES))


def parse_armour(entry: Any, catalog: FadingSunsCatalog, who: str) -> ArmourPiece:
    """A content piece name, or a mapping: a content piece or material with the locations it covers,
    or inline ratings. Its weight is the suit weight times the covered locations' shares unless given."""
    if isinstance(entry, str):
        piece = catalog.armour.get(entry.strip())
        if piece is None:
            raise unknown("armour", entry, catalog.armour)
        return piece
    data = as_mapping(entry, who)
    _check_keys(data, ARMOUR_FIELDS, who)
    base_piece = catalog.armour.get(data["name"]) if isinstance(data.get("name"), str) else None
    material_name = data.get("material")
    ratings: dict[str, int] = {}
    suit_weight = Fraction(0)
    penalties: dict[str, int] = {}
    covers: tuple[str, ...] = tuple(catalog.location_names())
    if material_name is not None:
        if not isinstance(material_name, str):
            raise SheetError(f"{who}: field 'material' must be text, not {material_name!r}")
        material = catalog.materials.get(material_name)
        if material is None:
            raise unknown("armour material", material_name, catalog.materials)
        ratings, suit_weight, penalties = dict(material.ratings), material.suit_weight, dict(material.penalties)
    elif base_piece is not None:
        ratings, suit_weight, covers = dict(base_piece.ratings), base_piece.suit_weight, base_piece.covers
        penalties = dict(base_piece.penalties)
    for damage_type in DAMAGE_TYPES:
        ratings[damage_type] = get_int(data, damage_type, who, ratings.get(damage_type, 0), low=0, high=50)
    name = get_str(data, "name", who, material_name if isinstance(material_name, str) else "armour").strip()
    if "covers" in data:
        names = get_list(data, "covers", who)
        if not names or not all(isinstance(n, str) for n in names):
            raise SheetError(f"{who}: field 'covers' must list location or group names")
        expanded = catalog.expand_covers(names)
        if expanded is None:
            bad = next(n for n in names if catalog.expand_covers([n]) is None)
            raise unknown("location", bad, catalog.cover_names())
        covers = expanded
    suit_weight = get_kg(data, "suit_weight", who, float(suit_weight))
    weight = get_kg(data, "weight", who) if "weight" in data else None
    for trait in ARMOUR_PENALTIES:
        penalties[trait] = get_int(data, f"{trait}_penalty", who, penalties.get(trait, 0), low=-20, high=0)
    return ArmourPiece(name, tuple((t, ratings[t]) for t in DAMAGE_TYPES), covers, suit_weight, weight,
                       tuple((t, v) for t, v in penalties.items() if v))


def parse_shield(entry: Any, catalog: FadingSunsCatalog, who: str) -> EnergyShield | None:
    if entry is None:
        return None
    if isinstance(entry, str):
        shield = catalog.shields.get(entry.strip())
        if shield is None:
            raise unknown("energy shield", entry, catalog.shields)
        return shield
    data = as_mapping(entry, who)
    _check_keys(data, ("name", "min", "max", "hits", "weight"), who)
    base = catalog.shields.get(data["name"]) if isinstance(data.get("name"), str) else None
    name = get_str(data, "name", who, "shield")
    low = _int(data, "min", who, None if base is None else base.min, 0, 100)
    high = _int(data, "max", who, None if base is None else base.max, low, 100)
    hits = _int(data, "hits", who, None if base is None else base.hits, 1, 1000)
    weight = get_kg(data, "weight", who, 0 if base is None else float(base.weight))
    return EnergyShield(name, low, high, hits, weight)
