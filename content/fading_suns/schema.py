"""Validate the Fading Suns pack files and build the engine's catalog from them."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from pydantic import Field

from content.errors import ContentError
from content.schema import Strict, entries, require, validate
from content.sheet_schema import FieldEntry, build_sheet_spec, check_template
from rules.dice import VictoryBand, VictoryChart
from rules.errors import RulesError
from rules.fading_suns.catalog import (
    CHECK_ROLLS,
    CONSEQUENCES,
    DAMAGE_TYPES,
    EFFECTS,
    MODES,
    RESULTS,
    ROLL_KINDS,
    ArmourPiece,
    Check,
    Defense,
    EncumbranceBand,
    EnergyShield,
    FadingSunsCatalog,
    Healing,
    Location,
    Material,
    Severity,
    Weapon,
    WoundEffect,
)
from rules.fading_suns.character import STATE_FIELDS
from rules.sheet_spec import SheetSpec

FILES = (
    "victory_chart.yaml",
    "body.yaml",
    "locations.yaml",
    "injuries.yaml",
    "checks.yaml",
    "weapons.yaml",
    "armour.yaml",
    "shields.yaml",
    "npcs.yaml",
)


def frac(value: float | int) -> Fraction:
    return Fraction(str(value))


# -- file models ------------------------------------------------------------------------------


class BandModel(Strict):
    low: int
    high: int
    points: int = Field(ge=0)
    dice: int = Field(ge=0)


class ChartDoc(Strict):
    source: str | None = None
    bands: list[BandModel] = Field(min_length=1)


class CharacteristicsModel(Strict):
    names: list[str] = Field(min_length=1)
    default: int
    min: int = Field(ge=1)
    max: int


class SkillsModel(Strict):
    max: int = Field(ge=1)
    natural: dict[str, int] = Field(default_factory=dict)


class SizeModel(Strict):
    min: int = Field(ge=1)
    max: int
    average: int
    anchor_kg: float = Field(gt=0)
    step: float = Field(gt=1)


class EncBandModel(Strict):
    at: float = Field(ge=0)
    modifier: int


class EncumbranceModel(Strict):
    strength_power: int = Field(ge=1, le=3)
    bands: list[EncBandModel] = Field(min_length=1)
    applies_to: list[str]


class BodyDoc(Strict):
    source: str
    characteristics: CharacteristicsModel
    skills: SkillsModel
    size: SizeModel
    builds: dict[str, int] = Field(min_length=1)
    encumbrance: EncumbranceModel


class WoundEffectModel(Strict):
    roll: str
    conditions: list[str] = Field(default_factory=list)


class LocationModel(Strict):
    label: str
    melee: tuple[int, int]
    missile: tuple[int, int]
    armour_share: int = Field(ge=0, le=100)
    affects: list[str]
    wounds: dict[str, WoundEffectModel]


class LocationsDoc(Strict):
    source: str
    columns: list[str]
    groups: dict[str, list[str]] = Field(default_factory=dict)
    locations: dict[str, LocationModel] = Field(min_length=1)
    called_shots: dict[str, int] = Field(default_factory=dict)


class SeverityModel(Strict):
    name: str
    above: float | None = Field(default=None, ge=0)
    at_least: float | None = Field(default=None, ge=0)
    goal: int = Field(le=0)
    initiative: int = Field(le=0)
    heal_days: int | None = Field(default=None, ge=1)
    treated_heal_days: int | None = Field(default=None, ge=1)


class EffectRollsModel(Strict):
    characteristic: str
    times: int = Field(ge=1, le=5)
    columns: dict[str, dict[str, str]] = Field(min_length=1)


class HealingModel(Strict):
    characteristic: str
    skills: dict[str, list[str]] = Field(min_length=1)
    default_skill: str
    self_treatment: int = Field(le=0)
    days_per_victory_point: int = Field(ge=0)


class InjuriesDoc(Strict):
    source: str
    severities: list[SeverityModel] = Field(min_length=1)
    effect_rolls: EffectRollsModel
    healing: HealingModel


class CheckModel(Strict):
    characteristic: str
    skill: str
    critical: list[str] = Field(default_factory=list)
    success: list[str] = Field(default_factory=list)
    failure: list[str] = Field(default_factory=list)
    critical_failure: list[str] = Field(default_factory=list)


class DefenseModel(Strict):
    characteristic: str
    skill: str
    against: list[str] = Field(min_length=1)
    critical_failure_check: str | None = None


class EffectDiceModel(Strict):
    sides: int = Field(ge=2, le=100)
    success_at_most: int = Field(ge=1)


class ChecksDoc(Strict):
    source: str
    checks: dict[str, CheckModel]
    defenses: dict[str, DefenseModel] = Field(default_factory=dict)
    attack_critical_failure_check: str | None = None
    condition_modifiers: dict[str, dict[str, int]] = Field(default_factory=dict)
    effect_dice: EffectDiceModel


class WeaponModel(Strict):
    damage: int = Field(ge=0, le=50)
    type: str
    modes: list[str] = Field(min_length=1)
    skill: str
    characteristic: str = "dex"
    goal: int = Field(default=0, ge=-20, le=20)
    init: int = Field(default=0, ge=-20, le=20)
    weight: float = Field(default=0, ge=0, le=1000)
    ignores_armour: bool = False
    ignores_shield: bool = False


class MaterialModel(Strict):
    slash: int = Field(ge=0, le=50)
    pierce: int = Field(ge=0, le=50)
    impact: int = Field(ge=0, le=50)
    energy: int = Field(ge=0, le=50)
    suit_weight: float = Field(ge=0, le=1000)
    dex_penalty: int = Field(default=0, ge=-20, le=0)
    vigor_penalty: int = Field(default=0, ge=-20, le=0)


class PieceModel(Strict):
    material: str
    covers: list[str] = Field(min_length=1)


class ShieldModel(Strict):
    min: int = Field(ge=0, le=100)
    max: int = Field(ge=0, le=100)
    hits: int = Field(ge=1, le=1000)
    weight: float = Field(default=0, ge=0, le=1000)


# -- building -----------------------------------------------------------------------------------


def _doc(docs: dict[str, Any], file: str) -> Any:
    if file not in docs:
        raise ContentError(f"fading-suns/{file}", message="is missing from the pack")
    return docs[file]


def _where(file: str) -> str:
    return f"fading-suns/{file}"


def build_chart(doc: Any) -> VictoryChart:
    file = _where("victory_chart.yaml")
    parsed = validate(ChartDoc, doc, file)
    try:
        return VictoryChart(tuple(VictoryBand(b.low, b.high, b.points, b.dice) for b in parsed.bands))
    except RulesError as exc:
        raise ContentError(file, field="bands", message=str(exc)) from None


def _check_names(names: list[str], known: tuple[str, ...] | set[str], file: str, entry: str | None,
                 field: str) -> None:
    for name in names:
        if name not in known:
            raise ContentError(file, entry, field, f"'{name}' is not one of {', '.join(sorted(known))}")


def _body(doc: Any) -> BodyDoc:
    file = _where("body.yaml")
    body = validate(BodyDoc, doc, file)
    chars = body.characteristics
    for needed in ("str", "dex", "end", "wits"):
        if needed not in chars.names:
            raise ContentError(file, "characteristics", "names", f"must include '{needed}'")
    if not chars.min <= chars.default <= chars.max:
        raise ContentError(file, "characteristics", "default", "must lie between min and max")
    if not body.size.min <= body.size.average <= body.size.max:
        raise ContentError(file, "size", "average", "must lie between min and max")
    if "average" not in body.builds:
        raise ContentError(file, "builds", "average", "is missing")
    ats = [b.at for b in body.encumbrance.bands]
    if ats != sorted(ats) or len(set(ats)) != len(ats):
        raise ContentError(file, "encumbrance", "bands", "must rise strictly by 'at'")
    _check_names(body.encumbrance.applies_to, ROLL_KINDS, file, "encumbrance", "applies_to")
    return body


def _locations(doc: Any, columns_known: tuple[str, ...]) -> tuple[LocationsDoc, tuple[Location, ...]]:
    file = _where("locations.yaml")
    parsed = validate(LocationsDoc, doc, file)
    if tuple(parsed.columns) != columns_known:
        raise ContentError(file, field="columns", message=f"must be {list(columns_known)}")
    for column in columns_known:
        seen: dict[int, str] = {}
        for name, loc in parsed.locations.items():
            low, high = getattr(loc, column)
            if not 1 <= low <= high <= 20:
                raise ContentError(file, name, column, "must be a range [low, high] within 1-20")
            for face in range(low, high + 1):
                if face in seen:
                    raise ContentError(file, name, column, f"face {face} is also {seen[face]}'s")
                seen[face] = name
        missing = [f for f in range(1, 21) if f not in seen]
        if missing:
            raise ContentError(file, field=column, message=f"no location for d20 faces {missing}")
    if sum(loc.armour_share for loc in parsed.locations.values()) <= 0:
        raise ContentError(file, field="armour_share", message="at least one location needs a share")
    for group, members in parsed.groups.items():
        if group in parsed.locations:
            raise ContentError(file, "groups", group, "a group cannot share a location's name")
        _check_names(members, set(parsed.locations), file, "groups", group)
    _check_names(list(parsed.called_shots), set(parsed.locations), file, "called_shots", "name")
    out = []
    for name, loc in parsed.locations.items():
        _check_names(loc.affects, ROLL_KINDS, file, name, "affects")
        out.append(
            Location(
                name=name,
                label=loc.label,
                ranges=(("melee", *loc.melee), ("missile", *loc.missile)),
                armour_share=loc.armour_share,
                affects=tuple(loc.affects),
                wounds=tuple((sev, WoundEffect(w.roll, tuple(w.conditions))) for sev, w in loc.wounds.items()),
                called_shot=parsed.called_shots.get(name, 0),
            )
        )
    return parsed, tuple(out)


def _injuries(doc: Any, characteristics: list[str]) -> tuple[InjuriesDoc, tuple[Severity, ...]]:
    file = _where("injuries.yaml")
    parsed = validate(InjuriesDoc, doc, file)
    severities = []
    for sev in parsed.severities:
        if (sev.above is None) == (sev.at_least is None):
            raise ContentError(file, sev.name, "above", "give exactly one of 'above' or 'at_least'")
        threshold = frac(sev.above if sev.above is not None else sev.at_least or 0)
        severities.append(
            Severity(sev.name, threshold, sev.at_least is not None, sev.goal, sev.initiative,
                     sev.heal_days, sev.treated_heal_days)
        )
    names = [s.name for s in severities]
    if len(set(names)) != len(names):
        raise ContentError(file, field="severities", message="severity names must be unique")
    thresholds = [s.threshold for s in severities]
    if thresholds != sorted(thresholds):
        raise ContentError(file, field="severities", message="thresholds must rise with severity")
    effects = parsed.effect_rolls
    if effects.characteristic not in characteristics:
        raise ContentError(file, "effect_rolls", "characteristic", f"'{effects.characteristic}' is unknown")
    for column, results in effects.columns.items():
        if column in ("none", *CHECK_ROLLS):
            raise ContentError(file, "effect_rolls", column, "is a reserved name")
        if sorted(results) != sorted(RESULTS):
            raise ContentError(file, f"effect_rolls.{column}", None, f"needs exactly {', '.join(RESULTS)}")
        _check_names(list(results.values()), EFFECTS, file, f"effect_rolls.{column}", "result")
    healing = parsed.healing
    if healing.characteristic not in characteristics:
        raise ContentError(file, "healing", "characteristic", f"'{healing.characteristic}' is unknown")
    if healing.default_skill not in healing.skills:
        raise ContentError(file, "healing", "default_skill", "must be one of the healing skills")
    for skill, treats in healing.skills.items():
        _check_names(treats, set(names), file, "healing", skill)
    return parsed, tuple(severities)


def _checks(doc: Any, characteristics: list[str]) -> ChecksDoc:
    file = _where("checks.yaml")
    parsed = validate(ChecksDoc, doc, file)
    if sorted(parsed.checks) != sorted(CHECK_ROLLS):
        raise ContentError(file, field="checks", message=f"must define exactly {', '.join(CHECK_ROLLS)}")
    for name, chk in parsed.checks.items():
        if chk.characteristic not in characteristics:
            raise ContentError(file, name, "characteristic", f"'{chk.characteristic}' is unknown")
        for result in RESULTS:
            _check_names(getattr(chk, result), CONSEQUENCES, file, name, result)
    for name, d in parsed.defenses.items():
        if d.characteristic not in characteristics:
            raise ContentError(file, name, "characteristic", f"'{d.characteristic}' is unknown")
        _check_names(d.against, MODES, file, name, "against")
        if d.critical_failure_check is not None and d.critical_failure_check not in parsed.checks:
            raise ContentError(file, name, "critical_failure_check", "must name a check")
        if name not in ROLL_KINDS:
            raise ContentError(file, name, None, f"a defense must be one of {', '.join(ROLL_KINDS)}")
    acf = parsed.attack_critical_failure_check
    if acf is not None and acf not in parsed.checks:
        raise ContentError(file, field="attack_critical_failure_check", message="must name a check")
    for condition, mods in parsed.condition_modifiers.items():
        _check_names([condition], CONSEQUENCES, file, "condition_modifiers", "condition")
        _check_names(list(mods), ROLL_KINDS, file, "condition_modifiers", condition)
    if parsed.effect_dice.success_at_most > parsed.effect_dice.sides:
        raise ContentError(file, "effect_dice", "success_at_most", "cannot exceed the die's sides")
    return parsed


def _weapons(doc: Any, characteristics: list[str]) -> tuple[dict[str, Weapon], tuple[str, ...]]:
    file = _where("weapons.yaml")
    out = {}
    for name, data in entries(doc, file, "weapons"):
        w = validate(WeaponModel, data, file, name)
        _check_names([w.type], DAMAGE_TYPES, file, name, "type")
        _check_names(w.modes, MODES, file, name, "modes")
        _check_names([w.characteristic], set(characteristics), file, name, "characteristic")
        out[name] = Weapon(name, w.damage, w.type, tuple(w.modes), w.skill, w.characteristic, w.goal, w.init,
                           frac(w.weight), w.ignores_armour, w.ignores_shield)
    unarmed = doc.get("unarmed", [])
    if not isinstance(unarmed, list) or not all(isinstance(n, str) for n in unarmed):
        raise ContentError(file, field="unarmed", message="must be a list of weapon names")
    _check_names(unarmed, set(out), file, None, "unarmed")
    return out, tuple(unarmed)


def build(docs: dict[str, Any]) -> FadingSunsCatalog:
    """The catalog from ``docs`` (file name -> parsed YAML); every problem names file, entry, field."""
    chart = build_chart(_doc(docs, "victory_chart.yaml"))
    body = _body(_doc(docs, "body.yaml"))
    chars = body.characteristics.names
    loc_doc, locations = _locations(_doc(docs, "locations.yaml"), MODES)
    inj_doc, severities = _injuries(_doc(docs, "injuries.yaml"), chars)
    checks_doc = _checks(_doc(docs, "checks.yaml"), chars)

    rolls_known = {"none", *CHECK_ROLLS, *inj_doc.effect_rolls.columns}
    loc_file = _where("locations.yaml")
    for loc in locations:
        have = {sev for sev, _ in loc.wounds}
        for sev in severities:
            if sev.name not in have:
                raise ContentError(loc_file, loc.name, "wounds", f"has no entry for '{sev.name}'")
        for sev_name, effect in loc.wounds:
            if sev_name not in {s.name for s in severities}:
                raise ContentError(loc_file, loc.name, f"wounds.{sev_name}", "is not a severity in injuries.yaml")
            _check_names([effect.roll], rolls_known, loc_file, loc.name, f"wounds.{sev_name}.roll")
            _check_names(list(effect.conditions), CONSEQUENCES, loc_file, loc.name, f"wounds.{sev_name}.conditions")

    weapons, unarmed = _weapons(_doc(docs, "weapons.yaml"), chars)

    armour_file = _where("armour.yaml")
    armour_doc = _doc(docs, "armour.yaml")
    materials: dict[str, Material] = {}
    for name, data in entries(armour_doc, armour_file, "materials"):
        m = validate(MaterialModel, data, armour_file, name)
        penalties = tuple((t, v) for t, v in (("dex", m.dex_penalty), ("vigor", m.vigor_penalty)) if v)
        materials[name] = Material(name, tuple((t, getattr(m, t)) for t in DAMAGE_TYPES), frac(m.suit_weight),
                                   penalties)

    shields: dict[str, EnergyShield] = {}
    shield_file = _where("shields.yaml")
    for name, data in entries(_doc(docs, "shields.yaml"), shield_file, "shields"):
        s = validate(ShieldModel, data, shield_file, name)
        if s.max < s.min:
            raise ContentError(shield_file, name, "max", "must be at least min")
        shields[name] = EnergyShield(name, s.min, s.max, s.hits, frac(s.weight))

    effects = inj_doc.effect_rolls
    healing = inj_doc.healing
    sheet = _sheet(_doc(docs, "sheet.yaml"), body, [*healing.skills])
    catalog = FadingSunsCatalog(
        chart=chart,
        characteristics=tuple(chars),
        characteristic_default=body.characteristics.default,
        characteristic_range=(body.characteristics.min, body.characteristics.max),
        skill_max=body.skills.max,
        natural_skills=tuple(body.skills.natural.items()),
        size_range=(body.size.min, body.size.max),
        size_average=body.size.average,
        anchor_kg=frac(body.size.anchor_kg),
        size_step=frac(body.size.step),
        builds=tuple(body.builds.items()),
        strength_power=body.encumbrance.strength_power,
        encumbrance=tuple(EncumbranceBand(frac(b.at), b.modifier) for b in body.encumbrance.bands),
        encumbrance_applies_to=tuple(body.encumbrance.applies_to),
        columns=tuple(loc_doc.columns),
        groups=tuple((g, tuple(m)) for g, m in loc_doc.groups.items()),
        locations=locations,
        severities=severities,
        effect_characteristic=effects.characteristic,
        effect_times=effects.times,
        effect_columns=tuple((c, tuple(r.items())) for c, r in effects.columns.items()),
        healing=Healing(healing.characteristic, tuple((k, tuple(v)) for k, v in healing.skills.items()),
                        healing.default_skill, healing.self_treatment, healing.days_per_victory_point),
        checks=tuple(
            Check(name, c.characteristic, c.skill, tuple((r, tuple(getattr(c, r))) for r in RESULTS))
            for name, c in checks_doc.checks.items()
        ),
        defenses=tuple(
            Defense(name, d.characteristic, d.skill, tuple(d.against), d.critical_failure_check)
            for name, d in checks_doc.defenses.items()
        ),
        attack_critical_failure_check=checks_doc.attack_critical_failure_check,
        condition_modifiers=tuple((c, tuple(m.items())) for c, m in checks_doc.condition_modifiers.items()),
        effect_die_sides=checks_doc.effect_dice.sides,
        effect_die_success=checks_doc.effect_dice.success_at_most,
        sheet=sheet,
        unarmed=unarmed,
        weapons=weapons,
        materials=materials,
        shields=shields,
    )

    pieces: dict[str, ArmourPiece] = {}
    for name, data in entries(armour_doc, armour_file, "armour"):
        p = validate(PieceModel, data, armour_file, name)
        material = materials.get(p.material)
        if material is None:
            raise ContentError(armour_file, name, "material", f"'{p.material}' is not in materials")
        covers = catalog.expand_covers(p.covers)
        if covers is None:
            raise ContentError(armour_file, name, "covers",
                               f"must name locations or groups ({', '.join(catalog.cover_names())})")
        pieces[name] = ArmourPiece(name, material.ratings, covers, material.suit_weight,
                                   penalties=material.penalties)
    catalog = dataclasses.replace(catalog, armour=pieces)
    check_template(sheet, catalog)

    npcs = _npcs(_doc(docs, "npcs.yaml"), catalog)
    return dataclasses.replace(catalog, npcs=npcs)


def _sheet(doc: Any, body: BodyDoc, healing_skills: list[str]) -> SheetSpec:
    """The sheet description: meanings from sheet.yaml, and the numbers body.yaml holds (one home each)."""
    chars = body.characteristics
    owned: dict[str, dict[str, Any]] = {
        **{c: {"low": chars.min, "high": chars.max, "default": chars.default} for c in chars.names},
        "size": {"low": body.size.min, "high": body.size.max, "default": body.size.average},
        "build": {"choices": tuple(body.builds)},
        "skills": {"high": body.skills.max, "names": (*body.skills.natural, *healing_skills)},
    }

    def fill(name: str, entry: FieldEntry) -> dict[str, Any]:
        values = owned.get(name, {})
        for key in values:
            if key != "names" and key in entry.model_fields_set:
                raise ContentError(_where("sheet.yaml"), name, key, "is set in body.yaml")
        return values

    return build_sheet_spec("fading-suns", doc, ("name", *chars.names, *STATE_FIELDS), fill)


def _npcs(doc: Any, catalog: FadingSunsCatalog) -> dict[str, dict[str, Any]]:
    from rules.fading_suns.character import validate_sheet

    file = _where("npcs.yaml")
    require(doc, file, "npcs")
    out = {}
    for name, data in entries(doc, file, "npcs"):
        try:
            out[name] = validate_sheet(data, catalog, who=name)
        except RulesError as exc:
            raise ContentError(file, name, message=str(exc)) from None
    return out
