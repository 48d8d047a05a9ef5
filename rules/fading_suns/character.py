"""A Fading Suns sheet parsed into frozen state, and written back as a plain mapping.

The sheet holds all persistent state: wounds (each with its index), conditions, dropped weapons,
energy-shield hits used, rolls waiting for the GM and a GM decision waiting to be made.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.errors import SheetError
from rules.fading_suns.catalog import DAMAGE_TYPES, ArmourPiece, EnergyShield, FadingSunsCatalog, Weapon, unknown
from rules.fading_suns.equipment import MAX_KG, get_kg, parse_armour, parse_shield, parse_weapon
from rules.parse_memo import ParseMemo, plain_copy
from rules.sheet import as_mapping, get_bool, get_int, get_list, get_str

CONDITIONS = ("prone", "stunned", "unconscious", "dying", "dead")
DECISION_KINDS = ("death",)
CAUSES = ("wound", "attack", "defense")
STATE_FIELDS = ("size", "build", "skills", "weapons", "armour", "shield", "defense", "gear_kg", "shield_hits_used",
                "wounds", "conditions", "dropped", "pending", "pending_decision", "notes")
MAX_LIST = 200


@dataclass(frozen=True)
class WoundState:
    index: int
    location: str
    severity: str
    damage: int = 0
    type: str | None = None
    treated: bool = False
    progress: int = 0  # days of healing so far towards the next step down

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "location": self.location, "severity": self.severity,
                "damage": self.damage, "type": self.type, "treated": self.treated, "progress": self.progress}


@dataclass(frozen=True)
class PendingRoll:
    """A roll the GM makes later (auto_rolls off): an effect-table column or a stumble/fumble check."""

    id: int
    kind: str  # "effect", or a check name
    column: str | None = None
    wound: int | None = None
    cause: str = "wound"  # wound, attack (a fumbled attack) or defense (a fumbled defense)
    weapon: str | None = None  # for a FUMBLE: the weapon it concerns

    def to_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "kind": self.kind, "column": self.column, "wound": self.wound, "cause": self.cause}
        if self.weapon is not None:
            out["weapon"] = self.weapon
        return out


@dataclass(frozen=True)
class Decision:
    kind: str
    options: tuple[str, ...]
    wound: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "options": list(self.options), "wound": self.wound}


@dataclass(frozen=True)
class Character:
    name: str
    characteristics: tuple[tuple[str, int], ...]
    base_size: int
    build: str
    size: int
    skills: tuple[tuple[str, int], ...]
    weapons: tuple[Weapon, ...]
    weapon_entries: tuple[Any, ...]
    armour: tuple[ArmourPiece, ...]
    armour_entries: tuple[Any, ...]
    shield: EnergyShield | None
    shield_entry: Any
    gear_kg: Fraction
    shield_hits_used: int = 0
    defense: str | None = None  # the defense the sheet makes when the attack names none (None: dodge, ruling)
    wounds: tuple[WoundState, ...] = ()
    conditions: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    pending: tuple[PendingRoll, ...] = ()
    decision: Decision | None = None
    notes: str = ""  # the player's free text

    def char(self, name: str) -> int:
        return dict(self.characteristics)[name]

    def skill(self, name: str, catalog: FadingSunsCatalog) -> int:
        skills = dict(self.skills)
        return skills[name] if name in skills else catalog.natural_skill(name)

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def ready_weapons(self) -> list[Weapon]:
        """The weapons still in hand: the sheet's weapons less the dropped ones (by name, counted)."""
        dropped = Counter(self.dropped)
        out = []
        for weapon in self.weapons:
            if dropped[weapon.name]:
                dropped[weapon.name] -= 1
            else:
                out.append(weapon)
        return out

    def with_conditions(self, add: tuple[str, ...] = (), remove: tuple[str, ...] = ()) -> Character:
        now = (set(self.conditions) | set(add)) - set(remove)
        return dataclasses.replace(self, conditions=tuple(c for c in CONDITIONS if c in now))

    def next_wound_index(self) -> int:
        return max((w.index for w in self.wounds), default=0) + 1

    def next_pending_id(self) -> int:
        return max((p.id for p in self.pending), default=0) + 1

    def wound(self, index: int) -> WoundState | None:
        return next((w for w in self.wounds if w.index == index), None)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        out.update(dict(self.characteristics))
        out.update(
            {
                "size": self.base_size,
                "build": self.build,
                "skills": dict(self.skills),
                # copies: a parsed character is shared (rules/parse_memo.py), the sheet written is not
                "weapons": [plain_copy(e) for e in self.weapon_entries],
                "armour": [plain_copy(e) for e in self.armour_entries],
                "shield": plain_copy(self.shield_entry),
                "gear_kg": round(float(self.gear_kg), 4),
                "shield_hits_used": self.shield_hits_used,
                **({} if self.defense is None else {"defense": self.defense}),
                "wounds": [w.to_dict() for w in self.wounds],
                "conditions": list(self.conditions),
                "dropped": list(self.dropped),
                "pending": [p.to_dict() for p in self.pending],
                "pending_decision": None if self.decision is None else self.decision.to_dict(),
            }
        )
        if self.notes:
            out["notes"] = self.notes
        return out


