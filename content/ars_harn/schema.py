"""The ars-harn pack: YAML files validated into an ``ArsHarnCatalog``.

Every problem is a ContentError naming the file, the entry and the field.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import Field

from content.errors import ContentError
from content.schema import Strict, entries, require, validate
from content.sheet_schema import build_sheet_spec, check_template
from rules.ars_harn.catalog import (
    AIMS,
    HUMAN,
    ArmourPiece,
    ArsHarnCatalog,
    Body,
    FatigueLevel,
    Location,
    Numbers,
    StrikeRange,
    Treatment,
    Weapon,
    key_of,
)
from rules.ars_harn.character import FIELDS as SHEET_FIELDS
from rules.errors import RulesError

FILES = ("weapons.yaml", "armour.yaml", "locations.yaml", "rules.yaml", "npcs.yaml", "sheet.yaml")
INJURY_CODE = r"^[MSGK][1-5]$"


# -- weapons.yaml ------------------------------------------------------------------------------


class ArsMapping(Strict):
    attack_divisor: int = Field(gt=0)
    defence_divisor: int = Field(gt=0)
    init_by_skill: dict[str, int]


class WeaponEntry(Strict):
    skill: str = Field(min_length=1)
    weight: float = Field(ge=0)
    hm_attack: int | None = Field(default=None, ge=0)
    hm_defence: int | None = Field(default=None, ge=0)
    atk: int | None = None
    dfn: int | None = None
    init: int | None = None
    blunt: int | None = Field(default=None, ge=0)
    edge: int | None = Field(default=None, ge=0)
    point: int | None = Field(default=None, ge=0)
    hands: Literal[1, 2] = 1
    natural: Literal["arm", "leg", "head"] | None = None
    missile: dict[str, int] | None = None
    note: str | None = None


class WeaponsFile(Strict):
    source: str = Field(min_length=1)
    ars_mapping: ArsMapping
    range_bands: list[str] = Field(min_length=1)
    weapons: dict[str, Any]


def _weapons(doc: Any) -> tuple[dict[str, Weapon], tuple[str, ...]]:
    file = "weapons.yaml"
    top = validate(WeaponsFile, doc, file)
    mapping = top.ars_mapping
    out: dict[str, Weapon] = {}
    for name, data in entries(doc, file, "weapons"):
        entry = validate(WeaponEntry, data, file, name)
        if entry.blunt is None and entry.edge is None and entry.point is None:
            raise ContentError(file, name, "blunt", "a weapon needs at least one aspect")
        atk = entry.atk
        if atk is None:
            if entry.hm_attack is None:
                raise ContentError(file, name, "hm_attack", "give hm_attack or atk")
            atk = entry.hm_attack // mapping.attack_divisor
        dfn = entry.dfn
        if dfn is None:
            if entry.hm_defence is None:
                raise ContentError(file, name, "hm_defence", "give hm_defence or dfn")
            dfn = entry.hm_defence // mapping.defence_divisor
        init = entry.init
        if init is None:
            if entry.skill not in mapping.init_by_skill:
                raise ContentError(file, name, "skill", f"'{entry.skill}' has no init in ars_mapping.init_by_skill")
            init = mapping.init_by_skill[entry.skill]
        if entry.missile is not None:
            extra = set(entry.missile) - set(top.range_bands)
            if extra:
                raise ContentError(file, name, "missile", f"unknown range band {sorted(extra)[0]}")
            if sum(1 for v in (entry.blunt, entry.edge, entry.point) if v is not None) != 1:
                raise ContentError(file, name, "missile", "a missile weapon has exactly one aspect")
        out[name] = Weapon(
            name=name,
            skill=entry.skill,
            weight=entry.weight,
            init=init,
            atk=atk,
            dfn=dfn,
            damage={"blunt": entry.blunt, "edge": entry.edge, "point": entry.point},
            hands=entry.hands,
            natural=entry.natural,
            missile=entry.missile,
        )
    return out, tuple(top.range_bands)


# -- armour.yaml -------------------------------------------------------------------------------


class MaterialEntry(Strict):
    blunt: int = Field(ge=0)
    edge: int = Field(ge=0)
    point: int = Field(ge=0)
    fire: int = Field(ge=0)
    lb_per_unit: float = Field(gt=0)


class PieceEntry(Strict):
    material: str
    locations: list[str] = Field(min_length=1)
    units: float = Field(gt=0)
    weight: float = Field(ge=0)


class ArmourFile(Strict):
    source: str = Field(min_length=1)
    materials: dict[str, Any]
    pieces: dict[str, Any]


def _armour(doc: Any, locations: dict[str, Location]
            ) -> tuple[dict[str, dict[str, int]], dict[str, ArmourPiece], dict[str, float]]:
    file = "armour.yaml"
    validate(ArmourFile, doc, file)
    materials: dict[str, dict[str, int]] = {}
    weights: dict[str, float] = {}
    for name, data in entries(doc, file, "materials"):
        m = validate(MaterialEntry, data, file, name)
        materials[key_of(name)] = {"blunt": m.blunt, "edge": m.edge, "point": m.point, "fire": m.fire}
        weights[key_of(name)] = m.lb_per_unit
    pieces: dict[str, ArmourPiece] = {}
    for name, data in entries(doc, file, "pieces"):
        p = validate(PieceEntry, data, file, name)
        material = materials.get(key_of(p.material))
        if material is None:
            raise ContentError(file, name, "material", f"unknown material '{p.material}'")
        for number, loc in enumerate(p.locations):
            if key_of(loc) not in locations:
                raise ContentError(file, name, f"locations.{number}", f"unknown location '{loc}'")
        pieces[name] = ArmourPiece(
            name=name,
            material=key_of(p.material),
            protection=dict(material),
            locations=tuple(key_of(loc) for loc in p.locations),
            weight=p.weight,
        )
    return materials, pieces, weights


# -- locations.yaml ----------------------------------------------------------------------------


class LocationEntry(Strict):
    label: str
    paired: bool
    injuries: list[str] = Field(min_length=5, max_length=5)
    limb: Literal["arm", "leg"] | None = None
    amputation: bool = False
    severing_kills: bool = False
    coverage: float = Field(gt=0)


class StrikeEntry(Strict):
    location: str
    low: int = Field(ge=1, le=100)
    high: int = Field(ge=1, le=100)


class SeverityEntry(Strict):
    label: str


class BodyEntry(Strict):
    strike_table: str = Field(min_length=1)
    parts: dict[str, str] = Field(default_factory=dict)
    limbs: dict[Literal["arm", "leg"], str] = Field(default_factory=dict)


class LocationsFile(Strict):
    source: str = Field(min_length=1)
    injury_bands: list[int] = Field(min_length=5, max_length=5)
    aims: dict[str, int]
    strike_table: dict[str, list[StrikeEntry]]
    strike_tables: dict[str, dict[str, list[StrikeEntry]]] = Field(default_factory=dict)
    locations: dict[str, Any]
    severities: dict[Literal["M", "S", "G", "K"], SeverityEntry]
    bodies: dict[str, BodyEntry] = Field(default_factory=dict)


def _check_code(code: str, file: str, entry: str, field: str) -> None:
    import re

    if not re.match(INJURY_CODE, code):
        raise ContentError(file, entry, field, f"'{code}' is not an injury code like S3")


def _strike_table(file: str, field: str, rows_by_aim: dict[str, list[StrikeEntry]],
                  locations: dict[str, Location]) -> dict[str, tuple[StrikeRange, ...]]:
    """One d100 strike table, per aim: every roll 1-100 covered once, by a known location."""
    for aim in rows_by_aim:
        if aim not in AIMS:
            raise ContentError(file, field=f"{field}.{aim}", message="is not an aim (high, mid, low)")
    table: dict[str, tuple[StrikeRange, ...]] = {}
    for aim in AIMS:
        rows = rows_by_aim.get(aim)
        if not rows:
            raise ContentError(file, field, aim, "is missing")
        covered = [0] * 101
        for number, row in enumerate(rows):
            if key_of(row.location) not in locations:
                raise ContentError(file, f"{field}.{aim}", f"{number}.location", f"unknown '{row.location}'")
            if row.low > row.high:
                raise ContentError(file, f"{field}.{aim}", f"{number}", "low is above high")
            for value in range(row.low, row.high + 1):
                covered[value] += 1
        bad = [v for v in range(1, 101) if covered[v] != 1]
        if bad:
            raise ContentError(file, field, aim, f"roll {bad[0]} is covered {covered[bad[0]]} times, not once")
        table[aim] = tuple(StrikeRange(key_of(r.location), r.low, r.high) for r in rows)
    return table


def _bodies(top: LocationsFile, file: str, locations: dict[str, Location],
            tables: dict[str, Any]) -> dict[str, Body]:
    """Each body's strike table (one the file holds) and its words for the table's parts (known locations)."""
    bodies: dict[str, Body] = {}
    for name, entry in top.bodies.items():
        if key_of(name) == HUMAN:
            raise ContentError(file, "bodies", name, "is the body a sheet has when it names none")
        table = key_of(entry.strike_table)
        if table not in tables:
            raise ContentError(file, f"bodies.{name}", "strike_table",
                               f"unknown '{entry.strike_table}': {', '.join(tables)}")
        for part in entry.parts:
            if key_of(part) not in locations:
                raise ContentError(file, f"bodies.{name}.parts", part, "is not a location")
        parts = {key_of(k): v for k, v in entry.parts.items()}
        limbs = {str(k): v for k, v in entry.limbs.items()}
        bodies[key_of(name)] = Body(key=key_of(name), strike_table=table, parts=parts, limbs=limbs)
    return bodies


def _locations(doc: Any) -> tuple[LocationsFile, dict[str, Location], dict[str, dict[str, tuple[StrikeRange, ...]]],
                                  dict[str, Body]]:
    file = "locations.yaml"
    top = validate(LocationsFile, doc, file)
    bands = top.injury_bands
    if bands != sorted(bands) or len(set(bands)) != len(bands) or bands[0] < 1:
        raise ContentError(file, field="injury_bands", message="must rise from 1 or more")
    locations: dict[str, Location] = {}
    for name, data in entries(doc, file, "locations"):
        e = validate(LocationEntry, data, file, name)
        for number, code in enumerate(e.injuries):
            _check_code(code, file, name, f"injuries.{number}")
        locations[key_of(name)] = Location(
            key=key_of(name), label=e.label, paired=e.paired, injuries=tuple(e.injuries),
            limb=e.limb, amputation=e.amputation, severing_kills=e.severing_kills, coverage=e.coverage,
        )
    for aim in AIMS:
        if aim not in top.aims:
            raise ContentError(file, "aims", aim, "is missing")
    for aim in top.aims:
        if aim not in AIMS:
            raise ContentError(file, field=aim, message="is not an aim (high, mid, low)")
    tables = {HUMAN: _strike_table(file, "strike_table", top.strike_table, locations)}
    for name, rows_by_aim in top.strike_tables.items():
        if key_of(name) in tables:
            raise ContentError(file, "strike_tables", name, "is the file's own strike_table")
        tables[key_of(name)] = _strike_table(file, f"strike_tables.{name}", rows_by_aim, locations)
    return top, locations, tables, _bodies(top, file, locations, tables)


# -- rules.yaml --------------------------------------------------------------------------------


class BodyLevelEntry(Strict):
    body_levels: int = Field(ge=1)
    wound: str


class HealingSpellEntry(Strict):
    heals_up_to_levels: int = Field(ge=0)
    reduced_wound: str


class FatigueEntry(Strict):
    name: str
    penalty: int


class TreatmentEntry(Strict):
    treatment: str
    bonus: int
    NT: int = Field(ge=0)
    CF: int = Field(ge=0)
    MF: int = Field(ge=0)
    MS: int = Field(ge=0)
    CS: int = Field(ge=0)


EASE_KEYS = ("fumble", "stumble", "amputation", "kill_multiplier", "chirurgy_marginal", "chirurgy_critical",
             "healing_marginal", "healing_critical", "fatigue")


class RulesFile(Strict):
    source: str = Field(min_length=1)
    ease_factors: dict[str, int]
    amputation_wound: str
    body_level_wounds: list[BodyLevelEntry] = Field(min_length=1)
    body_level_location: str
    healing_spell: HealingSpellEntry
    severity_by_levels: dict[int, Literal["M", "S", "G", "K"]]
    fatigue_levels: list[FatigueEntry] = Field(min_length=2)
    burden_thresholds: list[int] = Field(min_length=1)
    pounds_per_load: int = Field(gt=0)
    healing_interval_days: int = Field(gt=0)
    treatment: dict[Literal["blunt", "edge", "point", "fire"], dict[Literal["M", "S", "G"], TreatmentEntry]]
    automatic_healing_rate: int = Field(ge=1)


def _numbers(doc: Any, locations: dict[str, Location]) -> Numbers:
    file = "rules.yaml"
    r = validate(RulesFile, doc, file)
    for key in EASE_KEYS:
        if key not in r.ease_factors:
            raise ContentError(file, "ease_factors", key, "is missing")
    _check_code(r.amputation_wound, file, "amputation_wound", "")
    _check_code(r.healing_spell.reduced_wound, file, "healing_spell", "reduced_wound")
    for number, bl in enumerate(r.body_level_wounds):
        _check_code(bl.wound, file, "body_level_wounds", f"{number}.wound")
    if key_of(r.body_level_location) not in locations:
        raise ContentError(file, "body_level_location", message=f"unknown location '{r.body_level_location}'")
    for aspect in ("blunt", "edge", "point", "fire"):
        for sev in ("M", "S", "G"):
            if sev not in r.treatment.get(aspect, {}):
                raise ContentError(file, f"treatment.{aspect}", sev, "is missing")
    if r.burden_thresholds != sorted(r.burden_thresholds):
        raise ContentError(file, "burden_thresholds", message="must rise")
    return Numbers(
        ease_factors=dict(r.ease_factors),
        amputation_wound=r.amputation_wound,
        body_level_wounds=tuple(sorted((b.body_levels, b.wound) for b in r.body_level_wounds)),
        body_level_location=key_of(r.body_level_location),
        healing_spell_heals_up_to=r.healing_spell.heals_up_to_levels,
        healing_spell_reduced_wound=r.healing_spell.reduced_wound,
        severity_by_levels=dict(r.severity_by_levels),
        fatigue_levels=tuple(FatigueLevel(f.name, f.penalty) for f in r.fatigue_levels),
        burden_thresholds=tuple(r.burden_thresholds),
        pounds_per_load=r.pounds_per_load,
        healing_interval_days=r.healing_interval_days,
        treatment={
            aspect: {
                sev: Treatment(t.treatment, t.bonus, {"NT": t.NT, "CF": t.CF, "MF": t.MF, "MS": t.MS, "CS": t.CS})
                for sev, t in rows.items()
            }
            for aspect, rows in r.treatment.items()
        },
        automatic_healing_rate=r.automatic_healing_rate,
    )


# -- npcs.yaml ---------------------------------------------------------------------------------


def _npcs(doc: Any, catalog: ArsHarnCatalog) -> dict[str, dict[str, Any]]:
    from rules.ars_harn.engine import ENGINE

    file = "npcs.yaml"
    require(doc, file, "source")
    out: dict[str, dict[str, Any]] = {}
    for name, data in entries(doc, file, "npcs"):
        if not isinstance(data, dict):
            raise ContentError(file, name, message="must be a sheet (a mapping)")
        try:
            out[name] = ENGINE.validate_sheet(data, catalog)
        except RulesError as exc:
            raise ContentError(file, name, message=str(exc)) from None
    return out


def build(docs: dict[str, Any]) -> ArsHarnCatalog:
    for file in FILES:
        if file not in docs:
            raise ContentError(f"ars-harn/{file}", message="is missing from the pack")
    loc_file, locations, tables, bodies = _locations(docs["locations.yaml"])
    weapons, bands = _weapons(docs["weapons.yaml"])
    materials, pieces, material_weights = _armour(docs["armour.yaml"], locations)
    numbers = _numbers(docs["rules.yaml"], locations)
    catalog = ArsHarnCatalog(
        weapons=weapons,
        armour=pieces,
        materials=materials,
        locations=locations,
        strike_table=tables[HUMAN],
        strike_tables=tables,
        bodies=bodies,
        aim_modifiers=dict(loc_file.aims),
        injury_bands=tuple(loc_file.injury_bands),
        severities={k: v.label for k, v in loc_file.severities.items()},
        range_bands=bands,
        numbers=numbers,
        sheet=build_sheet_spec("ars-harn", docs["sheet.yaml"], SHEET_FIELDS),
        material_weights=material_weights,
    )
    check_template(catalog.sheet, catalog)
    return replace(catalog, npcs=_npcs(docs["npcs.yaml"], catalog))
