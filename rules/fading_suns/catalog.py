"""The Fading Suns content pack as frozen data: every table the engine reads, loaded from YAML."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.dice import VictoryChart
from rules.errors import UnknownEntry
from rules.sheet_spec import SheetSpec

DAMAGE_TYPES = ("slash", "pierce", "impact", "energy")
MODES = ("melee", "missile")
SEVERITIES = ("minor", "major", "grievous", "crippled")
EFFECT_COLUMNS = ("stun", "stun_uncon", "uncon_death", "death")
CHECK_ROLLS = ("stumble", "fumble")
WOUND_ROLLS = ("none", *CHECK_ROLLS, *EFFECT_COLUMNS)
EFFECTS = ("none", "stun", "unconscious", "death")
RESULTS = ("critical", "success", "failure", "critical_failure")
CONSEQUENCES = ("prone", "stunned", "unconscious", "drop_weapon")
# The goal rolls a penalty can reach (encumbrance, wounds by location, conditions).
ROLL_KINDS = ("attack", "dodge", "parry", "stumble", "fumble", "heal", "effect")


def unknown(kind: str, name: str, known: Iterable[str]) -> UnknownEntry:
    """An unknown name, with the closest known ones when there are any."""
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    return UnknownEntry(f"unknown {kind} {name!r}{hint}")


def location_key(text: str) -> str:
    """``Right Arm``, ``right-arm``, ``R.Arm`` as the keys they match: ``right_arm``, ``r.arm``."""
    return "_".join(text.casefold().replace("-", " ").replace("_", " ").split())


def kg(value: Fraction) -> float:
    """A weight for display: kilograms to two decimals."""
    return round(float(value), 2)


@dataclass(frozen=True)
class Weapon:
    name: str
    damage: int
    type: str
    modes: tuple[str, ...]
    skill: str
    characteristic: str = "dex"
    goal: int = 0
    init: int = 0
    weight: Fraction = Fraction(0)
    ignores_armour: bool = False
    ignores_shield: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "damage": self.damage,
            "type": self.type,
            "modes": list(self.modes),
            "skill": self.skill,
            "characteristic": self.characteristic,
            "goal": self.goal,
            "init": self.init,
            "weight": round(float(self.weight), 4),
        }
        if self.ignores_armour:
            out["ignores_armour"] = True
        if self.ignores_shield:
            out["ignores_shield"] = True
        return out


@dataclass(frozen=True)
class Material:
    name: str
    ratings: tuple[tuple[str, int], ...]
    suit_weight: Fraction
    penalties: tuple[tuple[str, int], ...] = ()  # FS 2e armour Dex/Vigor penalties of a full suit, e.g. (("dex", -1),)


@dataclass(frozen=True)
class ArmourPiece:
    """One worn piece: its ratings per damage type, the locations it covers and its own weight."""

    name: str
    ratings: tuple[tuple[str, int], ...]
    covers: tuple[str, ...]
    suit_weight: Fraction = Fraction(0)
    weight: Fraction | None = None  # given outright; otherwise from the suit weight and the shares
    penalties: tuple[tuple[str, int], ...] = ()  # a full suit's Dex/Vigor penalties (negative)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "covers": list(self.covers)}
        out.update(dict(self.ratings))
        if self.weight is not None:
            out["weight"] = round(float(self.weight), 4)
        else:
            out["suit_weight"] = round(float(self.suit_weight), 4)
        for trait, value in self.penalties:
            if value:
                out[f"{trait}_penalty"] = value
        return out

    def penalty(self, trait: str) -> int:
        return dict(self.penalties).get(trait, 0)

    def rating(self, damage_type: str) -> int:
        return dict(self.ratings).get(damage_type, 0)


@dataclass(frozen=True)
class EnergyShield:
    name: str
    min: int
    max: int
    hits: int
    weight: Fraction = Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "min": self.min, "max": self.max, "hits": self.hits,
                "weight": round(float(self.weight), 4)}


@dataclass(frozen=True)
class WoundEffect:
    roll: str
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Location:
    name: str
    label: str
    ranges: tuple[tuple[str, int, int], ...]  # (column, low, high)
    armour_share: int  # percent of a full suit's weight
    affects: tuple[str, ...]
    wounds: tuple[tuple[str, WoundEffect], ...]
    called_shot: int = 0

    def wound_effect(self, severity: str) -> WoundEffect:
        return dict(self.wounds).get(severity, WoundEffect("none"))

    def covers_face(self, column: str, face: int) -> bool:
        return any(col == column and low <= face <= high for col, low, high in self.ranges)


@dataclass(frozen=True)
class Severity:
    name: str
    threshold: Fraction  # a multiple of Size
    inclusive: bool  # at_least (True) or above (False)
    goal: int
    initiative: int
    heal_days: int | None
    treated_heal_days: int | None

    def reached(self, damage: int, size: int) -> bool:
        limit = self.threshold * size
        return damage >= limit if self.inclusive else damage > limit


@dataclass(frozen=True)
class EncumbranceBand:
    at: Fraction
    modifier: int


@dataclass(frozen=True)
class Check:
    """A STUMBLE or FUMBLE roll: its goal and the consequences of each result."""

    name: str
    characteristic: str
    skill: str  # a skill name, or "weapon" for the ready weapon's skill
    outcomes: tuple[tuple[str, tuple[str, ...]], ...]

    def consequences(self, result: str) -> tuple[str, ...]:
        return dict(self.outcomes).get(result, ())


@dataclass(frozen=True)
class Defense:
    name: str
    characteristic: str
    skill: str
    against: tuple[str, ...]
    critical_failure_check: str | None


@dataclass(frozen=True)
class Healing:
    characteristic: str
    skills: tuple[tuple[str, tuple[str, ...]], ...]
    default_skill: str
    self_treatment: int
    days_per_victory_point: int

    def treats(self, skill: str) -> tuple[str, ...] | None:
        return dict(self.skills).get(skill)


@dataclass(frozen=True)
class FadingSunsCatalog:
    chart: VictoryChart
    characteristics: tuple[str, ...]
    characteristic_default: int
    characteristic_range: tuple[int, int]
    skill_max: int
    natural_skills: tuple[tuple[str, int], ...]
    size_range: tuple[int, int]
    size_average: int
    anchor_kg: Fraction
    size_step: Fraction
    builds: tuple[tuple[str, int], ...]
    strength_power: int
    encumbrance: tuple[EncumbranceBand, ...]
    encumbrance_applies_to: tuple[str, ...]
    columns: tuple[str, ...]
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    locations: tuple[Location, ...]
    severities: tuple[Severity, ...]
    effect_characteristic: str
    effect_times: int
    effect_columns: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    healing: Healing
    checks: tuple[Check, ...]
    defenses: tuple[Defense, ...]
    attack_critical_failure_check: str | None
    condition_modifiers: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    effect_die_sides: int
    effect_die_success: int
    sheet: SheetSpec
    unarmed: tuple[str, ...] = ()
    weapons: Mapping[str, Weapon] = field(default_factory=dict)
    materials: Mapping[str, Material] = field(default_factory=dict)
    armour: Mapping[str, ArmourPiece] = field(default_factory=dict)
    shields: Mapping[str, EnergyShield] = field(default_factory=dict)
    npcs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    # -- the Catalog protocol -----------------------------------------------------------------

    def weapon_names(self) -> Sequence[str]:
        return sorted(self.weapons)

    def armour_names(self) -> Sequence[str]:
        return sorted(self.armour)

    def shield_names(self) -> Sequence[str]:
        return sorted(self.shields)

    def npc_templates(self) -> Mapping[str, Mapping[str, Any]]:
        return self.npcs

    def location_labels(self) -> Mapping[str, str]:
        return {loc.name: loc.label or loc.name for loc in self.locations}

    def sheet_names(self, items: str) -> Sequence[str]:
        """The names a sheet field may take: weapons, armour, energy shields, or the skills the weapons use."""
        if items == "weapons":
            return [name for name in self.weapon_names() if name not in self.unarmed]
        if items == "armour":
            return self.armour_names()
        if items == "shields":
            return self.shield_names()
        if items == "skills":
            return sorted({w.skill for w in self.weapons.values()})
        return []

    def item_problem(self, items: str, name: str) -> str | None:
        tables: dict[str, tuple[Mapping[str, Any], str]] = {
            "weapons": (self.weapons, "weapon"), "armour": (self.armour, "armour"),
            "shields": (self.shields, "energy shield")}
        if items not in tables or name.strip() in tables[items][0]:
            return None
        table, what = tables[items]
        return str(unknown(what, name, table))

    # -- lookups ------------------------------------------------------------------------------

    def location(self, name: str) -> Location:
        for loc in self.locations:
            if loc.name == name:
                return loc
        raise KeyError(name)

    def location_names(self) -> tuple[str, ...]:
        return tuple(loc.name for loc in self.locations)

    def find_location(self, text: str) -> Location | None:
        """The location ``text`` names however it is typed: ``right_arm``, ``Right Arm``, ``right-arm`` or the
        sheet's short label ``R.Arm`` (case, spaces, hyphens and underscores do not matter)."""
        wanted = location_key(text)
        for loc in self.locations:
            if wanted in (loc.name, location_key(loc.label)):
                return loc
        return None

    @staticmethod
    def display_name(name: str) -> str:
        """A location as players read it: ``right arm`` (mid-sentence; the sheet capitalises it)."""
        return name.replace("_", " ")

    def location_for(self, column: str, face: int) -> Location:
        for loc in self.locations:
            if loc.covers_face(column, face):
                return loc
        raise KeyError(f"{column} {face}")

    def severity(self, name: str) -> Severity:
        for sev in self.severities:
            if sev.name == name:
                return sev
        raise KeyError(name)

    def severity_names(self) -> tuple[str, ...]:
        return tuple(sev.name for sev in self.severities)

    def classify(self, damage: int, size: int) -> Severity | None:
        """The worst severity whose threshold this final damage reaches, or None (no wound)."""
        found: Severity | None = None
        for sev in self.severities:
            if sev.reached(damage, size):
                found = sev
        return found

    def effect(self, column: str, result: str) -> str:
        return dict(dict(self.effect_columns)[column])[result]

    def check(self, name: str) -> Check:
        for chk in self.checks:
            if chk.name == name:
                return chk
        raise KeyError(name)

    def defense(self, name: str) -> Defense | None:
        for d in self.defenses:
            if d.name == name:
                return d
        return None

    def defense_names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.defenses)

    def build_modifier(self, build: str) -> int:
        return dict(self.builds)[build]

    def build_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.builds)

    def natural_skill(self, skill: str) -> int:
        return dict(self.natural_skills).get(skill, 0)

    def condition_modifier(self, condition: str, kind: str) -> int:
        return dict(dict(self.condition_modifiers).get(condition, ())).get(kind, 0)

    def expand_covers(self, names: Sequence[str]) -> tuple[str, ...] | None:
        """Location and group names to location names in table order; None if one is unknown."""
        groups = dict(self.groups)
        known = set(self.location_names())
        chosen: set[str] = set()
        for name in names:
            if name in groups:
                chosen.update(groups[name])
            elif name in known:
                chosen.add(name)
            else:
                return None
        return tuple(n for n in self.location_names() if n in chosen)

    def cover_names(self) -> tuple[str, ...]:
        return (*self.location_names(), *(g for g, _ in self.groups))

    def piece_weight(self, piece: ArmourPiece, normalised: bool = False) -> Fraction:
        """The seed's partial armour: each covered location adds its share (a percent) of the suit weight.
        The seed's shares add up to 110%; ``normalised`` divides by their total instead of by 100."""
        if piece.weight is not None:
            return piece.weight
        shares = sum(self.location(name).armour_share for name in piece.covers)
        basis = sum(loc.armour_share for loc in self.locations) if normalised else 100
        return piece.suit_weight * Fraction(shares, basis)

    def coverage_fraction(self, piece: ArmourPiece) -> Fraction:
        """How much of a full suit a piece is, by the seed's location shares (all seven locations = 1)."""
        total = sum(loc.armour_share for loc in self.locations)
        return Fraction(sum(self.location(name).armour_share for name in piece.covers), total) if total else Fraction(0)
