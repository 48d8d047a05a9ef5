"""The ars-harn content pack as frozen data: weapons, armour, locations and the rule numbers.

Built by ``content/ars_harn/schema.py`` from YAML; nothing here holds a game table of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cached_property
from typing import Any

from rules.errors import UnknownEntry
from rules.sheet_spec import SheetSpec

ASPECTS = ("blunt", "edge", "point")
DAMAGE_TYPES = ("blunt", "edge", "point", "fire")
AIMS = ("high", "mid", "low")
SEVERITY_ORDER = ("M", "S", "G", "K")


def key_of(name: str) -> str:
    """The lookup key of a name: case, spaces and hyphens do not matter."""
    return "_".join(name.strip().lower().replace("-", " ").split())


def unknown(kind: str, name: str, known: Sequence[str]) -> UnknownEntry:
    close = get_close_matches(name, list(known), n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    return UnknownEntry(f"unknown {kind} '{name}'{hint}")


@dataclass(frozen=True)
class Weapon:
    name: str
    skill: str
    weight: float
    init: int
    atk: int
    dfn: int
    damage: Mapping[str, int | None]
    hands: int = 1
    natural: str | None = None
    missile: Mapping[str, int] | None = None

    def has(self, aspect: str) -> bool:
        return self.damage.get(aspect) is not None

    def aspects(self) -> tuple[str, ...]:
        return tuple(a for a in ASPECTS if self.has(a))

    def impact(self, aspect: str, range_band: str | None) -> int:
        """The weapon's damage for ``aspect`` (a missile's by range band)."""
        if self.missile is not None and range_band is not None and range_band in self.missile:
            return self.missile[range_band]
        value = self.damage.get(aspect)
        return 0 if value is None else value


@dataclass(frozen=True)
class ArmourPiece:
    name: str
    material: str
    protection: Mapping[str, int]
    locations: tuple[str, ...]
    weight: float


@dataclass(frozen=True)
class Location:
    key: str
    label: str
    paired: bool
    injuries: tuple[str, ...]
    limb: str | None = None
    amputation: bool = False
    severing_kills: bool = False
    coverage: float = 0.0  # HM3 coverage units: an inline piece weighs their sum x its material's lb per unit


@dataclass(frozen=True)
class StrikeRange:
    location: str
    low: int
    high: int


HUMAN = "human"  # the body a sheet has when it names none, and the strike table the research holds


@dataclass(frozen=True)
class Body:
    """A body a sheet may name (locations.yaml ``bodies``, ruling 21): the strike table it rolls on, and its words
    for the table's parts and limbs where they are not the human ones (a quadruped's ``hand`` is its forepaw)."""

    key: str
    strike_table: str = HUMAN
    parts: Mapping[str, str] = field(default_factory=dict)
    limbs: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Treatment:
    treatment: str
    bonus: int
    rates: Mapping[str, int]


@dataclass(frozen=True)
class FatigueLevel:
    name: str
    penalty: int


@dataclass(frozen=True)
class Numbers:
    """Single figures and small tables from rules.yaml."""

    ease_factors: Mapping[str, int]
    amputation_wound: str
    body_level_wounds: tuple[tuple[int, str], ...]
    body_level_location: str
    healing_spell_heals_up_to: int
    healing_spell_reduced_wound: str
    severity_by_levels: Mapping[int, str]
    fatigue_levels: tuple[FatigueLevel, ...]
    burden_thresholds: tuple[int, ...]
    pounds_per_load: int
    healing_interval_days: int
    treatment: Mapping[str, Mapping[str, Treatment]]
    automatic_healing_rate: int


@dataclass(frozen=True)
class ArsHarnCatalog:
    weapons: Mapping[str, Weapon]
    armour: Mapping[str, ArmourPiece]
    materials: Mapping[str, Mapping[str, int]]
    locations: Mapping[str, Location]
    strike_table: Mapping[str, tuple[StrikeRange, ...]]
    aim_modifiers: Mapping[str, int]
    injury_bands: tuple[int, ...]
    severities: Mapping[str, str]
    range_bands: tuple[str, ...]
    numbers: Numbers
    sheet: SheetSpec
    npcs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    material_weights: Mapping[str, float] = field(default_factory=dict)  # lb per coverage unit
    strike_tables: Mapping[str, Mapping[str, tuple[StrikeRange, ...]]] = field(default_factory=dict)  # + human
    bodies: Mapping[str, Body] = field(default_factory=dict)  # besides the human body

    # -- the Catalog protocol ----------------------------------------------------------------

    def weapon_names(self) -> Sequence[str]:
        return list(self.weapons)

    def armour_names(self) -> Sequence[str]:
        return list(self.armour)

    def npc_templates(self) -> Mapping[str, Mapping[str, Any]]:
        return self.npcs

    def location_labels(self) -> Mapping[str, str]:
        return {}  # an attack aims high, mid or low; the strike table picks the location

    def defense_names(self) -> tuple[str, ...]:
        return ()  # the defender's player chooses no defence before the blow

    def sheet_names(self, items: str) -> Sequence[str]:
        """The names a sheet field may take: weapons (natural ones come without asking), armour, or the
        skills the pack's weapons use."""
        if items == "weapons":
            return [name for name, weapon in self.weapons.items() if weapon.natural is None]
        if items == "armour":
            return list(self.armour)
        if items == "skills":
            return sorted({weapon.skill for weapon in self.weapons.values()})
        return []

    def item_problem(self, items: str, name: str) -> str | None:
        try:
            if items == "weapons":
                self.weapon(name)
            elif items == "armour":
                self.piece(name)
        except UnknownEntry as exc:
            return str(exc)
        return None

    # -- look-ups ----------------------------------------------------------------------------

    # Name look-ups by key, built once (sheets are parsed on every action, and the odds re-run it
    # thousands of times); the first name with a key wins, as a scan in order would.
    @cached_property
    def _weapons_by_key(self) -> dict[str, Weapon]:
        found: dict[str, Weapon] = {}
        for known, weapon in self.weapons.items():
            found.setdefault(key_of(known), weapon)
        return found

    @cached_property
    def _armour_by_key(self) -> dict[str, ArmourPiece]:
        found: dict[str, ArmourPiece] = {}
        for known, piece in self.armour.items():
            found.setdefault(key_of(known), piece)
        return found

    def weapon(self, name: str) -> Weapon:
        found = self._weapons_by_key.get(key_of(name))
        if found is None:
            raise unknown("weapon", name, list(self.weapons))
        return found

    def piece(self, name: str) -> ArmourPiece:
        found = self._armour_by_key.get(key_of(name))
        if found is None:
            raise unknown("armour piece", name, list(self.armour))
        return found

    def material(self, name: str) -> Mapping[str, int]:
        found = self.materials.get(key_of(name))
        if found is None:
            raise unknown("armour material", name, list(self.materials))
        return found

    def location(self, name: str) -> Location:
        found = self.locations.get(key_of(name))
        if found is None:
            raise unknown("location", name, list(self.locations))
        return found

    def strike(self, aim: str, roll: int, body: str | None = None) -> Location:
        """The location a d100 ``roll`` strikes at ``aim``, on the strike table of the target's ``body``."""
        table = self.strike_tables.get(self.body(body).strike_table, self.strike_table)
        for entry in table[aim]:
            if entry.low <= roll <= entry.high:
                return self.locations[entry.location]
        raise UnknownEntry(f"the strike table has no location for {roll} at aim {aim}")

    def body(self, name: str | None) -> Body:
        """A sheet's ``body`` (None or ``human``: the human body, which words every part as the table does)."""
        if name is None or key_of(name) == HUMAN:
            return Body(HUMAN)
        found = self.bodies.get(key_of(name))
        if found is None:
            raise unknown("body", name, [HUMAN, *self.bodies])
        return found

    def part_word(self, body: str | None, location: str, side: str | None = None) -> str:
        """A location as that body calls it, its side before it: ``right forepaw`` (a wolf), ``right hand``."""
        word = self.body(body).parts.get(location) or self.locations[location].label.lower()
        return f"{side} {word}" if side else word

    def limb_word(self, body: str | None, limb: str) -> str:
        """An unusable limb (``right_arm``) as that body calls it: ``right foreleg``, ``right arm``."""
        side, _, kind = limb.partition("_")
        if not kind:
            return limb.replace("_", " ")
        return f"{side} {self.body(body).limbs.get(kind, kind)}"

    def injury_code(self, location: Location, impact: int) -> str | None:
        """The injury for an Effective Impact at ``location`` (None below the first band)."""
        code: str | None = None
        for start, cell in zip(self.injury_bands, location.injuries, strict=True):
            if impact >= start:
                code = cell
        return code

    def band_index(self, impact: int) -> int | None:
        index: int | None = None
        for number, start in enumerate(self.injury_bands):
            if impact >= start:
                index = number
        return index

    def fatigue_level(self, level: int) -> FatigueLevel:
        levels = self.numbers.fatigue_levels
        return levels[max(0, min(level, len(levels) - 1))]

    def severity_for(self, levels: int) -> str:
        table = self.numbers.severity_by_levels
        if levels in table:
            return table[levels]
        return table[max(table)] if levels > max(table) else table[min(table)]
