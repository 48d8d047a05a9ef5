"""A Pendragon sheet: plain mapping in, frozen Character out, and back to a plain mapping.

Every field is read through rules.sheet, so a sheet typed by a player can only fail with a
one-line SheetError (or UnknownEntry for a weapon, armour or horse name the pack lacks).
The pack's sheet description (``catalog.sheet``) checks the fields a player writes first, reporting every
mistake at once; unknown keys are refused there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rules.errors import SheetError, UnknownEntry
from rules.parse_memo import ParseMemo, plain_copy
from rules.pendragon.catalog import STATS, Armour, Horse, PendragonCatalog, Weapon, key
from rules.sheet import as_mapping, get_bool, get_int, get_list, get_str

MAX_LIST = 200
# Derived values a sheet may give to override the pack's formulas (their ranges are in sheet.yaml).
OVERRIDES = ("damage_dice", "hit_points", "unconscious_value", "major_wound_value", "knockdown_value",
             "healing_rate", "move")
FLAGS = ("mounted", "prone", "unconscious", "dying", "mortal", "dead", "out_of_fight",
         "chirurgery_needed", "must_rearm")
ROLL_KINDS = ("knockdown", "major_wound", "fall")


@dataclass(frozen=True)
class WoundRecord:
    index: int
    amount: int
    remaining: int
    major: bool = False
    mortal: bool = False
    first_aid: bool = False
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "amount": self.amount, "remaining": self.remaining, "major": self.major,
                "mortal": self.mortal, "first_aid": self.first_aid, "source": self.source}


@dataclass(frozen=True)
class Character:
    name: str
    stats: Mapping[str, int]
    skills: Mapping[str, int]
    traits: Mapping[str, int]
    weapons: tuple[Weapon, ...]
    armour: tuple[Armour, ...]
    horse: Horse | None
    overrides: Mapping[str, int]
    armour_bonus: int
    wounds: tuple[WoundRecord, ...] = ()
    wounds_taken: int = 0
    mounted: bool = False
    prone: bool = False
    unconscious: bool = False
    dying: bool = False
    mortal: bool = False
    dead: bool = False
    out_of_fight: bool = False
    chirurgery_needed: bool = False
    must_rearm: bool = False
    wielding: str | None = None
    dropped_weapons: tuple[str, ...] = ()
    broken_weapons: tuple[str, ...] = ()
    experience_checks: tuple[str, ...] = ()
    pending_decisions: tuple[Mapping[str, Any], ...] = ()
    pending_rolls: tuple[Mapping[str, Any], ...] = ()
    stats_lost: tuple[Mapping[str, Any], ...] = ()
    notes: str = ""  # the player's free text
    who: str = "sheet"

    # -- reading -------------------------------------------------------------------------------

    def skill(self, name: str) -> int:
        value = self.skills.get(key(name))
        if value is None:
            raise SheetError(f"{self.who}: field 'skills' has no '{key(name)}'")
        return value

    def trait(self, name: str, default: int) -> int:
        return self.traits.get(key(name), default)

    def carried_weapon(self, name: str) -> Weapon | None:
        wanted = key(name)
        for weapon in self.weapons:
            if weapon.name == wanted:
                return weapon
        return None

    def ready_choices(self) -> tuple[str, ...]:
        """The weapons this character may take up in a fight (rearm): a dropped one, or any not broken."""
        whole = [w.name for w in self.weapons if w.name not in self.broken_weapons]
        return tuple(dict.fromkeys([*self.dropped_weapons, *whole]))

    @property
    def body_armour(self) -> tuple[Armour, ...]:
        return tuple(a for a in self.armour if not a.shield)

    @property
    def shield(self) -> Armour | None:
        return next((a for a in self.armour if a.shield), None)

    @property
    def wears_mail(self) -> bool:
        return any(a.mail for a in self.body_armour)

    @property
    def armour_points(self) -> int:
        return sum(a.points for a in self.body_armour) + self.armour_bonus

    @property
    def dex_penalty(self) -> int:
        return sum(a.dex_mod for a in self.armour)

    @property
    def damage_taken(self) -> int:
        return sum(w.remaining for w in self.wounds)

    def with_(self, **changes: Any) -> Character:
        """A copy with ``changes``: what ``dataclasses.replace`` does, without re-running ``__init__`` (a blow
        makes a dozen copies, and exact odds make thousands of blows)."""
        unknown = changes.keys() - _FIELDS
        if unknown:
            raise TypeError(f"Character has no field {sorted(unknown)[0]!r}")
        copy = object.__new__(Character)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy


_FIELDS = frozenset(f.name for f in fields(Character))


# -- parsing ------------------------------------------------------------------------------------


def _name(value: Any, who: str, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SheetError(f"{who}: field '{field}' must be a non-empty name, not {value!r}")
    if len(value) > 100:
        raise SheetError(f"{who}: field '{field}' is longer than 100 characters")
    return value.strip()


def _int_map(sheet: Mapping[str, Any], field: str, who: str) -> dict[str, int]:
    raw = sheet.get(field, {})
    if raw is None:
        return {}
    mapping = as_mapping(raw, who, field)
    if len(mapping) > MAX_LIST:
        raise SheetError(f"{who}: field '{field}' holds more than {MAX_LIST} entries")
    out: dict[str, int] = {}
    for name, _value in mapping.items():
        label = _name(name, who, field)
        out[key(label)] = get_int(mapping, name, f"{who}: {field}")
    return out


def _short_list(sheet: Mapping[str, Any], field: str, who: str) -> list[Any]:
    raw = sheet.get(field)
    if raw is None:
        return []
    items = get_list(sheet, field, who)
    if len(items) > MAX_LIST:
        raise SheetError(f"{who}: field '{field}' holds more than {MAX_LIST} entries")
    return items


def _inline_weapon(data: Mapping[str, Any], who: str, catalog: PendragonCatalog) -> Weapon:
    where = f"{who}: weapons"
    name = key(_name(data.get("name"), where, "name"))
    base: Weapon | None = None
    if data.get("like") is not None:
        base = catalog.weapon(get_str(data, "like", where))
    known = {f.name for f in fields(Weapon)} - {"inline", "name"} | {"like"}
    for field in data:
        if field not in known and field != "name":
            raise SheetError(f"{where}: inline weapon '{name}' has an unknown field '{field}'")

    def num(field: str, default: int, low: int, high: int) -> int:
        return get_int(data, field, f"{where} '{name}'", default, low, high)

    def flag(field: str, default: bool) -> bool:
        return get_bool(data, field, f"{where} '{name}'", default)

    def text(field: str, default: str | None) -> str | None:
        if data.get(field) is None:
            return default
        return key(_name(data.get(field), f"{where} '{name}'", field))

    b = base or Weapon(name=name, skill=name)
    skill = text("skill", b.skill if base else None)
    if skill is None:
        raise SheetError(f"{where}: inline weapon '{name}' needs a 'skill' (or 'like' a pack weapon)")
    fumble = get_str(data, "fumble", f"{where} '{name}'", b.fumble, ("break", "drop", "none"))
    own = data.get("own_dice", b.own_dice)
    own_dice = None if own is None else num("own_dice", 0, 0, 100)
    range_raw = data.get("range_yards", b.range_yards)
    range_yards = None if range_raw is None else num("range_yards", 0, 0, 10000)
    return Weapon(
        name=name, skill=skill, hands=num("hands", b.hands, 1, 2), sword=flag("sword", b.sword), fumble=fumble,
        breakable=flag("breakable", b.breakable), dice_mod=num("dice_mod", b.dice_mod, -20, 20),
        min_dice=num("min_dice", b.min_dice, 0, 20), own_dice=own_dice, bonus=num("bonus", b.bonus, -50, 100),
        halve=flag("halve", b.halve), vs_shield_dice=num("vs_shield_dice", b.vs_shield_dice, 0, 10),
        vs_mail_dice=num("vs_mail_dice", b.vs_mail_dice, 0, 10),
        ignores_shield=flag("ignores_shield", b.ignores_shield),
        natural_1_hits_self=flag("natural_1_hits_self", b.natural_1_hits_self), lance=flag("lance", b.lance),
        charge_skill=text("charge_skill", b.charge_skill),
        charge_uses_horse=flag("charge_uses_horse", b.charge_uses_horse),
        breaks_on_charge=flag("breaks_on_charge", b.breaks_on_charge),
        mounted_only=flag("mounted_only", b.mounted_only),
        negates_mounted_bonus=flag("negates_mounted_bonus", b.negates_mounted_bonus),
        missile=flag("missile", b.missile), range_yards=range_yards, inline=True,
    )


def _inline_armour(data: Mapping[str, Any], who: str) -> Armour:
    where = f"{who}: armour"
    name = key(_name(data.get("name"), where, "name"))
    for field in data:
        if field not in ("name", "points", "dex_mod", "heavy", "mail", "shield"):
            raise SheetError(f"{where}: inline piece '{name}' has an unknown field '{field}'")
    w = f"{where} '{name}'"
    return Armour(name=name, points=get_int(data, "points", w, low=0, high=100),
                  dex_mod=get_int(data, "dex_mod", w, 0, -50, 0), heavy=get_bool(data, "heavy", w),
                  mail=get_bool(data, "mail", w), shield=get_bool(data, "shield", w), inline=True)


def _located(error: UnknownEntry, who: str) -> UnknownEntry:
    return UnknownEntry(f"{who}: {error}")


def _weapons(sheet: Mapping[str, Any], who: str, catalog: PendragonCatalog) -> tuple[Weapon, ...]:
    out: list[Weapon] = []
    for entry in _short_list(sheet, "weapons", who):
        try:
            if isinstance(entry, str):
                out.append(catalog.weapon(entry))
            elif isinstance(entry, Mapping):
                out.append(_inline_weapon(entry, who, catalog))
            else:
                raise SheetError(f"{who}: field 'weapons' entries must be names or mappings, not {entry!r}")
        except UnknownEntry as exc:
            raise _located(exc, who) from None
    names = [w.name for w in out]
    if len(set(names)) != len(names):
        raise SheetError(f"{who}: field 'weapons' names a weapon twice")
    return tuple(out)


def _armour(sheet: Mapping[str, Any], who: str, catalog: PendragonCatalog) -> tuple[Armour, ...]:
    out: list[Armour] = []
    for entry in _short_list(sheet, "armour", who):
        try:
            if isinstance(entry, str):
                out.append(catalog.armour_piece(entry))
            elif isinstance(entry, Mapping):
                out.append(_inline_armour(entry, who))
            else:
                raise SheetError(f"{who}: field 'armour' entries must be names or mappings, not {entry!r}")
        except UnknownEntry as exc:
            raise _located(exc, who) from None
    if sum(1 for a in out if a.shield) > 1:
        raise SheetError(f"{who}: field 'armour' lists more than one shield")
    return tuple(out)


def _horse(sheet: Mapping[str, Any], who: str, catalog: PendragonCatalog) -> Horse | None:
    raw = sheet.get("horse")
    if raw is None:
        return None
    if isinstance(raw, str):
        try:
            return catalog.horse(raw)
        except UnknownEntry as exc:
            raise _located(exc, who) from None
    data = as_mapping(raw, who, "horse")
    for field in data:
        if field not in ("name", "damage_dice"):
            raise SheetError(f"{who}: field 'horse' has an unknown field '{field}'")
    return Horse(name=key(_name(data.get("name"), who, "horse.name")),
                 damage_dice=get_int(data, "damage_dice", f"{who}: horse", low=0, high=100), inline=True)


def _wounds(sheet: Mapping[str, Any], who: str) -> tuple[WoundRecord, ...]:
    out: list[WoundRecord] = []
    for number, raw in enumerate(_short_list(sheet, "wounds", who), 1):
        data = as_mapping(raw, f"{who}: wounds", f"#{number}")
        w = f"{who}: wound #{number}"
        for field in data:
            if field not in ("index", "amount", "remaining", "major", "mortal", "first_aid", "source"):
                raise SheetError(f"{w} has an unknown field '{field}'")
        amount = get_int(data, "amount", w, low=0, high=100000)
        source = data.get("source", "")
        if not isinstance(source, str) or len(source) > 100:
            raise SheetError(f"{w}: field 'source' must be short text")
        out.append(WoundRecord(
            index=get_int(data, "index", w, number, 1, 1000000), amount=amount,
            remaining=get_int(data, "remaining", w, amount, 0, 100000), major=get_bool(data, "major", w),
            mortal=get_bool(data, "mortal", w), first_aid=get_bool(data, "first_aid", w), source=source))
    indexes = [w.index for w in out]
    if len(set(indexes)) != len(indexes):
        raise SheetError(f"{who}: field 'wounds' uses an index twice")
    return tuple(out)


def _names(sheet: Mapping[str, Any], field: str, who: str) -> tuple[str, ...]:
    return tuple(key(_name(v, who, field)) for v in _short_list(sheet, field, who))


def _records(sheet: Mapping[str, Any], field: str, who: str, kinds: tuple[str, ...] | None = None
             ) -> tuple[Mapping[str, Any], ...]:
    out: list[Mapping[str, Any]] = []
    for number, raw in enumerate(_short_list(sheet, field, who), 1):
        data = as_mapping(raw, f"{who}: {field}", f"#{number}")
        if "kind" in data or kinds is not None:
            get_str(data, "kind", f"{who}: {field} #{number}", choices=kinds)
        out.append(_record_copy(data))  # the memo hands it out for other sheets too
    return tuple(out)


def _record_copy(record: Mapping[str, Any]) -> dict[str, Any]:
    """``dict(record)``, copied all the way down: a parsed character is shared (rules/parse_memo.py)."""
    return {k: plain_copy(v) for k, v in record.items()}


KNOWN_FIELDS = frozenset({"name", *STATS, "skills", "traits", "weapons", "armour", "horse", *OVERRIDES,
                          "armour_bonus", "wounds", "wounds_taken", *FLAGS, "wielding", "dropped_weapons",
                          "broken_weapons", "experience_checks", "pending_decisions", "pending_rolls",
                          "stats_lost", "current_hp", "notes"})


_PARSED: ParseMemo[Character] = ParseMemo()


def parse_character(raw: Any, catalog: PendragonCatalog, who: str = "sheet") -> Character:
    """The character on ``raw``; every problem is one SheetError naming ``who`` and the field. A sheet parsed
    before (the same content, the same catalog) is not parsed again (rules/parse_memo.py): the character kept
    is handed out naming ``who``, as its later errors do."""
    char = _PARSED.get(raw, catalog, lambda: _parse_character(raw, catalog, who))
    return char if char.who == who else char.with_(who=who)


def _parse_character(raw: Any, catalog: PendragonCatalog, who: str) -> Character:
    if raw is None:
        raise SheetError(f"{who}: no sheet was given")
    sheet = as_mapping(raw, who)
    catalog.sheet.check(sheet, who, catalog)
    name = _name(sheet.get("name"), who, "name")
    stats = {s: get_int(sheet, s, who) for s in STATS}
    overrides = {f: get_int(sheet, f, who) for f in OVERRIDES if sheet.get(f) is not None}
    wounds = _wounds(sheet, who)
    flags = {f: get_bool(sheet, f, who) for f in FLAGS}
    wielding_raw = sheet.get("wielding")
    wielding = None if wielding_raw is None else key(_name(wielding_raw, who, "wielding"))
    weapons = _weapons(sheet, who, catalog)
    if wielding is not None and wielding not in {w.name for w in weapons} and wielding != catalog.unarmed:
        raise SheetError(f"{who}: field 'wielding' names '{wielding}', which is not in 'weapons'")
    top = max((w.index for w in wounds), default=0)
    return Character(
        name=name, stats=stats, skills=_int_map(sheet, "skills", who), traits=_int_map(sheet, "traits", who),
        weapons=weapons, armour=_armour(sheet, who, catalog), horse=_horse(sheet, who, catalog),
        overrides=overrides, armour_bonus=get_int(sheet, "armour_bonus", who, 0), wounds=wounds,
        wounds_taken=max(top, get_int(sheet, "wounds_taken", who, 0, 0, 1000000)), wielding=wielding,
        dropped_weapons=_names(sheet, "dropped_weapons", who), broken_weapons=_names(sheet, "broken_weapons", who),
        experience_checks=_names(sheet, "experience_checks", who),
        pending_decisions=_records(sheet, "pending_decisions", who),
        pending_rolls=_records(sheet, "pending_rolls", who, ROLL_KINDS),
        stats_lost=_records(sheet, "stats_lost", who),
        notes=get_str(sheet, "notes", who, ""), who=who, **flags,
    )


# -- writing ------------------------------------------------------------------------------------


def _weapon_entry(weapon: Weapon) -> Any:
    if not weapon.inline:
        return weapon.name
    out = {f.name: getattr(weapon, f.name) for f in fields(Weapon) if f.name != "inline"}
    return out


def _armour_entry(piece: Armour) -> Any:
    if not piece.inline:
        return piece.name
    return {"name": piece.name, "points": piece.points, "dex_mod": piece.dex_mod, "heavy": piece.heavy,
            "mail": piece.mail, "shield": piece.shield}


def character_to_sheet(char: Character, current_hp: int) -> dict[str, Any]:
    out: dict[str, Any] = {"name": char.name}
    out.update(char.stats)
    out["skills"] = dict(char.skills)
    if char.traits:
        out["traits"] = dict(char.traits)
    out["weapons"] = [_weapon_entry(w) for w in char.weapons]
    out["armour"] = [_armour_entry(a) for a in char.armour]
    if char.horse is not None:
        out["horse"] = char.horse.name if not char.horse.inline else {
            "name": char.horse.name, "damage_dice": char.horse.damage_dice}
    out.update(char.overrides)
    if char.armour_bonus:
        out["armour_bonus"] = char.armour_bonus
    out["current_hp"] = current_hp  # for reading only: always recomputed from the wounds
    out["wounds"] = [w.to_dict() for w in char.wounds]
    out["wounds_taken"] = char.wounds_taken
    for flag in FLAGS:
        out[flag] = getattr(char, flag)
    out["wielding"] = char.wielding
    out["dropped_weapons"] = list(char.dropped_weapons)
    out["broken_weapons"] = list(char.broken_weapons)
    out["experience_checks"] = list(char.experience_checks)
    out["pending_decisions"] = [_record_copy(d) for d in char.pending_decisions]
    out["pending_rolls"] = [_record_copy(r) for r in char.pending_rolls]
    out["stats_lost"] = [_record_copy(s) for s in char.stats_lost]
    if char.notes:
        out["notes"] = char.notes
    return out
