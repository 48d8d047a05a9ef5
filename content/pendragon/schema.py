"""The Pendragon pack: YAML documents -> PendragonCatalog, every error naming file, entry and field."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import Field

from content.errors import ContentError
from content.schema import Strict, entries, require, validate
from content.sheet_schema import build_sheet_spec, check_template
from rules.errors import RulesError
from rules.pendragon.catalog import (
    STATS,
    Armour,
    CombatTables,
    DerivedRule,
    DiceSpec,
    HealingTables,
    Horse,
    PendragonCatalog,
    Situation,
    Weapon,
    key,
)
from rules.pendragon.character import KNOWN_FIELDS

FILES = ("weapons.yaml", "armour.yaml", "horses.yaml", "derived.yaml", "combat.yaml", "healing.yaml", "npcs.yaml",
         "sheet.yaml")


class DiceModel(Strict):
    count: int = Field(ge=0, le=100)
    sides: int = Field(default=6, ge=2, le=100)
    bonus: int = Field(default=0, ge=-100, le=100)

    def spec(self) -> DiceSpec:
        return DiceSpec(self.count, self.sides, self.bonus)


class WeaponModel(Strict):
    skill: str = Field(min_length=1)
    hands: int = Field(default=1, ge=1, le=2)
    sword: bool = False
    fumble: Literal["break", "drop", "none"] = "break"
    breakable: bool = True
    dice_mod: int = Field(default=0, ge=-20, le=20)
    min_dice: int = Field(default=1, ge=0, le=20)
    own_dice: int | None = Field(default=None, ge=0, le=100)
    bonus: int = Field(default=0, ge=-50, le=100)
    halve: bool = False
    vs_shield_dice: int = Field(default=0, ge=0, le=10)
    vs_mail_dice: int = Field(default=0, ge=0, le=10)
    ignores_shield: bool = False
    natural_1_hits_self: bool = False
    lance: bool = False
    charge_skill: str | None = None
    charge_uses_horse: bool = False
    breaks_on_charge: bool = False
    mounted_only: bool = False
    negates_mounted_bonus: bool = False
    missile: bool = False
    range_yards: int | None = Field(default=None, ge=0)


class ArmourModel(Strict):
    points: int = Field(ge=0, le=100)
    dex_mod: int = Field(default=0, ge=-50, le=0)
    heavy: bool = False
    mail: bool = False
    shield: bool = False


class HorseModel(Strict):
    damage_dice: int = Field(ge=0, le=100)


class DerivedModel(Strict):
    divisor: int = Field(ge=1)
    minimum: int = Field(default=0, ge=0)


class SituationModel(Strict):
    modifier: int = Field(ge=-50, le=50)
    foe_modifier: int = Field(default=0, ge=-50, le=50)


class ModifiersModel(Strict):
    mounted_bonus: int
    footman_penalty: int
    charge_bonus: int
    great_spear_bonus: int
    prone_self: int
    prone_foe: int
    defend_bonus: int


class StatLossModel(Strict):
    table: dict[int, Literal["siz", "dex", "str", "con", "app"] | None]
    amount: int = Field(ge=0, le=10)
    mortal_rolls: int = Field(ge=0, le=10)


class CombatModel(Strict):
    source: str
    modifiers: ModifiersModel
    knockdown_fall_damage: DiceModel
    unconscious_fall_damage: DiceModel
    stat_loss: StatLossModel
    default_valorous: int = Field(ge=0, le=40)
    situations: dict[str, SituationModel]


class FirstAidModel(Strict):
    critical: DiceModel
    success: DiceModel
    fumble_harm: DiceModel


class ChirurgeryModel(Strict):
    critical_rates: int = Field(ge=0, le=10)
    success_rates: int = Field(ge=0, le=10)
    deterioration: DiceModel
    fumble_harm: DiceModel


class HealingModel(Strict):
    source: str
    first_aid: FirstAidModel
    chirurgery: ChirurgeryModel
    max_weeks: int = Field(ge=1, le=1000)


def _doc(docs: dict[str, Any], file: str) -> Any:
    if file not in docs:
        raise ContentError(f"pendragon/{file}", message="is missing from the pack")
    doc = docs[file]
    require(doc, f"pendragon/{file}", "source")
    return doc


def _weapons(docs: dict[str, Any]) -> tuple[dict[str, Weapon], str]:
    file = "pendragon/weapons.yaml"
    doc = _doc(docs, "weapons.yaml")
    out: dict[str, Weapon] = {}
    for name, data in entries(doc, file, "weapons"):
        m = validate(WeaponModel, data, file, name)
        values = m.model_dump()
        values["skill"] = key(m.skill)
        values["charge_skill"] = key(m.charge_skill) if m.charge_skill else None
        out[key(name)] = Weapon(name=key(name), **values)
    unarmed = require(doc, file, "unarmed")
    if not isinstance(unarmed, str) or key(unarmed) not in out:
        raise ContentError(file, field="unarmed", message="must name one of the weapons (the unarmed attack)")
    return out, key(unarmed)


def _named(docs: dict[str, Any], file: str, section: str, model: type[Strict]) -> dict[str, Any]:
    doc = _doc(docs, file)
    return {key(name): validate(model, data, f"pendragon/{file}", name)
            for name, data in entries(doc, f"pendragon/{file}", section)}


def build(docs: dict[str, Any]) -> PendragonCatalog:
    weapons, unarmed = _weapons(docs)
    armour_models = _named(docs, "armour.yaml", "armour", ArmourModel)
    armour = {n: Armour(name=n, **m.model_dump()) for n, m in armour_models.items()}
    horses = {n: Horse(name=n, damage_dice=m.damage_dice)
              for n, m in _named(docs, "horses.yaml", "horses", HorseModel).items()}
    derived_models = _named(docs, "derived.yaml", "derived", DerivedModel)
    for needed in ("damage_dice", "unconscious", "healing_rate", "move"):
        if needed not in derived_models:
            raise ContentError("pendragon/derived.yaml", needed, message="is missing")
    derived = {n: DerivedRule(m.divisor, m.minimum) for n, m in derived_models.items()}

    combat_m = validate(CombatModel, _doc(docs, "combat.yaml"), "pendragon/combat.yaml")
    table = combat_m.stat_loss.table
    if sorted(table) != [1, 2, 3, 4, 5, 6]:
        raise ContentError("pendragon/combat.yaml", "stat_loss", "table", "must give faces 1 to 6 of a d6")
    mods = combat_m.modifiers
    combat = CombatTables(
        mounted_bonus=mods.mounted_bonus, footman_penalty=mods.footman_penalty, charge_bonus=mods.charge_bonus,
        great_spear_bonus=mods.great_spear_bonus, prone_self=mods.prone_self, prone_foe=mods.prone_foe,
        defend_bonus=mods.defend_bonus, knockdown_fall_damage=combat_m.knockdown_fall_damage.spec(),
        unconscious_fall_damage=combat_m.unconscious_fall_damage.spec(), stat_loss=dict(table),
        stat_loss_amount=combat_m.stat_loss.amount, mortal_stat_rolls=combat_m.stat_loss.mortal_rolls,
        default_valorous=combat_m.default_valorous)
    situations = {key(n): Situation(key(n), s.modifier, s.foe_modifier) for n, s in combat_m.situations.items()}

    heal_m = validate(HealingModel, _doc(docs, "healing.yaml"), "pendragon/healing.yaml")
    healing = HealingTables(
        first_aid_critical=heal_m.first_aid.critical.spec(), first_aid_success=heal_m.first_aid.success.spec(),
        first_aid_fumble_harm=heal_m.first_aid.fumble_harm.spec(),
        chirurgery_critical_rates=heal_m.chirurgery.critical_rates,
        chirurgery_success_rates=heal_m.chirurgery.success_rates,
        deterioration=heal_m.chirurgery.deterioration.spec(),
        chirurgery_fumble_harm=heal_m.chirurgery.fumble_harm.spec(), max_weeks=heal_m.max_weeks)

    if "sheet.yaml" not in docs:
        raise ContentError("pendragon/sheet.yaml", message="is missing from the pack")
    sheet = build_sheet_spec("pendragon", docs["sheet.yaml"], KNOWN_FIELDS)
    catalog = PendragonCatalog(weapons=weapons, armour=armour, horses=horses, situations=situations,
                               derived=derived, combat=combat, healing=healing, unarmed=unarmed, sheet=sheet)
    check_template(sheet, catalog)
    return replace(catalog, npcs=_npcs(docs, catalog))


def _npcs(docs: dict[str, Any], catalog: PendragonCatalog) -> dict[str, dict[str, Any]]:
    from rules.pendragon.summary import validate_sheet

    file = "pendragon/npcs.yaml"
    out: dict[str, dict[str, Any]] = {}
    for name, data in entries(_doc(docs, "npcs.yaml"), file, "npcs"):
        if not isinstance(data, dict) or not all(s in data for s in STATS):
            raise ContentError(file, name, message=f"must be a sheet with {', '.join(STATS)}")
        try:
            out[key(name)] = validate_sheet(data, catalog)
        except RulesError as exc:
            raise ContentError(file, name, message=str(exc)) from None
    return out
