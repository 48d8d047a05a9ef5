"""A character sheet parsed into frozen data, and written back as a plain JSON-like dict.

The sheet dict holds ALL persistent state (wounds, conditions, saved points, held weapons,
pending rolls and decisions), because the bot stores it as-is between commands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.ars_harn.catalog import (
    ASPECTS,
    DAMAGE_TYPES,
    HUMAN,
    SEVERITY_ORDER,
    ArmourPiece,
    ArsHarnCatalog,
    Weapon,
    key_of,
)
from rules.errors import SheetError
from rules.parse_memo import ParseMemo
from rules.sheet import as_mapping, get_bool, get_float, get_int, get_list, get_mapping, get_str

CHARACTERISTICS = ("int", "per", "pre", "com", "str", "sta", "dex", "qik")
CONDITIONS = ("shock", "prone", "unconscious", "incapacitated", "dead")
LIMBS = ("left_arm", "right_arm", "left_leg", "right_leg")
SIDES = ("left", "right")
HANDS = ("right", "left")
NATURAL_LIMBS = ("arm", "leg", "head")  # the limb a natural weapon needs usable
# A character's main hand is the right, the off hand the left (docs/rules/ars-harn.md, "Hands").
HAND_ROLES = {"main": "right", "off": "left"}
PENDING_KINDS = ("shock", "kill")
MAX_LIST = 64
MAX_NAME = 80

FIELDS = (
    "name", *CHARACTERISTICS, "size", "abilities", "vf_modifiers", "weapons", "armour", "held", "dropped",
    "wounds", "wound_counter", "injury_levels", "fatigue", "conditions", "saved_points", "saved_rounds",
    "initiative", "tactical_advantage", "pending_rolls", "pending_decision", "unusable_limbs", "severed",
    "rest_days", "notes", "body",
)


@dataclass(frozen=True)
class WoundRec:
    index: int
    location: str
    side: str | None
    aspect: str
    severity: str
    levels: int
    bleeding: bool
    amputated: bool = False
    treated: bool = False
    healing_rate: int | None = None
    source: str = "weapon"

    @property
    def code(self) -> str:
        return f"{self.severity}{self.levels}"

    def where(self) -> str:
        return f"{self.side}_{self.location}" if self.side else self.location

    def to_dict(self, catalog: ArsHarnCatalog) -> dict[str, Any]:
        return {
            "index": self.index,
            "location": self.location,
            "side": self.side,
            "aspect": self.aspect,
            "code": self.code,
            "severity": catalog.severities.get(self.severity, self.severity),
            "levels": self.levels,
            "bleeding": self.bleeding,
            "amputated": self.amputated,
            "treated": self.treated,
            "healing_rate": self.healing_rate,
            "source": self.source,
        }


@dataclass(frozen=True)
class Character:
    name: str
    chars: Mapping[str, int]
    size: int
    abilities: Mapping[str, int]
    vf: Mapping[str, int]
    weapons: tuple[Weapon, ...]
    weapon_specs: tuple[Any, ...]
    armour: tuple[ArmourPiece, ...]
    armour_specs: tuple[Any, ...]
    held: tuple[int | None, int | None]  # right hand, left hand
    dropped: tuple[int, ...] = ()
    wounds: tuple[WoundRec, ...] = ()
    wound_counter: int = 0
    fatigue: int = 0
    conditions: tuple[str, ...] = ()
    saved_points: int = 0
    saved_rounds: int = 0
    initiative: int | None = None
    tactical_advantage: bool = False
    pending_rolls: tuple[Mapping[str, Any], ...] = ()
    pending_decision: Mapping[str, Any] | None = None
    unusable_limbs: tuple[str, ...] = ()
    severed: tuple[str, ...] = ()
    rest_days: int = 0
    notes: str = ""
    body: str | None = None  # a body the pack names (locations.yaml ``bodies``); None: human

    # -- derived -----------------------------------------------------------------------------

    def char(self, key: str) -> int:
        return self.chars.get(key, 0)

    def ability(self, name: str) -> int:
        for known, score in self.abilities.items():
            if key_of(known) == key_of(name):
                return score
        return 0

    def vf_mod(self, roll: str) -> int:
        return self.vf.get(roll, 0)

    @property
    def injury_levels(self) -> int:
        return sum(w.levels for w in self.wounds)

    @property
    def bleeding_wounds(self) -> int:
        return sum(1 for w in self.wounds if w.bleeding)

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def with_condition(self, condition: str, on: bool = True) -> Character:
        current = set(self.conditions)
        if on:
            current.add(condition)
        else:
            current.discard(condition)
        return replace(self, conditions=tuple(c for c in CONDITIONS if c in current))

    def incapable(self) -> str | None:
        """Why this character cannot act at all, or None."""
        for condition in ("dead", "incapacitated", "unconscious", "shock"):
            if self.has(condition):
                return "in shock" if condition == "shock" else condition
        return None

    def held_indices(self) -> list[int]:
        out: list[int] = []
        for index in self.held:
            if index is not None and index not in out:
                out.append(index)
        return out

    def hand_of(self, index: int) -> str | None:
        for hand, held in zip(HANDS, self.held, strict=True):
            if held == index:
                return hand
        return None

    def wound(self, index: int) -> WoundRec | None:
        for w in self.wounds:
            if w.index == index:
                return w
        return None

    def replace_wound(self, new: WoundRec) -> Character:
        return replace(self, wounds=tuple(new if w.index == new.index else w for w in self.wounds))

    def to_dict(self, catalog: ArsHarnCatalog) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        for key in CHARACTERISTICS:
            out[key] = self.chars.get(key, 0)
        out["size"] = self.size
        out["abilities"] = dict(self.abilities)
        out["vf_modifiers"] = dict(self.vf)
        out["weapons"] = [_copy(spec) for spec in self.weapon_specs]
        out["armour"] = [_copy(spec) for spec in self.armour_specs]
        out["held"] = {"right": self.held[0], "left": self.held[1]}
        out["dropped"] = list(self.dropped)
        out["wounds"] = [w.to_dict(catalog) for w in self.wounds]
        out["wound_counter"] = self.wound_counter
        out["injury_levels"] = self.injury_levels
        out["fatigue"] = self.fatigue
        out["conditions"] = list(self.conditions)
        out["saved_points"] = self.saved_points
        out["saved_rounds"] = self.saved_rounds
        out["initiative"] = self.initiative
        out["tactical_advantage"] = self.tactical_advantage
        out["pending_rolls"] = [dict(p) for p in self.pending_rolls]
        out["pending_decision"] = None if self.pending_decision is None else _copy(self.pending_decision)
        out["unusable_limbs"] = list(self.unusable_limbs)
        out["severed"] = list(self.severed)
        out["rest_days"] = self.rest_days
        out["notes"] = self.notes
        if self.body is not None:  # a human sheet has no body field, as before bodies were named
            out["body"] = self.body
        return out


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


# -- parsing -----------------------------------------------------------------------------------


_PARSED: ParseMemo[Character] = ParseMemo()


def parse_character(sheet: Any, who: str, catalog: ArsHarnCatalog) -> Character:
    """The character on ``sheet``; every problem is one SheetError naming ``who`` and the field. A sheet parsed
    before (the same content, the same catalog) is not parsed again (rules/parse_memo.py)."""
    return _PARSED.get(sheet, catalog, lambda: _parse_character(sheet, who, catalog))


def _parse_character(sheet: Any, who: str, catalog: ArsHarnCatalog) -> Character:
    sheet = as_mapping(sheet, who)
    # The pack's sheet description checks the fields a player writes (all mistakes at once, with ranges);
    # what follows reads them and checks the state the bot keeps.
    catalog.sheet.check(sheet, who, catalog)
    name = get_str(sheet, "name", who).strip()
    chars = {key: get_int(sheet, key, who, 0) for key in CHARACTERISTICS}
    size = get_int(sheet, "size", who, 0)
    abilities = _int_map(sheet, "abilities", who)
    vf = _int_map(sheet, "vf_modifiers", who)

    weapon_list = get_list(sheet, "weapons", who, [])
    _cap(weapon_list, "weapons", who)
    weapons: list[Weapon] = []
    weapon_specs: list[Any] = []
    for number, spec in enumerate(weapon_list):
        weapon, normal = _weapon(spec, f"{who}: weapons[{number}]", catalog)
        weapons.append(weapon)
        weapon_specs.append(normal)

    armour_list = get_list(sheet, "armour", who, [])
    _cap(armour_list, "armour", who)
    armour: list[ArmourPiece] = []
    armour_specs: list[Any] = []
    for number, spec in enumerate(armour_list):
        piece, normal = _piece(spec, f"{who}: armour[{number}]", catalog)
        armour.append(piece)
        armour_specs.append(normal)

    dropped = _index_list(sheet, "dropped", who, len(weapons))
    held = _held(sheet, who, weapons, dropped)

    wound_list = get_list(sheet, "wounds", who, [])
    _cap(wound_list, "wounds", who)
    wounds = tuple(_wound(w, f"{who}: wounds[{n}]", catalog) for n, w in enumerate(wound_list))
    next_index = max((w.index for w in wounds), default=0)
    numbered: list[WoundRec] = []
    for w in wounds:
        if w.index == 0:
            next_index += 1
            w = replace(w, index=next_index)
        numbered.append(w)
    wounds = tuple(numbered)
    indices = [w.index for w in wounds]
    if len(set(indices)) != len(indices):
        raise SheetError(f"{who}: field 'wounds' has two wounds with the same index")
    counter = get_int(sheet, "wound_counter", who, max(indices, default=0), low=0, high=100000)
    counter = max(counter, max(indices, default=0))
    get_int(sheet, "injury_levels", who, 0, low=0)  # derived: checked, then recomputed

    fatigue = get_int(sheet, "fatigue", who, 0, low=0, high=len(catalog.numbers.fatigue_levels) - 1)
    conditions = _choice_list(sheet, "conditions", who, CONDITIONS)
    pending = _pending(sheet, who)
    decision_raw = sheet.get("pending_decision")
    decision: Mapping[str, Any] | None = None
    if decision_raw is not None:
        decision_map = get_mapping(sheet, "pending_decision", who)
        kind = get_str(decision_map, "kind", f"{who}: pending_decision", choices=("kill",))
        wound_index = get_int(decision_map, "wound", f"{who}: pending_decision", low=0)
        decision = {"kind": kind, "wound": wound_index, "options": ["death", "incapacitation"]}
    initiative_raw = sheet.get("initiative")
    initiative = None if initiative_raw is None else get_int(sheet, "initiative", who, low=-1000, high=100000)
    notes = get_str(sheet, "notes", who, "")
    body = _body(sheet, who, catalog)
    return Character(
        name=name,
        chars=chars,
        size=size,
        abilities=abilities,
        vf=vf,
        weapons=tuple(weapons),
        weapon_specs=tuple(weapon_specs),
        armour=tuple(armour),
        armour_specs=tuple(armour_specs),
        held=held,
        dropped=tuple(dropped),
        wounds=wounds,
        wound_counter=counter,
        fatigue=fatigue,
        conditions=conditions,
        saved_points=get_int(sheet, "saved_points", who, 0, low=0, high=100000),
        saved_rounds=get_int(sheet, "saved_rounds", who, 0, low=0, high=100000),
        initiative=initiative,
        tactical_advantage=get_bool(sheet, "tactical_advantage", who, False),
        pending_rolls=pending,
        pending_decision=decision,
        unusable_limbs=_choice_list(sheet, "unusable_limbs", who, LIMBS),
        severed=_severed(sheet, who, catalog),
        rest_days=get_int(sheet, "rest_days", who, 0, low=0, high=100000),
        notes=notes,
        body=body,
    )


def _body(sheet: Mapping[str, Any], who: str, catalog: ArsHarnCatalog) -> str | None:
    """The body the sheet names, one the pack holds (its strike table and its words for its parts); None: human."""
    raw = sheet.get("body")
    if raw is None:
        return None
    choices = [HUMAN, *catalog.bodies]
    name = get_str(sheet, "body", who)
    if key_of(name) not in choices:
        raise SheetError(f"{who}: field 'body' must be one of {', '.join(choices)}, not {name!r}")
    return None if key_of(name) == HUMAN else key_of(name)


def _cap(items: list[Any], key: str, who: str) -> None:
    if len(items) > MAX_LIST:
        raise SheetError(f"{who}: field '{key}' may hold at most {MAX_LIST} entries")


def _int_map(sheet: Mapping[str, Any], key: str, who: str) -> dict[str, int]:
    """A name -> score mapping whose names and ranges the sheet description has checked."""
    raw = get_mapping(sheet, key, who, {})
    return {name: get_int(raw, name, f"{who}: {key}") for name in raw}


def _choice_list(sheet: Mapping[str, Any], key: str, who: str, choices: tuple[str, ...]) -> tuple[str, ...]:
    items = get_list(sheet, key, who, [])
    for item in items:
        if not isinstance(item, str) or item not in choices:
            raise SheetError(f"{who}: field '{key}' holds {item!r}, not one of {', '.join(choices)}")
    return tuple(c for c in choices if c in items)


def _index_list(sheet: Mapping[str, Any], key: str, who: str, count: int) -> list[int]:
    items = get_list(sheet, key, who, [])
    out: list[int] = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item < count:
            raise SheetError(f"{who}: field '{key}' holds {item!r}, not a weapon index from 0 to {count - 1}")
        if item not in out:
            out.append(item)
    return sorted(out)


def _held(sheet: Mapping[str, Any], who: str, weapons: list[Weapon],
          dropped: list[int]) -> tuple[int | None, int | None]:
    if "held" not in sheet:
        return default_held(weapons, dropped)
    raw = get_mapping(sheet, "held", who)
    for hand in raw:
        if hand not in HANDS:
            raise SheetError(f"{who}: field 'held' has '{hand}'; hands are right and left")
    out: list[int | None] = []
    for hand in HANDS:
        value = raw.get(hand)
        if value is None:
            out.append(None)
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(weapons):
            raise SheetError(f"{who}: field 'held.{hand}' must be a weapon index from 0 to {len(weapons) - 1}"
                             f" or null, not {value!r}")
        if value in dropped:
            raise SheetError(f"{who}: field 'held.{hand}' names weapon {value}, which is dropped")
        out.append(value)
    right, left = out
    for index in (right, left):
        if index is not None and weapons[index].hands == 2:
            return index, index
    if right is not None and right == left:
        raise SheetError(f"{who}: field 'held' puts one-handed weapon {right} in both hands")
    return right, left


def default_held(weapons: list[Weapon], dropped: list[int]) -> tuple[int | None, int | None]:
    """With no ``held`` field: the first weapon in the right hand, the first shield in the left."""
    usable = [i for i, w in enumerate(weapons) if i not in dropped and w.natural is None]
    main = next((i for i in usable if weapons[i].skill != "Shield"), None)
    shield = next((i for i in usable if weapons[i].skill == "Shield"), None)
    if main is not None and weapons[main].hands == 2:
        return main, main
    if main is None and shield is not None:
        return None, shield
    return main, shield


def _weapon(spec: Any, who: str, catalog: ArsHarnCatalog) -> tuple[Weapon, Any]:
    if isinstance(spec, str):
        weapon = catalog.weapon(spec)
        return weapon, weapon.name
    data = as_mapping(spec, who)
    allowed = ("name", "skill", "weight", "init", "atk", "dfn", "blunt", "edge", "point", "hands", "missile",
               "natural")
    for key in data:
        if key not in allowed:
            raise SheetError(f"{who}: unknown field '{key}' (inline weapons take {', '.join(allowed)})")
    name = get_str(data, "name", who).strip()
    if not name or len(name) > MAX_NAME:
        raise SheetError(f"{who}: field 'name' must be 1 to {MAX_NAME} characters")
    damage: dict[str, int | None] = {}
    for aspect in ASPECTS:
        value = data.get(aspect)
        damage[aspect] = None if value is None else get_int(data, aspect, who, low=0, high=100)
    if all(v is None for v in damage.values()):
        raise SheetError(f"{who}: an inline weapon needs at least one of blunt, edge, point")
    missile: dict[str, int] | None = None
    if data.get("missile") is not None:
        raw = get_mapping(data, "missile", who)
        missile = {}
        for band in raw:
            if band not in catalog.range_bands:
                raise SheetError(f"{who}: field 'missile' has unknown range '{band}' "
                                 f"(ranges: {', '.join(catalog.range_bands)})")
            missile[band] = get_int(raw, band, f"{who}: missile", low=0, high=100)
    # a beast's bite or claws: a part of its body (the limb that wields it), never held, readied or dropped
    natural = data.get("natural")
    if natural is not None and natural not in NATURAL_LIMBS:
        raise SheetError(f"{who}: field 'natural' must be one of {', '.join(NATURAL_LIMBS)}, not {natural!r}")
    weapon = Weapon(
        name=name,
        skill=get_str(data, "skill", who, "Brawling").strip() or "Brawling",
        weight=get_float(data, "weight", who, 0, low=0),
        init=get_int(data, "init", who, 0, low=-20, high=20),
        atk=get_int(data, "atk", who, 0, low=-20, high=20),
        dfn=get_int(data, "dfn", who, 0, low=-20, high=20),
        damage=damage,
        hands=get_int(data, "hands", who, 1, low=1, high=2),
        missile=missile,
        natural=natural,
    )
    if weapon.weight > 1000:
        raise SheetError(f"{who}: field 'weight' must be at most 1000")
    normal: dict[str, Any] = {"name": weapon.name, "skill": weapon.skill, "weight": weapon.weight,
                              "init": weapon.init, "atk": weapon.atk, "dfn": weapon.dfn, **damage,
                              "hands": weapon.hands}
    if missile is not None:
        normal["missile"] = missile
    if natural is not None:
        normal["natural"] = natural
    return weapon, normal


def _piece(spec: Any, who: str, catalog: ArsHarnCatalog) -> tuple[ArmourPiece, Any]:
    if isinstance(spec, str):
        piece = catalog.piece(spec)
        return piece, piece.name
    data = as_mapping(spec, who)
    allowed = ("name", "material", "blunt", "edge", "point", "fire", "locations", "weight")
    for key in data:
        if key not in allowed:
            raise SheetError(f"{who}: unknown field '{key}' (inline armour takes {', '.join(allowed)})")
    name = get_str(data, "name", who).strip()
    if not name or len(name) > MAX_NAME:
        raise SheetError(f"{who}: field 'name' must be 1 to {MAX_NAME} characters")
    material_name = get_str(data, "material", who, "")
    base = dict(catalog.material(material_name)) if material_name else {t: 0 for t in DAMAGE_TYPES}
    protection = {t: get_int(data, t, who, base[t], low=0, high=100) for t in DAMAGE_TYPES}
    raw_locations = get_list(data, "locations", who)
    if not raw_locations or len(raw_locations) > 32:
        raise SheetError(f"{who}: field 'locations' must list 1 to 32 locations")
    locations: list[str] = []
    for item in raw_locations:
        if not isinstance(item, str):
            raise SheetError(f"{who}: field 'locations' holds {item!r}, not a location name")
        key = catalog.location(item).key
        if key not in locations:
            locations.append(key)
    # Seed: "Armor design is as per the Harnmaster rules": a piece of a material weighs its coverage
    # units times the material's pounds per unit unless the sheet gives a weight (no material: 0).
    units = sum(catalog.location(key).coverage for key in locations)
    lb_per_unit = catalog.material_weights.get(key_of(material_name), 0.0) if material_name else 0.0
    weight = get_float(data, "weight", who, round(units * lb_per_unit, 2), low=0)
    if weight > 1000:
        raise SheetError(f"{who}: field 'weight' must be at most 1000")
    piece = ArmourPiece(name=name, material=key_of(material_name) if material_name else "custom",
                        protection=protection, locations=tuple(locations), weight=weight)
    normal: dict[str, Any] = {"name": name, **protection, "locations": list(locations), "weight": weight}
    if material_name:
        normal["material"] = key_of(material_name)
    return piece, normal


def _wound(spec: Any, who: str, catalog: ArsHarnCatalog) -> WoundRec:
    data = as_mapping(spec, who)
    allowed = ("index", "location", "side", "aspect", "code", "severity", "levels", "bleeding", "amputated",
               "treated", "healing_rate", "source")
    for key in data:
        if key not in allowed:
            raise SheetError(f"{who}: unknown field '{key}'")
    location = catalog.location(get_str(data, "location", who))
    code = get_str(data, "code", who).strip().upper()
    if len(code) != 2 or code[0] not in SEVERITY_ORDER or code[1] not in "12345":
        raise SheetError(f"{who}: field 'code' must be like M1, S3, G4 or K5, not '{code}'")
    side_raw = data.get("side")
    side: str | None = None
    if location.paired:
        side = get_str(data, "side", who, "right", choices=SIDES)
    elif side_raw is not None:
        raise SheetError(f"{who}: field 'side' is only for paired locations ({location.label} has one)")
    rate = data.get("healing_rate")
    return WoundRec(
        index=get_int(data, "index", who, 0, low=0, high=100000),  # 0: numbered by parse_character
        location=location.key,
        side=side,
        aspect=get_str(data, "aspect", who, "blunt", choices=DAMAGE_TYPES),
        severity=code[0],
        levels=int(code[1]),
        bleeding=get_bool(data, "bleeding", who, False),
        amputated=get_bool(data, "amputated", who, False),
        treated=get_bool(data, "treated", who, False),
        healing_rate=None if rate is None else get_int(data, "healing_rate", who, low=0, high=10),
        source=get_str(data, "source", who, "weapon", choices=("weapon", "spell", "gm")),
    )


def _pending(sheet: Mapping[str, Any], who: str) -> tuple[Mapping[str, Any], ...]:
    items = get_list(sheet, "pending_rolls", who, [])
    _cap(items, "pending_rolls", who)
    out: list[Mapping[str, Any]] = []
    for number, item in enumerate(items):
        where = f"{who}: pending_rolls[{number}]"
        data = as_mapping(item, where)
        kind = get_str(data, "kind", where, choices=PENDING_KINDS)
        entry: dict[str, Any] = {"kind": kind}
        if kind == "kill":
            entry["wound"] = get_int(data, "wound", where, low=1)
            entry["ease_factor"] = get_int(data, "ease_factor", where, low=0, high=100)
        out.append(entry)
    return tuple(out)


def _severed(sheet: Mapping[str, Any], who: str, catalog: ArsHarnCatalog) -> tuple[str, ...]:
    items = get_list(sheet, "severed", who, [])
    _cap(items, "severed", who)
    for item in items:
        if not isinstance(item, str) or not item or len(item) > MAX_NAME:
            raise SheetError(f"{who}: field 'severed' holds {item!r}, not a part name")
    return tuple(items)