def _bounded_list(sheet: Mapping[str, Any], key: str, who: str) -> list[Any]:
    items = get_list(sheet, key, who, [])
    if len(items) > MAX_LIST:
        raise SheetError(f"{who}: field '{key}' holds more than {MAX_LIST} entries")
    return items


_PARSED: ParseMemo[Character] = ParseMemo()


def parse(sheet: Any, catalog: FadingSunsCatalog, who: str = "sheet") -> Character:
    """Check every field of ``sheet`` and build the character; each problem is one SheetError line naming
    ``who``. A sheet parsed before (the same content, the same catalog) is not parsed again
    (rules/parse_memo.py)."""
    return _PARSED.get(sheet, catalog, lambda: _parse(sheet, catalog, who))


def _parse(sheet: Any, catalog: FadingSunsCatalog, who: str) -> Character:
    data = as_mapping(sheet, who)
    # The pack's sheet description checks the fields a player writes (every mistake at once, unknown
    # fields included); what follows reads them and checks the state the bot keeps.
    catalog.sheet.check(data, who, catalog)
    name = get_str(data, "name", who).strip()
    low, high = catalog.characteristic_range
    characteristics = tuple(
        (c, get_int(data, c, who, catalog.characteristic_default, low=low, high=high))
        for c in catalog.characteristics
    )
    smin, smax = catalog.size_range
    base_size = get_int(data, "size", who, catalog.size_average, low=smin, high=smax)
    build = get_str(data, "build", who, "average", choices=catalog.build_names())
    size = base_size + catalog.build_modifier(build)
    if not smin <= size <= smax:
        raise SheetError(f"{who}: field 'size' {base_size} with build '{build}' gives {size}, outside {smin}-{smax}")

    skills_raw = data.get("skills", {})
    skills_map = as_mapping(skills_raw, who, "skills")
    skills: dict[str, int] = dict(catalog.natural_skills)
    for key in skills_map:
        if not isinstance(key, str) or not key.strip():
            raise SheetError(f"{who}: skill names must be text, not {key!r}")
        skills[key.strip().lower()] = get_int(skills_map, key, f"{who}: skills", low=0, high=catalog.skill_max)
    if len(skills) > MAX_LIST:
        raise SheetError(f"{who}: field 'skills' holds more than {MAX_LIST} entries")

    weapon_entries = _bounded_list(data, "weapons", who)
    weapons = []
    for number, entry in enumerate(weapon_entries, 1):
        weapons.append(parse_weapon(entry, catalog, f"{who}: weapons[{number}]"))
    armour_key = "armor" if "armor" in data else "armour"
    armour_entries = _bounded_list(data, armour_key, who)
    armour = []
    for number, entry in enumerate(armour_entries, 1):
        armour.append(parse_armour(entry, catalog, f"{who}: armour[{number}]"))
    shield = parse_shield(data.get("shield"), catalog, f"{who}: shield")

    gear = get_kg(data, "gear_kg", who, 0)
    hits_used = get_int(data, "shield_hits_used", who, 0, low=0, high=10_000)

    wounds = _wounds(data, catalog, who)
    conditions = []
    for value in _bounded_list(data, "conditions", who):
        if value not in CONDITIONS:
            raise SheetError(f"{who}: field 'conditions' must hold only {', '.join(CONDITIONS)}, not {value!r}")
        conditions.append(value)
    dropped = []
    names = Counter(w.name for w in weapons)
    for value in _bounded_list(data, "dropped", who):
        if not isinstance(value, str) or names[value] <= 0:
            raise SheetError(f"{who}: field 'dropped' must name weapons on the sheet, not {value!r}")
        names[value] -= 1
        dropped.append(value)
    pending = _pending(data, catalog, who)
    decision = _decision(data, who)

    return Character(
        name=name,
        characteristics=characteristics,
        base_size=base_size,
        build=build,
        size=size,
        skills=tuple(skills.items()),
        weapons=tuple(weapons),
        weapon_entries=tuple(e if isinstance(e, str) else w.to_dict() for e, w in zip(weapon_entries, weapons,
                                                                                       strict=True)),
        armour=tuple(armour),
        armour_entries=tuple(e if isinstance(e, str) else a.to_dict() for e, a in zip(armour_entries, armour,
                                                                                      strict=True)),
        shield=shield,
        shield_entry=None if shield is None else (data["shield"] if isinstance(data["shield"], str)
                                                  else shield.to_dict()),
        gear_kg=gear,
        shield_hits_used=hits_used,
        defense=None if data.get("defense") is None else get_str(
            data, "defense", who, choices=(*catalog.defense_names(), "none")),
        wounds=wounds,
        conditions=tuple(c for c in CONDITIONS if c in conditions),
        dropped=tuple(dropped),
        pending=pending,
        decision=decision,
        notes=get_str(data, "notes", who, ""),
    )


