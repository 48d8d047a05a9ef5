"""The winner's damage dice: the character's Damage adjusted by the weapon (docs/rules/pendragon.md, rule 7)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.pendragon.catalog import Weapon
from rules.pendragon.derived import half_up


@dataclass(frozen=True)
class DamagePlan:
    count: int
    bonus: int
    notes: tuple[str, ...]

    def text(self) -> str:
        return f"{self.count}d6" + (f"{self.bonus:+d}" if self.bonus else "")


def plan_damage(weapon: Weapon, wielder_dice: int, *, horse_dice: int | None = None,
                foe_shield: bool = False, foe_mail: bool = False) -> DamagePlan:
    """Dice to roll. ``horse_dice`` is given for a charge with a lance or spear (the mount's damage)."""
    notes: list[str] = []
    if weapon.own_dice is not None:
        count = weapon.own_dice
        notes.append("own_dice")
    elif horse_dice is not None:
        count = horse_dice
        notes.append("horse_damage")
    else:
        count = wielder_dice
    count += weapon.dice_mod
    if foe_shield and weapon.vs_shield_dice:
        count += weapon.vs_shield_dice
        notes.append("vs_shield")
    if foe_mail and weapon.vs_mail_dice:
        count += weapon.vs_mail_dice
        notes.append("vs_mail")
    if weapon.halve:
        count = half_up(count, 2)  # half dice round half up, as every derived figure does
        notes.append("halved")
    count = max(count, weapon.min_dice, 0)
    return DamagePlan(count=count, bonus=weapon.bonus, notes=tuple(notes))
