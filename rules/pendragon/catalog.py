"""The Pendragon content pack as frozen data: weapons, armour, horses and every table the rules read."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.errors import UnknownEntry
from rules.sheet_spec import SheetSpec

STATS = ("siz", "dex", "str", "con", "app")


def key(name: str) -> str:
    """Content names are matched case-blind, with spaces and hyphens read as underscores."""
    return "_".join(name.strip().lower().replace("-", " ").split())


def lookup(table: Mapping[str, Any], name: str, what: str) -> Any:
    found = table.get(key(name))
    if found is None:
        close = difflib.get_close_matches(key(name), list(table), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else f" (known: {', '.join(sorted(table))})"
        raise UnknownEntry(f"unknown {what} '{name}'{hint}")
    return found


@dataclass(frozen=True)
class DiceSpec:
    """NdS+B; a count of 0 is a flat amount."""

    count: int
    sides: int = 6
    bonus: int = 0

    def text(self) -> str:
        dice = f"{self.count}d{self.sides}" if self.count else ""
        if self.bonus:
            return f"{dice}{self.bonus:+d}" if dice else str(self.bonus)
        return dice or "0"


@dataclass(frozen=True)
class Weapon:
    name: str
    skill: str
    hands: int = 1
    sword: bool = False  # breaks a non-sword on a tie; dropped, not broken, on a fumble
    fumble: str = "break"  # break | drop | none
    breakable: bool = True
    dice_mod: int = 0  # added to the wielder's Damage dice
    min_dice: int = 1
    own_dice: int | None = None  # missiles: their own dice instead of the wielder's Damage
    bonus: int = 0  # flat bonus to the damage roll (crossbows)
    halve: bool = False  # brawling: (Damage + dice_mod) halved
    vs_shield_dice: int = 0
    vs_mail_dice: int = 0
    ignores_shield: bool = False
    natural_1_hits_self: bool = False
    lance: bool = False  # counts as a lance when a foe charges (no +5 against it)
    charge_skill: str | None = None  # skill used in a mounted charge (spear: lance)
    charge_uses_horse: bool = False  # a charge deals the horse's damage instead of the rider's
    breaks_on_charge: bool = False
    mounted_only: bool = False
    negates_mounted_bonus: bool = False  # great spear against a horseman
    missile: bool = False
    range_yards: int | None = None
    inline: bool = False


@dataclass(frozen=True)
class Armour:
    name: str
    points: int
    dex_mod: int = 0
    heavy: bool = False
    mail: bool = False  # "ring and chain": maces and flails deal more against it
    shield: bool = False
    inline: bool = False


@dataclass(frozen=True)
class Horse:
    name: str
    damage_dice: int
    inline: bool = False


@dataclass(frozen=True)
class Situation:
    name: str
    modifier: int  # to the side it is declared for
    foe_modifier: int = 0  # to the other side


@dataclass(frozen=True)
class DerivedRule:
    divisor: int
    minimum: int = 0


@dataclass(frozen=True)
class CombatTables:
    mounted_bonus: int
    footman_penalty: int
    charge_bonus: int
    great_spear_bonus: int
    prone_self: int
    prone_foe: int
    defend_bonus: int
    knockdown_fall_damage: DiceSpec
    unconscious_fall_damage: DiceSpec
    stat_loss: Mapping[int, str | None]  # d6 face -> characteristic lost (None: no loss)
    stat_loss_amount: int
    mortal_stat_rolls: int
    default_valorous: int


@dataclass(frozen=True)
class HealingTables:
    first_aid_critical: DiceSpec
    first_aid_success: DiceSpec
    first_aid_fumble_harm: DiceSpec
    chirurgery_critical_rates: int  # Healing Rates restored on a critical
    chirurgery_success_rates: int
    deterioration: DiceSpec
    chirurgery_fumble_harm: DiceSpec
    max_weeks: int


@dataclass(frozen=True)
class PendragonCatalog:
    weapons: Mapping[str, Weapon]
    armour: Mapping[str, Armour]
    horses: Mapping[str, Horse]
    situations: Mapping[str, Situation]
    derived: Mapping[str, DerivedRule]
    combat: CombatTables
    healing: HealingTables
    unarmed: str  # the weapon a character always has (brawling)
    sheet: SheetSpec
    npcs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def weapon_names(self) -> Sequence[str]:
        return sorted(self.weapons)

    def armour_names(self) -> Sequence[str]:
        return sorted(self.armour)

    def npc_templates(self) -> Mapping[str, Mapping[str, Any]]:
        return self.npcs

    def location_labels(self) -> Mapping[str, str]:
        return {}  # a blow takes hit points, it lands nowhere

    def defense_names(self) -> tuple[str, ...]:
        return ()  # the defender's player chooses no defence before the blow

    def sheet_names(self, items: str) -> Sequence[str]:
        """The names a sheet field may take: weapons, armour, horses, or the skills the pack's weapons use."""
        if items == "weapons":
            return [name for name in self.weapon_names() if name != self.unarmed]
        if items == "armour":
            return self.armour_names()
        if items == "horses":
            return sorted(self.horses)
        if items == "skills":
            used = {w.skill for w in self.weapons.values()} | {w.charge_skill for w in self.weapons.values()}
            return sorted(skill for skill in used if skill)
        return []

    def item_problem(self, items: str, name: str) -> str | None:
        tables: dict[str, tuple[Mapping[str, Any], str]] = {
            "weapons": (self.weapons, "weapon"), "armour": (self.armour, "armour"), "horses": (self.horses, "horse")}
        if items not in tables:
            return None
        table, what = tables[items]
        try:
            lookup(table, name, what)
        except UnknownEntry as exc:
            return str(exc)
        return None

    def weapon(self, name: str) -> Weapon:
        found: Weapon = lookup(self.weapons, name, "weapon")
        return found

    def armour_piece(self, name: str) -> Armour:
        found: Armour = lookup(self.armour, name, "armour")
        return found

    def horse(self, name: str) -> Horse:
        found: Horse = lookup(self.horses, name, "horse")
        return found

    def situation(self, name: str) -> Situation:
        found: Situation = lookup(self.situations, name, "situation")
        return found