def _wounds(data: Mapping[str, Any], catalog: FadingSunsCatalog, who: str) -> tuple[WoundState, ...]:
    out = []
    seen: set[int] = set()
    for number, entry in enumerate(_bounded_list(data, "wounds", who), 1):
        where = f"{who}: wounds[{number}]"
        w = as_mapping(entry, where)
        for key in w:
            if key not in ("index", "location", "severity", "damage", "type", "treated", "progress"):
                raise SheetError(f"{where}: field '{key}' is not a wound field")
        index = get_int(w, "index", where, number, low=1, high=100_000)
        if index in seen:
            raise SheetError(f"{where}: field 'index' {index} is used by another wound")
        seen.add(index)
        location = get_str(w, "location", where)
        if location not in catalog.location_names():
            raise unknown("location", location, catalog.location_names())
        severity = get_str(w, "severity", where, choices=catalog.severity_names())
        damage_type = w.get("type")
        if damage_type is not None and damage_type not in DAMAGE_TYPES:
            raise SheetError(f"{where}: field 'type' must be one of {', '.join(DAMAGE_TYPES)}, not {damage_type!r}")
        out.append(
            WoundState(
                index=index,
                location=location,
                severity=severity,
                damage=get_int(w, "damage", where, 0, low=0, high=10_000),
                type=damage_type,
                treated=get_bool(w, "treated", where, False),
                progress=get_int(w, "progress", where, 0, low=0, high=100_000),
            )
        )
    return tuple(out)


def _pending(data: Mapping[str, Any], catalog: FadingSunsCatalog, who: str) -> tuple[PendingRoll, ...]:
    out = []
    seen: set[int] = set()
    kinds = ("effect", *(c.name for c in catalog.checks))
    columns = tuple(c for c, _ in catalog.effect_columns)
    for number, entry in enumerate(_bounded_list(data, "pending", who), 1):
        where = f"{who}: pending[{number}]"
        p = as_mapping(entry, where)
        for key in p:
            if key not in ("id", "kind", "column", "wound", "cause", "weapon"):
                raise SheetError(f"{where}: field '{key}' is not a pending-roll field")
        pid = get_int(p, "id", where, number, low=1, high=100_000)
        if pid in seen:
            raise SheetError(f"{where}: field 'id' {pid} is used by another pending roll")
        seen.add(pid)
        kind = get_str(p, "kind", where, choices=kinds)
        column = None
        if kind == "effect":
            column = get_str(p, "column", where, choices=columns)
        wound = p.get("wound")
        if wound is not None:
            wound = get_int(p, "wound", where, low=1, high=100_000)
        cause = get_str(p, "cause", where, "wound", choices=CAUSES)
        weapon = p.get("weapon")
        if weapon is not None and not isinstance(weapon, str):
            raise SheetError(f"{where}: field 'weapon' must be text, not {weapon!r}")
        out.append(PendingRoll(pid, kind, column, wound, cause, weapon))
    return tuple(out)


def _decision(data: Mapping[str, Any], who: str) -> Decision | None:
    raw = data.get("pending_decision")
    if raw is None:
        return None
    where = f"{who}: pending_decision"
    d = as_mapping(raw, where)
    kind = get_str(d, "kind", where, choices=DECISION_KINDS)
    options = get_list(d, "options", where)
    if not options or not all(isinstance(o, str) for o in options) or len(options) > 10:
        raise SheetError(f"{where}: field 'options' must list the choices as text")
    wound = d.get("wound")
    if wound is not None:
        wound = get_int(d, "wound", where, low=1, high=100_000)
    return Decision(kind, tuple(options), wound)


def validate_sheet(sheet: Any, catalog: FadingSunsCatalog, who: str = "sheet") -> dict[str, Any]:
    """The sheet checked and normalised (defaults filled); raises SheetError / UnknownEntry."""
    return parse(sheet, catalog, who).to_dict()


__all__ = ["CONDITIONS", "MAX_KG", "Character", "Decision", "PendingRoll", "WoundState", "parse", "validate_sheet"]
